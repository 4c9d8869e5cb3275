"""Quantities said other ways (issue 21, qty16): a sum to spend ("$20 worth of"), which is no
price limit and no count; a number after a verb changing a line's count ("bump it up to 5",
« passe à 5 »), which is no limit and no time; a vague count made exact later in the message
("a few, say 4"); misspelt count words; a list after a lead-in or between semicolons; and how
many a sum buys at the line's price."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import item_lists, read
from commerce_agent.agent.language.quantities import how_many
from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.by_amount import ByAmount, by_sum
from commerce_agent.agent.models.scripted.mind import corrected
from commerce_agent.agent.models.scripted.typed import typed

D = Decimal


@pytest.mark.parametrize(("text", "amount", "currency"), [
    ("$20 worth of san pellegrino", D(20), "USD"),
    ("fifty dollars' worth of dinner plates", D(50), "USD"),
    ("¥3000 worth of genmaicha please", D(3000), "JPY"),
    ("spend £30 on yoga mats", D(30), "GBP"),
    ("pour 20 € de genmaicha", D(20), "EUR"),
    ("玄米茶を3000円分ください", D(3000), "JPY"),
    ("3000円分の玄米茶", D(3000), "JPY"),
])
def test_a_sum_to_spend_is_no_limit_and_no_count(text: str, amount: Decimal,
                                                 currency: str) -> None:
    found = read(text)
    assert found.spend is not None and (found.spend.amount, found.spend.currency) == (
        amount, currency)
    assert found.price is None
    assert how_many(text) is None
    assert "worth" not in words.strip_prices(text) and "分" not in found.rest


@pytest.mark.parametrize("text", ["moins de 20 € de thé", "mugs under $20", "2 plates for $44",
                                  "20 worth of plates", "a mug worth having"])
def test_no_sum_to_spend(text: str) -> None:
    assert read(text).spend is None


@pytest.mark.parametrize(("text", "count"), [
    ("passe à 5", 5), ("passe la quantité à 5", 5), ("bump it up to 5", 5),
    ("take it down to 2", 2), ("augmente à 6", 6), ("change it to 5", 5),
])
def test_a_count_changed_is_no_time_nor_limit(text: str, count: int) -> None:
    found = read(text)
    assert found.when is None and found.price is None
    assert how_many(text) == count


@pytest.mark.parametrize("text", ["mugs up to 30", "mugs up to $5", "passe à 17h",
                                  "book it at 5"])
def test_a_limit_or_a_time_stays(text: str) -> None:
    assert how_many(text) is None


@pytest.mark.parametrize(("said", "meant"), [
    ("a few genmaicha, say 4", "4 genmaicha"),
    ("a couple of plates, let's say 3", "3 plates"),
    ("quelques assiettes, disons 5", "5 assiettes"),
    ("several mugs, actually 4", "4 mugs"),
    ("3 plates, say 4", "4 plates"),
    ("2 plates, say, for my mum", "2 plates, say, for my mum"),
])
def test_a_vague_count_made_exact(said: str, meant: str) -> None:
    assert corrected(said) == meant


@pytest.mark.parametrize(("typed_as", "read_as"), [
    ("a dozne washi notebooks", "a dozen washi notebooks"),
    ("cuple of genmaicha bags", "couple of genmaicha bags"),
    ("une douzane de carnets", "une douzaine de carnets"),
    ("twleve plates", "twelve plates"),
    ("the coupe glass", "the coupe glass"),
    ("i dozed off", "i dozed off"),
])
def test_misspelt_count_words(typed_as: str, read_as: str) -> None:
    assert typed(typed_as) == read_as


@pytest.mark.parametrize(("said", "pieces"), [
    ("please add, 2 washi notebooks, 1 chasen, half a dozen genmaicha",
     ["please add 2 washi notebooks", "1 chasen", "half a dozen genmaicha"]),
    ("2 lasagna; 1 caesar salad; 3 pellegrino", ["2 lasagna", "1 caesar salad", "3 pellegrino"]),
])
def test_lists_on_one_line(said: str, pieces: list[str]) -> None:
    assert [whole for _, whole in words.item_mentions(said)] == pieces


@pytest.mark.parametrize("said", ["the diavola; large size please", "ok so, 2 mugs"])
def test_no_list(said: str) -> None:
    assert item_lists.listed_lines(said, words.names_a_thing) == [said]


def _item(price: str, currency: str = "USD") -> dict[str, Any]:
    return {"itemId": "item_x", "name": "Water", "price": {"amount": price,
                                                            "currency": currency}}


@given(st.integers(min_value=1, max_value=5000), st.integers(min_value=1, max_value=2000))
def test_a_sum_buys_what_it_covers(cents: int, spent: int) -> None:
    price = D(cents) / 100
    made = by_sum((f"${spent} worth of water",), _item(f"{price:.2f}"), None, "en")
    if price > spent:
        assert isinstance(made, str)
    else:
        assert isinstance(made, ByAmount)
        assert made.quantity * price <= spent < (made.quantity + 1) * price


def test_a_sum_in_another_currency_is_asked_about() -> None:
    made = by_sum(("£20 worth of water",), _item("750", "JPY"), None, "en")
    assert isinstance(made, str) and "How many" in made
