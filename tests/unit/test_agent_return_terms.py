"""How a return is settled and how the goods go back (language/return_terms.py), and the
pickup words around an after-sale or shopping message: a collecting clause names no item, a
question about collecting is asked, never a swap; an order id glued to Japanese is read."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language import return_terms
from commerce_agent.agent.language.delivery import without_any_collecting
from commerce_agent.agent.models.scripted import which_order, words
from commerce_agent.agent.models.scripted.intents import understand


@pytest.mark.parametrize(("said", "wanted"), [
    ("return the planter for store credit please", "store_credit"),
    ("I'd rather have a voucher than my money back", "store_credit"),
    ("je préfère un avoir", "store_credit"),
    ("ストアクレジットでお願いします", "store_credit"),
    ("can I exchange the mug for another one", "exchange"),
    ("je voudrais un échange", "exchange"),
    ("マグを交換したいです", "exchange"),
    ("I want a refund for the plates", "refund"),
    ("return the plates", None),
])
def test_how_a_return_is_settled(said: str, wanted: str | None) -> None:
    assert return_terms.resolution(said) == wanted


@pytest.mark.parametrize(("said", "wanted"), [
    ("I want to return the plates, I'll drop them off at the shop", "in_store"),
    ("I'll bring them back to the studio", "in_store"),
    ("je les rapporte en boutique", "in_store"),
    ("店頭に持って行きます", "in_store"),
    ("can you collect them from my place?", "pickup"),
    ("pouvez-vous venir les chercher ?", "pickup"),
    ("集荷をお願いします", "pickup"),
    ("I'll send them back by post", "ship"),
    ("return the plates", None),
])
def test_how_the_goods_go_back(said: str, wanted: str | None) -> None:
    assert return_terms.method(said) == wanted


@pytest.mark.parametrize("said", [
    "I'll pick them up at 7pm", "I'll collect them", "je passe les prendre vers 19h",
    "I'll grab them at 6", "6時に取りに行きます"])
def test_a_collecting_clause_names_no_item(said: str) -> None:
    assert not words.names_a_thing(without_any_collecting(said))


def test_a_collecting_clause_is_no_item_of_a_list() -> None:
    found = words.item_mentions("two arancini and a tiramisu, I'll pick them up at 7pm")
    assert [head for head, _ in found][:1] == ["two arancini"]
    assert len(found) == 2  # the clause goes with the tiramisu, never an item "pick"


@pytest.mark.parametrize("said", [
    "can I pick it up at your studio instead of shipping?",
    "can I collect it instead of delivery?"])
def test_asking_to_collect_instead_is_a_question(said: str) -> None:
    assert understand(said)[0] == "policy"


@pytest.mark.parametrize("said", [
    "je garde une assiette, reprenez les autres", "can you take the plates back?",
    "take back two plates please"])
def test_the_shop_asked_to_take_goods_back_is_a_return(said: str) -> None:
    assert understand(said)[0] == "return"


def test_reprendre_a_plan_still_resumes_it() -> None:
    assert understand("reprends mon abonnement")[0] == "sub_resume"


def test_an_order_id_glued_to_japanese_is_read() -> None:
    assert words.order_id("ord_01a21debd14382cf25b247933edaの状況は？") == \
        "ord_01a21debd14382cf25b247933eda"
    assert which_order.spelt_out("3f9a2cの注文", ["ord_0001aaaaaa3f9a2c"]) == \
        "ord_0001aaaaaa3f9a2cの注文"
