"""Round 5 classes, read by their parts: the order by price however it is said, a price
limit with no verb is a search, "the X order" asks about that order, a swap replaces a line,
"same again" orders again, and "pas cher" negates nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.intents import understand


@pytest.mark.parametrize(("said", "sort"), [
    ("the cheapest mug", "price_asc"), ("least expensive teapot", "price_asc"),
    ("most affordable plate", "price_asc"), ("which one costs the least?", "price_asc"),
    ("the least costly bowl", "price_asc"), ("something not too pricey", "price_asc"),
    ("le moins cher", "price_asc"), ("les moins chères", "price_asc"),
    ("une tasse pas chère", "price_asc"), ("一番安いお茶", "price_asc"),
    ("最安のノート", "price_asc"),
    ("the priciest pasta", "price_desc"), ("most expensive ebook", "price_desc"),
    ("what costs the most?", "price_desc"), ("le plus cher", "price_desc"),
    ("la plus onéreuse", "price_desc"), ("一番高いお茶", "price_desc"),
])
def test_the_order_by_price_however_said(said: str, sort: str) -> None:
    assert words.price_order(said) == {"sort": sort}


@pytest.mark.parametrize("said", ["the blue one", "is it dishwasher safe?", "add two mugs",
                                  "not the 12 oz", "それは高いですか"])
def test_no_order_by_price_where_none_is_said(said: str) -> None:
    assert words.price_order(said) == {}


@given(st.sampled_from(["least", "most"]),
       st.sampled_from(["expensive", "costly", "pricey"]),
       st.sampled_from(["mug", "teapot", "ebook", "pizza", "yoga mat"]))
def test_a_superlative_of_price_sorts_any_thing(degree: str, adjective: str, thing: str) -> None:
    expected = "price_asc" if degree == "least" else "price_desc"
    assert words.price_order(f"the {degree} {adjective} {thing}") == {"sort": expected}


@pytest.mark.parametrize("said", ["3000円以下の抹茶", "mugs under 20 dollars",
                                  "teapots below 15 quid", "ebooks, moins de 20 €",
                                  "une tasse pas chère", "the least costly teapot"])
def test_a_price_limit_or_order_with_a_thing_is_a_search(said: str) -> None:
    assert understand(said)[0] == "search"


@pytest.mark.parametrize("said", ["how's the plate order doing?", "is the mug order on its way?",
                                  "what about the trattoria order?", "did the mug order ship?"])
def test_an_order_named_by_its_item_is_a_status_question(said: str) -> None:
    assert understand(said)[0] == "status"


@pytest.mark.parametrize("said", ["swap the mug for the dinner plate",
                                  "replace the teapot with a dripper",
                                  "I'll take the plate instead of the mug",
                                  "remplace la tasse par l'assiette"])
def test_a_swap_replaces_a_line(said: str) -> None:
    assert understand(said)[0] == "replace"


@pytest.mark.parametrize("said", ["same again please", "reorder my last order",
                                  "can you order that again?", "la même chose, s'il vous plaît",
                                  "同じものをもう一度", "buy it again"])
def test_ordering_again(said: str) -> None:
    assert understand(said)[0] == "reorder"


@pytest.mark.parametrize("said", ["what is the minimum order?", "one more", "add it again",
                                  "switch to Lumen Studio", "swap it to the 16 oz"])
def test_not_these_classes(said: str) -> None:
    assert understand(said)[0] not in ("status", "replace", "reorder")


@pytest.mark.parametrize("said", ["no thanks", "non merci", "いいえ、結構です",
                                  "actually, never mind", "finalement, laisse tomber",
                                  "forget it", "scratch that", "やっぱりやめます",
                                  "oh well, no thanks"])
def test_a_change_of_mind_is_a_refusal(said: str) -> None:
    assert understand(said)[0] == "no"


@pytest.mark.parametrize(("said", "meant"), [("no, the blue one", "other"),
                                             ("actually no, cancel my order", "cancel"),
                                             ("actually, make it two", "quantity")])
def test_a_refusal_that_goes_on_is_a_request(said: str, meant: str) -> None:
    assert understand(said)[0] == meant
