"""Money arithmetic, as properties over open-ended inputs (hypothesis): minor units, what a
cart's charges add up to, promotions that never discount more than is left to pay, refunds that
never exceed what was paid, and the bounds of a line's quantity."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.commerce import money
from commerce_agent.commerce.orders import refunds
from commerce_agent.commerce.services.carts import charges, pricing
from commerce_agent.errors import CommerceError

# Currencies with 0, 2 and 3 minor digits, and a spread of the others Babel knows.
CURRENCIES = st.sampled_from(sorted({"JPY", "KRW", "USD", "EUR", "GBP", "BHD", "KWD", "TND",
                                     *sorted(money.CURRENCIES)[::25]}))


def amounts(max_value: int = 10**7, places: int = 4) -> st.SearchStrategy[Decimal]:
    return st.decimals(min_value=0, max_value=max_value, places=places,
                       allow_nan=False, allow_infinity=False)


def digits(amount: str) -> int:
    return len(amount.split(".")[1]) if "." in amount else 0


@given(units=st.integers(-(10**12), 10**12), currency=CURRENCIES)
def test_minor_units_round_trip(units: int, currency: str) -> None:
    amount = money.from_minor(units, currency)
    assert money.to_minor(amount, currency) == units
    assert digits(money.money(amount, currency)["amount"]) == money.minor_units(currency)


@given(amount=amounts(places=6), currency=CURRENCIES)
def test_an_amount_is_its_rounding_in_minor_units(amount: Decimal, currency: str) -> None:
    rounded = money.quantize(amount, currency)
    assert abs(rounded - amount) <= Decimal("0.5").scaleb(-money.minor_units(currency))
    assert money.from_minor(money.to_minor(amount, currency), currency) == rounded
    wire = money.money(amount, currency)
    assert wire == {"amount": str(rounded), "currency": currency}
    assert money.parse(wire["amount"]) == rounded


@given(text=st.text(max_size=12))
def test_parse_takes_finite_decimals_only(text: str) -> None:
    try:
        value = money.parse(text)
    except ValueError:
        return
    assert value.is_finite()


def store(rate: Decimal | None, on_shipping: bool, flat: Decimal, handling: Decimal
          ) -> dict[str, Any]:
    metadata: dict[str, Any] = {charges.SHIPPING: {
        "shippingOptions": [{"id": "standard", "name": "Standard",
                             "costCalculation": {"type": "flat", "flatRate": str(flat)}}],
        "additionalFees": {"handlingFee": str(handling)}}}
    if rate is not None:
        metadata[charges.TAXATION] = {"rate": str(rate), "taxOnShipping": on_shipping}
    return metadata


@given(lines=st.lists(st.tuples(amounts(10**5, 2), st.integers(1, pricing.MAX_LINE_QUANTITY)),
                      max_size=6),
       discount_share=st.decimals(0, 1, places=2), ships=st.booleans(),
       rate=st.none() | st.decimals(0, 100, places=3), on_shipping=st.booleans(),
       flat=amounts(500, 2), handling=amounts(50, 2), currency=CURRENCIES)
def test_total_is_lines_plus_shipping_plus_tax_less_discounts(
        lines: list[tuple[Decimal, int]], discount_share: Decimal, ships: bool,
        rate: Decimal | None, on_shipping: bool, flat: Decimal, handling: Decimal,
        currency: str) -> None:
    subtotal = money.quantize(sum((price * quantity for price, quantity in lines),
                                  Decimal(0)), currency)
    discount = money.quantize(subtotal * discount_share, currency)
    charged = charges.compute(store(rate, on_shipping, flat, handling), currency, subtotal,
                              discount, ships, None)
    assert charged.total == subtotal + charged.shipping + charged.tax - discount
    assert charged.merchandise == subtotal - discount >= 0
    # Shipping only for what ships: the option's rate plus the store's handling fee, in the
    # currency's minor units.
    assert charged.shipping == (money.quantize(flat + handling, currency) if ships else 0)
    assert (charged.method is not None) == ships
    # Tax: the store's rate on the merchandise (and the shipping when it says so), rounded once.
    if rate is None or rate == 0:
        assert charged.tax == 0 and charged.rate is None
    else:
        base = subtotal - discount + (charged.shipping if on_shipping else 0)
        assert charged.tax == money.quantize(base * rate / 100, currency) >= 0
    for field in ("shipping", "tax"):
        if field in (rendered := charged.render(currency)):
            assert digits(rendered[field]["amount"]) == money.minor_units(currency)


PROMOTION = st.fixed_dictionaries({
    "type": st.sampled_from(["percentage", "fixed"]),
    "value": st.decimals(0, 150, places=2).map(str)})


@given(promotions=st.lists(PROMOTION, max_size=5), subtotal=amounts(10**5, 2),
       currency=CURRENCIES)
def test_promotions_never_discount_more_than_is_left(promotions: list[dict[str, Any]],
                                                     subtotal: Decimal, currency: str) -> None:
    subtotal = money.quantize(subtotal, currency)
    by_code = {f"CODE{index}": promotion for index, promotion in enumerate(promotions)}
    applied = pricing.evaluate(list(by_code), by_code, subtotal, currency)
    assert [entry.code for entry in applied] == list(by_code)
    assert all(entry.applicable and entry.discount >= 0 for entry in applied)
    assert sum((entry.discount for entry in applied), Decimal(0)) <= subtotal
    for entry, promotion in zip(applied, promotions, strict=True):
        if promotion["type"] == "percentage":
            assert entry.discount <= money.quantize(subtotal * Decimal(promotion["value"]) / 100,
                                                    currency)
        else:
            assert entry.discount <= Decimal(promotion["value"])


def paid_order(amount: Decimal, currency: str) -> dict[str, Any]:
    total = money.money(amount, currency)
    return {"total": total, "payment": {"amount": total}, "metadata": {}}


@given(paid=amounts(10**5, 3), asked=st.lists(amounts(10**5, 3), max_size=8),
       currency=CURRENCIES)
def test_refunds_never_exceed_what_was_paid(paid: Decimal, asked: list[Decimal],
                                            currency: str) -> None:
    doc = paid_order(paid, currency)
    charged = refunds.paid(doc)
    for amount in asked:
        before = refunds.refundable(doc)
        entry = refunds.record(doc, amount, "test", "2026-01-01T00:00:00Z")
        if entry is None:
            assert before == 0 or money.quantize(amount, currency) <= 0
            continue
        given_back = money.parse(entry["amount"]["amount"])
        assert 0 < given_back == min(money.quantize(amount, currency), before)
        assert refunds.refundable(doc) == before - given_back
    assert refunds.refunded(doc) + refunds.refundable(doc) == charged
    assert 0 <= refunds.refunded(doc) <= charged


@given(paid=amounts(10**4, 2), provider=st.lists(
    st.tuples(amounts(10**4, 2), st.sampled_from(["succeeded", "pending", "failed"])),
    max_size=6))
def test_refunds_mirrored_from_the_provider_never_exceed_what_was_paid(
        paid: Decimal, provider: list[tuple[Decimal, str]]) -> None:
    doc = paid_order(paid, "USD")
    made = [(f"re_{index}", amount, status) for index, (amount, status) in enumerate(provider)]
    refunds.mirror(doc, made, "2026-01-01T00:00:00Z")
    refunds.mirror(doc, made, "2026-01-01T00:00:00Z")  # the same refunds again: no change
    entries = doc["metadata"].get(refunds.REFUNDS, [])
    assert len({entry["providerRefundId"] for entry in entries}) == len(entries)
    assert 0 <= refunds.refunded(doc) <= refunds.paid(doc)


@given(quantity=st.integers(-(10**6), 10**6))
def test_a_line_quantity_is_from_one_to_the_maximum(quantity: int) -> None:
    if 1 <= quantity <= pricing.MAX_LINE_QUANTITY:
        pricing.check_quantity(quantity)
        return
    with pytest.raises(CommerceError) as refused:
        pricing.check_quantity(quantity, "/lineItems/0/quantity")
    assert (refused.value.status, refused.value.code) == (400, "invalid_quantity")
    assert refused.value.details[0]["field"] == "/lineItems/0/quantity"
