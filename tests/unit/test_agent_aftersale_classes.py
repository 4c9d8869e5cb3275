"""After-sale requests by class (round 7): an order's id or tail alone, comparatives among
tied orders, scores as ratings, the verbs that cancel, stop or reorder, and the terms asked
about, in English, French and Japanese."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import which_order, words
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.which_order import Meant, resolve

OLD_MUG = {"orderId": "ord_0001aaaaaa3f9a2c", "items": [{"name": "Glaze Mug"}]}
PLATES = {"orderId": "ord_0002bbbbbb77e1d0", "items": [{"name": "Dinner Plate"}]}
NEW_MUG = {"orderId": "ord_0003cccccc0b4e11", "items": [{"name": "Glaze Mug"}]}
ORDERS = [OLD_MUG, PLATES, NEW_MUG]  # oldest first


def fits(order: dict[str, Any], text: str) -> int:
    said = set(text.lower().replace("?", " ").split())
    return len(said & {word.lower() for line in order["items"] for word in line["name"].split()})


@pytest.mark.parametrize("text", [
    "3f9a2c", "…3f9a2c?", "#3f9a2c", "order #3f9a2c please", "注文番号は3f9a2cです",
    "ord_0001aaaaaa3f9a2c", "123456", "c'est la commande 3f9a2c"])
def test_an_id_or_its_tail_alone_asks_where_the_order_is(text: str) -> None:
    assert which_order.only_an_order(text)
    assert understand(text)[0] == "status"


@pytest.mark.parametrize("text", [
    "97202", "WELCOME10", "12oz", "buy 3f9a2c mugs", "cancel 3f9a2c", "facade", "two mugs"])
def test_other_words_with_a_number_are_no_bare_reference(text: str) -> None:
    assert not which_order.only_an_order(text)


# No deadline: a tail with a month in it ("86feb8") makes the first example load dateparser's
# language data, a second once per process, which is not what this property is about.
@settings(deadline=None)
@given(st.text(alphabet="0123456789abcdef", min_size=6, max_size=12).filter(
    lambda tail: any(ch.isdigit() for ch in tail) and any(ch.isalpha() for ch in tail)),
       st.sampled_from(["", "#", "…", "order "]), st.sampled_from(["", "?", " please", " ?"]))
def test_any_hex_tail_alone_is_a_reference(tail: str, before: str, after: str) -> None:
    """Digits and letters as ids mix them, with the words that may come around them (digits
    alone count only as the whole message: "123456")."""
    said = f"{before}{tail}{after}"
    assert which_order.only_an_order(said)
    assert which_order.cues(said).tail == tail


@pytest.mark.parametrize(("answer", "expected"), [
    ("the older one", OLD_MUG), ("the old one", OLD_MUG), ("l'ancienne", OLD_MUG),
    ("古い方", OLD_MUG), ("the newer one", NEW_MUG), ("the new one", NEW_MUG),
    ("la nouvelle", NEW_MUG), ("新しいほう", NEW_MUG)])
def test_comparatives_choose_among_tied_orders(answer: str, expected: dict[str, Any]) -> None:
    assert resolve(ORDERS, ("cancel my mug order",), fits).tied == (
        OLD_MUG["orderId"], NEW_MUG["orderId"])
    assert resolve(ORDERS, ("cancel my mug order", answer), fits) == Meant(expected["orderId"])


def test_kono_mae_is_the_latest_and_sono_mae_the_one_before() -> None:
    assert resolve(ORDERS, ("この前の注文をキャンセルして",), fits) == Meant(NEW_MUG["orderId"])
    assert resolve(ORDERS, ("その前の注文は？",), fits, NEW_MUG["orderId"]) == Meant(
        PLATES["orderId"])


@pytest.mark.parametrize(("text", "stars"), [
    ("⭐⭐⭐⭐ for the teapot", 4), ("★★★☆☆", 3), ("5 ⭐", 5), ("I'd give the plates 5/5", 5),
    ("4 out of 5 for the mug", 4), ("note ma commande 3 sur 5", 3), ("5点満点で4点", 4),
    ("星2つ", 2), ("the mug deserves three stars", 3)])
def test_a_score_rates(text: str, stars: int) -> None:
    assert understand(text)[0] == "rate"
    assert words.stars(text) == stars


@pytest.mark.parametrize(("text", "intent"), [
    # other verbs that call an order off
    ("call off my lasagna order", "cancel"), ("can you call the order off?", "cancel"),
    ("scrap my last order", "cancel"), ("void that purchase", "cancel"),
    ("ノートの注文を取りやめたい", "cancel"),
    # stopping a subscription in Japanese is no cart edit
    ("サブスクを止めたい", "sub_cancel"), ("会員を退会したい", "sub_cancel"),
    # ordering again
    ("I want the same thing again", "reorder"), ("recommande les assiettes", "reorder"),
    ("もう一回同じのを頼みたい", "reorder"), ("前回と同じ注文をお願いします", "reorder"),
    # where an order is
    ("when's my mug coming?", "status"), ("any update?", "status"), ("any news", "status"),
    ("荷物はどこですか", "status"), ("where is the teapot I ordered?", "status"),
    ("what's happening with b57b94", "status"), ("b57b94はどうなっていますか", "status"),
    ("has anything shipped", "status"), ("when can I expect my plates?", "status"),
    ("ETA?", "status"), ("I was charged but nothing arrived", "status"),
    ("refais ma dernière commande", "reorder"), ("前と同じのをください", "reorder"),
    ("add a tip for the driver", "tip"),
    # a negated act, then where the order is
    ("don't cancel, just tell me where it is", "status"),
    ("ne l'annulez pas, quand arrive-t-elle ?", "status"),
    ("don't cancel, when is the cancellation deadline?", "policy"),
    # the terms named are asked about, never acted on
    ("返品ポリシーを教えて", "policy"), ("tell me the cancellation policy", "policy"),
    ("la politique de retour, s'il vous plaît", "policy"),
    ("返品の方法を教えてください", "policy"), ("tell me how to return the mug", "policy"),
    ("comment faire un retour ?", "policy"),
    # the act named is what is asked, never where the order is («livre»: a book)
    ("en fait, annule la commande du livre sur le levain", "cancel"),
    ("bin the teapot order please", "cancel"),
    ("send back the mug that arrived", "return"), ("où en est la commande du livre ?", "status"),
    ("je donne 5 étoiles à la commande du livre", "rate"),
    ("what about da5a22, has it left?", "status"),
    ("can I still cancel the planter order?", "policy")])
def test_after_sale_classes(text: str, intent: str) -> None:
    assert understand(text)[0] == intent


@pytest.mark.parametrize("text", [
    "vous me recommandez les assiettes ?", "que recommandez-vous ?",
    "je recommande la théière à tout le monde", "stop showing me mugs", "what's new?"])
def test_advice_and_other_words_are_no_after_sale_act(text: str) -> None:
    assert understand(text)[0] not in ("reorder", "cancel", "status")


@pytest.mark.parametrize("text", [
    "ok cancel that order then", "return it", "can you cancel this one?", "annulez-la",
    "je veux l'annuler", "それをキャンセルして", "その注文を返品したい"])
def test_a_pointer_means_the_order_in_view(text: str) -> None:
    assert resolve(ORDERS, (text,), fits, PLATES["orderId"]) == Meant(PLATES["orderId"])
    assert resolve(ORDERS, (text,), fits) == Meant(NEW_MUG["orderId"])  # none in view


def test_words_that_name_an_order_win_over_a_pointer() -> None:
    assert resolve(ORDERS, ("cancel that mug order, the older one",), fits,
                   PLATES["orderId"]) == Meant(OLD_MUG["orderId"])


@pytest.mark.parametrize("text", [
    "I want to cancel an order", "can I return one of my orders?", "je veux annuler une commande"])
def test_an_order_not_said_yet_among_several_is_asked(text: str) -> None:
    assert resolve(ORDERS, (text,), fits).tied == tuple(order["orderId"] for order in ORDERS)
    assert resolve(ORDERS, (text, "the dinner plate"), fits) == Meant(PLATES["orderId"])
    assert resolve([PLATES], (text,), fits) == Meant(PLATES["orderId"])


@pytest.mark.parametrize(("text", "kept"), [
    ("cancel my order, not the plates one", "not the plates one"),
    ("cancel the tiramisu, not the lasagna", "not the lasagna")])
def test_an_order_refused_goes_with_the_request(text: str, kept: str) -> None:
    assert understand(text) == ("cancel", text) and kept in understand(text)[1]
