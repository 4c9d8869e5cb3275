"""Price limits in every currency the sample stores sell in (USD, EUR, GBP, JPY)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import read
from commerce_agent.agent.language.prices import bounds_by_limit_word


def bound(text: str) -> tuple[Decimal | None, Decimal | None, str | None] | None:
    price = read(text).price
    return None if price is None else (price.min, price.max, price.currency)


D = Decimal


@pytest.mark.parametrize(("text", "expected"), [
    ("mugs under $20", (None, D(20), "USD")),
    ("less than 15 euros", (None, D(15), "EUR")),
    ("below £30", (None, D(30), "GBP")),
    ("max 2000 yen", (None, D(2000), "JPY")),
    ("between 10 and 20 dollars", (D(10), D(20), "USD")),
    ("20€ max", (None, D(20), "EUR")),
    ("moins de 20 €", (None, D(20), "EUR")),
    ("72 euros c'est mon budget max", (None, D(72), "EUR")),
    ("$50 is my limit", (None, D(50), "USD")),
    ("j'ai 40 euros de budget", (None, D(40), "EUR")),
    ("pas plus de 15 euros", (None, D(15), "EUR")),
    ("2000円以下", (None, D(2000), "JPY")),
    ("3000円まで", (None, D(3000), "JPY")),
    ("二千円以上", (D(2000), None, "JPY")),
    ("1000円から3000円", (D(1000), D(3000), "JPY")),
    ("over $100", (D(100), None, "USD")),
    ("under 20", (None, D(20), None)),
    ("under twenty dollars", (None, D(20), "USD")),
    ("un cadeau à moins de 19,99 €", (None, D("19.99"), "EUR")),
    ("tea under 3,000 yen", (None, D(3000), "JPY")),
    ("the $8 one", (D(8), D(8), "USD")),
    ("max. 20€", (None, D(20), "EUR")),
    ("something under 2k yen", (None, D(2000), "JPY")),
    ("1500円くらいまで", (None, D(1500), "JPY")),
    ("à moins de 100 balles", (None, D(100), "EUR")),
])
def test_limits(text: str, expected: tuple[Decimal | None, Decimal | None, str | None]) -> None:
    assert bound(text) == expected
    assert read(text).counts == ()


@pytest.mark.parametrize("text", ["add 2 mugs", "under 20 minutes", "5 pounds of flour",
                                  "table for 4 at 8", "order 10-20",
                                  "friday between 6 and 8pm", "100 balles de tennis"])
def test_no_price(text: str) -> None:
    assert bound(text) is None


CURRENCIES = {"USD": ["${}", "{} dollars", "{} USD", "US${}"],
              "EUR": ["{}€", "{} €", "{} euros", "EUR {}"],
              "GBP": ["£{}", "{} GBP", "£ {}"],
              "JPY": ["¥{}", "{}円", "{} yen", "{} JPY"]}
LIMITS = {"max": ["under {}", "less than {}", "below {}", "no more than {}", "{} max",
                  "moins de {}", "pas plus de {}", "{}以下", "{}まで"],
          "min": ["over {}", "at least {}", "more than {}", "au moins {}", "{}以上"]}
AMOUNTS = st.decimals(min_value=D(1), max_value=D(99999), places=2).map(
    lambda value: value.quantize(D("0.01")) if value % 1 else value.quantize(D(1)))


@settings(deadline=None)
@given(AMOUNTS, st.sampled_from(sorted(CURRENCIES)), st.sampled_from(sorted(LIMITS)), st.data())
def test_limits_property(amount: Decimal, currency: str, side: str, data: st.DataObject) -> None:
    money = data.draw(st.sampled_from(CURRENCIES[currency])).format(amount)
    phrase = data.draw(st.sampled_from(LIMITS[side])).format(money)
    found = bound(f"teapots {phrase} please")
    expected = (None, amount, currency) if side == "max" else (amount, None, currency)
    assert found == expected


@settings(deadline=None)
@given(AMOUNTS, AMOUNTS, st.sampled_from(sorted(CURRENCIES)), st.data())
def test_ranges_property(low: Decimal, high: Decimal, currency: str, data: st.DataObject) -> None:
    if low >= high:
        low, high = high - 1, low + 1 if low == high else low
    if low <= 0:
        return
    form = data.draw(st.sampled_from(CURRENCIES[currency]))
    phrase = data.draw(st.sampled_from(["between {} and {}", "from {} to {}", "entre {} et {}",
                                        "{}から{}"]))
    text = phrase.format(form.format(low), form.format(high))
    assert bound(text) == (low, high, currency)


@pytest.mark.parametrize(("text", "expected"), [
    ("between 1,000 and 3,000", {"minPrice": "1000", "maxPrice": "3000"}),
    ("Under 20 people", {"maxPrice": "20"}), ("from 5 to", {"minPrice": "5"}),
    ("over 10, under 40", {"maxPrice": "40", "minPrice": "10"}), ("a mug", {}),
])
def test_bounds_by_limit_word(text: str, expected: dict[str, str]) -> None:
    assert bounds_by_limit_word(text) == expected
