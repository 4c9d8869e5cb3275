"""Several requests in one message: the pieces and the request each makes (`sequence`), the
cart named as an add's destination (`destination`), a count said as a total (`totals`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.delivery import read_delivery
from commerce_agent.agent.language.destination import names_destination, without_destination
from commerce_agent.agent.language.quantities import without_total
from commerce_agent.agent.models.scripted.sequence import requests


@pytest.mark.parametrize(("text", "kinds"), [
    ("give it 4 stars and then leave a 10% tip", ["rate", "tip"]),
    ("add a $3 tip and rate the order 5 stars", ["tip", "rate"]),
    ("that pizza was great, 5 stars, and add a 15% tip", ["rate", "tip"]),
    ("Quatre étoiles, puis ajoute un pourboire de 15 %", ["rate", "tip"]),
    ("Trois étoiles pis un pourboire de 2 $", ["rate", "tip"]),
    ("星5つで評価して、チップを10%お願いします", ["rate", "tip"]),
    ("take the plate out and add the celadon teapot", ["remove", "add"]),
    ("Ah pis non, enlève les cache-pots, mets plutôt le dripper à café", ["remove", "add"]),
    ("抹茶を削除して、茶筅を追加してください", ["remove", "add"]),
    ("add two tiramisu and drop the arancini", ["add", "remove"]),
    ("rate it 2 stars, and I'd like to return them", ["rate", "return"]),
    ("add a dinner plate and a teapot to my cart, then show me the cart", ["add", "cart"]),
    # acts on plans, and a cancel beside them ends a plan
    ("subscribe me to the studio membership and cancel the online one",
     ["subscribe", "sub_cancel"]),
    ("pause my folio plan and cancel the yoga membership", ["sub_pause", "sub_cancel"]),
])
def test_each_request_is_read_in_the_order_said(text: str, kinds: list[str]) -> None:
    assert [request.kind for request in requests(text)] == kinds


@pytest.mark.parametrize("text", [
    "a 16 inch margherita with olives and a 12 inch diavola with extra hot honey",
    "add a plate and a teapot",  # one add: `several` serves its items
    "buy the mug and ship it to 12 Oak St",  # a purchase is served whole
    "add the teapot and check out",
    "cancel the order and refund me",
    "subscribe me to folio and cancel my mug order",  # an order named: served whole
    "is the teapot dishwasher safe?",
])
def test_one_request_or_a_purchase_is_not_cut(text: str) -> None:
    assert requests(text) == []


def test_a_count_after_a_removal_with_instead_is_a_new_line() -> None:
    found = requests("Enlève la théière et mets deux assiettes plates à la place")
    assert [r.kind for r in found] == ["remove", "add"]
    assert "place" not in found[1].text


def test_a_new_count_of_another_line_stays_a_count() -> None:
    assert [r.kind for r in requests("drop the teapot and make the plates four")] == [
        "remove", "quantity"]


@pytest.mark.parametrize(("text", "rest"), [
    ("practical rust in my basket", "practical rust"),
    ("Une pizza, format 12 pouces, dans mon panier", "Une pizza, format 12 pouces"),
    ("茶筅をひとつカートにお願いいたします", "茶筅をひとつお願いいたします"),
])
def test_the_cart_is_where_an_add_puts_things(text: str, rest: str) -> None:
    assert names_destination(text)
    assert without_destination(text) == rest


def test_adding_to_the_cart_in_japanese_keeps_its_verb() -> None:
    assert not names_destination("抹茶をカートに入れて")


@given(st.text(alphabet="abcdefgh ", max_size=30))
def test_words_without_a_cart_are_kept(text: str) -> None:
    assert without_destination(text) == text
    assert without_total(text) == text


@pytest.mark.parametrize(("text", "rest"), [
    ("actually 4 in total", "actually 4"),
    ("Non, quatre en tout", "Non, quatre"),
    ("hmm, 3 altogether", "hmm, 3"),
])
def test_a_total_is_the_count_alone(text: str, rest: str) -> None:
    assert without_total(text) == rest


def test_delivered_to_in_french_leads_to_the_address() -> None:
    found = read_delivery("Une théière céladon, livrée au 55 rue Saint-Paul, Montréal QC H2Y 1G9")
    assert found.address == "55 rue Saint-Paul, Montréal QC H2Y 1G9"
    assert found.rest == "Une théière céladon"
