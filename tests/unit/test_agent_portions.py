"""How many of a line already bought an after-sale message takes (language/portions.py): a
part ("one of the plates", « un seul des mugs », 「4枚のうち1枚」), the whole less a part
("keep one and send the rest back", « tout sauf deux », 「1枚は残して」), the whole, a half;
and the requests around it: the verbs of sending goods back, a kept thing that is no request
of its own, a reading plan taken out in Japanese."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.portions import taken
from commerce_agent.agent.models.scripted import aftercare, sequence
from commerce_agent.agent.models.scripted.intents import understand


@pytest.mark.parametrize(("said", "whole", "wanted"), [
    # a part of the line
    ("return one of the plates, it arrived chipped", 4, 1),
    ("send back 2 of the 4 mugs", 4, 2),
    ("return two out of four plates", 4, 2),
    ("I need to return 3 of those plates", 5, 3),
    ("I'd like to return a couple of the plates", 5, 2),
    ("one of the mugs cracked, can I send just that one back please", 3, 1),
    ("je veux rendre un seul des mugs", 3, 1),
    ("renvoyer l'une des assiettes", 3, 1),
    ("4枚のうち1枚を返品", 4, 1),
    # the whole less a part
    ("I'll keep one plate and send the rest back", 3, 2),
    ("return all but one of the mugs", 4, 3),
    ("send the rest back but keep 2", 5, 3),
    ("je garde une assiette et je renvoie le reste", 3, 2),
    ("tout sauf deux", 4, 2),
    ("1枚は残して、残りを返品したい", 3, 2),
    # the whole, a half
    ("return all of them", 4, 4),
    ("je les renvoie toutes", 3, 3),
    ("全部返品したい", 3, 3),
    ("return half of them", 4, 2),
])
def test_a_part_of_a_line_is_read_against_what_was_bought(said: str, whole: int,
                                                          wanted: int) -> None:
    assert taken(said, whole) == wanted


@pytest.mark.parametrize(("said", "whole"), [
    ("return 2 plates", 4),  # a plain count: the count reader's
    ("マグカップを2個返品してください", 4),
    ("return the teapot, it leaks", 1),
    ("return 2 plates, everything else was fine", 4),  # the count said, not the whole
    ("renvoie 2 assiettes, c'est tout", 3),
    ("return 5 of the 4", 4),  # more than the line holds: no part of it
    ("keep 4 and return the rest", 4),  # nothing left to return
])
def test_no_part_is_read_where_none_is_said(said: str, whole: int) -> None:
    assert taken(said, whole) is None


@given(st.integers(min_value=1, max_value=40), st.integers(min_value=1, max_value=40))
def test_a_part_is_never_more_than_the_line_nor_less_than_one(part: int, whole: int) -> None:
    for said in (f"return {part} of the plates", f"keep {part} and send the rest back",
                 f"{whole}枚のうち{part}枚を返品"):
        found = taken(said, whole)
        assert found is None or 1 <= found <= whole


@pytest.mark.parametrize("said", [
    "ship back one plate", "I'll mail the mug back",
    "je veux rendre un seul des mugs", "je voudrais rapporter le mug", "rends le mug",
    "マグカップを1つ返したいです", "お皿を2枚送り返したい", "商品を返送したい",
])
def test_goods_sent_back_are_a_return(said: str) -> None:
    assert understand(said)[0] == "return"


@pytest.mark.parametrize("said", ["rendez-vous demain", "je prends rendez-vous", "繰り返します",
                                  "ça me rend heureux"])
def test_the_same_verbs_about_other_things_are_no_return(said: str) -> None:
    assert understand(said)[0] != "return"


@pytest.mark.parametrize(("said", "wanted"), [
    ("Folio Unlimitedを購読したいです", "subscribe"),
    ("Folio Unlimitedを定期購読します", "subscribe"),
    ("Folio Unlimitedの購読をやめたい", "sub_cancel"),
    ("購読を一時停止して", "sub_pause"),
])
def test_a_reading_plan_in_japanese(said: str, wanted: str) -> None:
    assert understand(said)[0] == wanted


@pytest.mark.parametrize("said", [
    "I'll keep one plate and send the rest back",
    "je garde une assiette et je renvoie le reste",
    "1枚は残して、残りを返品したいです",
])
def test_what_is_kept_bounds_the_request_beside_it(said: str) -> None:
    assert sequence.requests(said) == []  # served whole, never a keep read as an add


# --- which order: a store described, a plan's category --------------------------------------

def test_a_shop_said_in_one_word_is_read_by_what_it_sells() -> None:
    assert aftercare._SHOP_COMPOUND.sub(r"\1 shop", "the bookshop, the teahouse, bookstores") \
        == "the book shop, the tea shop, book shop"
    assert aftercare._SHOP_COMPOUND.sub(r"\1 shop", "the shop") == "the shop"


def test_a_plans_category_names_no_plan_among_plans() -> None:
    plan = {"metadata": {"dev.commerce.product.categorization": {"items": [
        {"name": "Subscriptions"}, {"name": "Reading"}]}}}
    membership = {"metadata": {"dev.commerce.product.categorization": {"items": [
        {"name": "Yoga"}, {"name": "Memberships"}]}}}
    assert aftercare._kinds(plan, among_plans=True) == frozenset({"reading"})
    assert aftercare._kinds(membership, among_plans=True) == frozenset({"yoga"})
    # beside orders that are no plans, "my subscription" still names the plan's order
    assert "subscription" in aftercare._kinds(plan)


def test_a_store_is_described_only_once_the_stores_are_listed() -> None:
    listed = SimpleNamespace(state=SimpleNamespace(stores=[
        {"storeId": "store_ebooks", "description": "An independent Berlin shop for DRM-free "
                                                   "eBooks, audiobooks and software"}]))
    unlisted = SimpleNamespace(state=SimpleNamespace(stores=None))
    assert {"berlin", "ebook"} <= aftercare._described(cast(Any, listed), "store_ebooks")
    assert aftercare._described(cast(Any, listed), "store_midori") == frozenset()
    assert aftercare._described(cast(Any, unlisted), "store_ebooks") == frozenset()


@pytest.mark.parametrize("said", [
    "return one mug and two plates", "je renvoie un mug et deux assiettes"])
def test_things_named_after_a_return_go_back_too(said: str) -> None:
    assert sequence.requests(said) == []  # one return, each line with its own count


def test_a_thing_asked_for_after_a_return_is_an_add() -> None:
    assert [r.kind for r in sequence.requests("return the mug and add two plates")] == [
        "return", "add"]


@pytest.mark.parametrize(("said", "every"), [
    ("cancel both orders", True), ("cancel both", True), ("cancel all my orders", True),
    ("annulez les deux", True), ("annule toutes mes commandes", True),
    ("両方キャンセルしてください", True), ("注文を全部キャンセル", True),
    ("cancel the order with both mugs", False), ("cancel my last order", False)])
def test_every_order_meant_at_once(said: str, every: bool) -> None:
    assert bool(aftercare._EVERY_ORDER.search(said.lower())) == every
