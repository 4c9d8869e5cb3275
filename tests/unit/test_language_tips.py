"""Tips said in words (`language/tips.py`) and sums of money said alone (`prices.find_sum`):
the number words come through the one number reader, the currency through the price reader."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language.prices import find_sum
from commerce_agent.agent.language.tips import Tip, gives_a_tip, read_tip

_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
          8: "eight", 9: "nine", 10: "ten", 12: "twelve", 15: "fifteen", 20: "twenty"}


@pytest.mark.parametrize(("said", "tip"), [
    ("tip them three dollars", Tip(amount=Decimal(3), currency="USD")),
    ("leave a fiver", Tip(amount=Decimal(5))),
    ("leave them a tenner", Tip(amount=Decimal(10))),
    ("add two euros for the driver", Tip(amount=Decimal(2), currency="EUR")),
    ("ten percent tip", Tip(percentage=Decimal(10))),
    ("give twenty per cent for the kitchen", Tip(percentage=Decimal(20))),
    ("tip five hundred yen", Tip(amount=Decimal(500), currency="JPY")),
    ("un pourboire de quinze pour cent", Tip(percentage=Decimal(15))),
    ("チップ500円", Tip(amount=Decimal(500), currency="JPY")),
    ("tip 5", Tip(amount=Decimal(5))),
    ("tip $3.50 on the lasagna order", Tip(amount=Decimal("3.5"), currency="USD")),
])
def test_a_tip_said_in_any_words(said: str, tip: Tip) -> None:
    assert read_tip(said) == tip


@pytest.mark.parametrize("said", [
    "tip them three dollars", "leave a fiver", "add two euros for the driver", "ten percent tip",
    "give twenty percent for the kitchen", "leave 5 pounds for the staff please",
    "add 10% for the team", "throw in a tenner for the waiter"])
def test_a_sum_given_to_the_people_who_served_is_a_tip(said: str) -> None:
    assert gives_a_tip(said)


@pytest.mark.parametrize("said", [
    "add the $25 one", "give me the 5 dollar mug", "add two mugs", "I want three mugs under "
    "20 dollars", "find a teapot around 30 euros", "add a dinner plate"])
def test_a_price_of_a_thing_is_no_tip(said: str) -> None:
    assert not gives_a_tip(said)


@settings(deadline=None)  # the first call loads the language detector
@given(st.sampled_from(sorted(_WORDS)), st.sampled_from(
    [("dollars", "USD"), ("euros", "EUR"), ("pounds", "GBP"), ("yen", "JPY"), ("bucks", "USD")]),
    st.booleans())
def test_any_sum_in_words_or_digits_reads_as_that_sum(number: int, money: tuple[str, str],
                                                      spelled: bool) -> None:
    word, code = money
    said = f"tip {_WORDS[number] if spelled else number} {word}"
    assert read_tip(said) == Tip(amount=Decimal(number), currency=code)


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=99), st.sampled_from(["%", " percent", " per cent"]))
def test_any_share_reads_as_a_percentage(number: int, sign: str) -> None:
    assert read_tip(f"leave {number}{sign}") == Tip(percentage=Decimal(number))


def test_a_sum_alone_keeps_its_currency_or_says_none() -> None:
    found = find_sum("leave 5 pounds")
    assert found is not None and (found.amount, found.currency) == (Decimal(5), "GBP")
    note = find_sum("a fiver for the driver")
    assert note is not None and (note.amount, note.currency) == (Decimal(5), None)
    assert find_sum("two mugs") is None
