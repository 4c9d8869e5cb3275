"""The normalize stage's readings for finding and choosing: a price said "around", the group
a choice is made among (no count), and what a thing is for as the kind that serves it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import read
from commerce_agent.agent.language.category_words import by_use, in_english_categories
from commerce_agent.agent.language.prices import AROUND_SHARE

_CURRENCIES = [("${}", "USD"), ("{} dollars", "USD"), ("€{}", "EUR"), ("{} euros", "EUR"),
               ("{} €", "EUR"), ("£{}", "GBP"), ("{} quid", "GBP"), ("{}円", "JPY"),
               ("{} yen", "JPY")]
_AROUND_BEFORE = ["around", "about", "roughly", "approximately", "environ", "autour de",
                  "à peu près"]
_AROUND_AFTER = ["くらい", "ぐらい", "前後", "程度"]


@settings(max_examples=60, deadline=None)
@given(amount=st.integers(min_value=4, max_value=20000), money=st.sampled_from(_CURRENCIES),
       word=st.sampled_from(_AROUND_BEFORE))
def test_an_amount_said_around_is_a_range_either_side(amount: int, money: tuple[str, str],
                                                      word: str) -> None:
    price = read(f"a teapot {word} {money[0].format(amount)}").price
    assert price is not None and price.currency == money[1]
    assert price.min is not None and price.max is not None
    assert price.min < amount < price.max
    assert price.max - amount == pytest.approx(amount * AROUND_SHARE, abs=Decimal("0.01"))


@settings(max_examples=30, deadline=None)
@given(amount=st.integers(min_value=100, max_value=9000),
       word=st.sampled_from(_AROUND_AFTER))
def test_an_amount_then_around_is_a_range(amount: int, word: str) -> None:
    price = read(f"{amount}円{word}のお茶").price
    assert price is not None and price.min is not None and price.max is not None
    assert price.min < amount < price.max and price.currency == "JPY"


def test_an_amount_then_or_so_is_a_range() -> None:
    price = read("a teapot, 70 dollars or so").price
    assert price is not None and (price.min, price.max) == (Decimal("52.5"), Decimal("87.5"))


@pytest.mark.parametrize("text", ["around 15", "about 3 of them", "around 15 people"])
def test_around_a_number_without_money_is_no_price(text: str) -> None:
    assert read(text).price is None


def test_a_limit_said_around_keeps_its_limit() -> None:
    price = read("1000円くらいまでのお茶").price
    assert price is not None and (price.min, price.max) == (None, Decimal(1000))


_GROUPS = ["the cheaper of the {}", "the most expensive of those {}", "which of the {} is best",
           "le plus cher des {}", "parmi les {}, le moins cher", "{}つのうち安いほう",
           "{}つの中で一番高いの"]
_NUMBER_WORDS = {2: ("two", "deux", "二"), 3: ("three", "trois", "三")}


@given(group=st.sampled_from(_GROUPS), number=st.integers(min_value=2, max_value=9))
def test_the_group_chosen_among_is_no_count(group: str, number: int) -> None:
    found = read(group.format(number))
    assert found.counts == () and found.among


@pytest.mark.parametrize("text", ["the cheaper of the two", "le plus cher des deux",
                                  "二つのうち安いほう", "the cheapest of those three"])
def test_the_group_in_words_is_no_count(text: str) -> None:
    assert read(text).counts == ()


@pytest.mark.parametrize("text", ["two of those", "les deux", "I'll take three"])
def test_a_count_is_still_a_count(text: str) -> None:
    assert read(text).counts


@pytest.mark.parametrize(("text", "kind"), [
    ("something to read, around 15 euros", "books"),
    ("anything good to read", "books"),
    ("de quoi lire pour les vacances", "books"),
    ("読み物を探しています", "books"),
    ("something to listen to on the train", "audiobooks"),
    ("quelque chose a boire", "drinks"),
    ("something sweet", "desserts"),
])
def test_what_a_thing_is_for_names_its_kind(text: str, kind: str) -> None:
    assert kind in by_use(text).split()


@pytest.mark.parametrize("text", ["a mug", "I read the description", "reading glasses"])
def test_other_words_are_left(text: str) -> None:
    assert by_use(text) == text


@pytest.mark.parametrize("text", ["a mug, nothing over $25", "rien au-dessus de 25 €",
                                  "nothing more than 25 dollars"])
def test_nothing_over_is_a_ceiling(text: str) -> None:
    price = read(text).price
    assert price is not None and (price.min, price.max) == (None, Decimal(25))


@pytest.mark.parametrize(("text", "position"), [("2つ目", 2), ("二つ目をください", 2),
                                                 ("3個目", 3), ("2冊目の本", 2)])
def test_a_counter_with_me_is_a_position(text: str, position: int) -> None:
    found = read(text)
    assert [ordinal.position for ordinal in found.ordinals] == [position]
    assert found.counts == ()


@pytest.mark.parametrize(("text", "currency"), [("20ドル以下のマグ", "USD"),
                                                ("30ユーロまでの本", "EUR"),
                                                ("50ポンド以下のマット", "GBP")])
def test_japanese_currency_words(text: str, currency: str) -> None:
    price = read(text).price
    assert price is not None and price.currency == currency


@pytest.mark.parametrize(("text", "kind"), [("une tasse bleue", "mug"),
                                            ("des tasses à expresso", "tasses")])
def test_a_french_cup_is_a_mug_unless_for_espresso(text: str, kind: str) -> None:
    assert kind in in_english_categories(text).split()
