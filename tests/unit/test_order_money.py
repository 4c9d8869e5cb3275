"""Money on an order that the shopper or the provider adds: tips (orders/feedback.tip_amount
and the agent's tip arguments, operations/approvals) and refunds mirrored from the payment
provider (orders/refunds.mirror)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from commerce_agent.commerce.orders import feedback, model, refunds
from commerce_agent.errors import CommerceError
from commerce_agent.operations.approvals import tip_request, tip_value
from commerce_agent.operations.base import ToolFailure


def _order(amount: str = "40.00", currency: str = "USD") -> dict[str, Any]:
    return {"id": "ord_1", "total": {"amount": amount, "currency": currency},
            "payment": {"amount": {"amount": amount, "currency": currency}}, "metadata": {}}


@pytest.mark.parametrize(("amount", "tip"), [("5.00", "5.00"), ("0.01", "0.01"),
                                             ("40.00", "40.00")])
def test_a_fixed_tip_up_to_the_order_total(amount: str, tip: str) -> None:
    assert feedback.tip_amount(_order(), {"amount": amount, "currency": "USD"}, None) == \
        Decimal(tip)


@pytest.mark.parametrize(("amount", "currency", "field"), [
    ("5.00", "EUR", "/amount/currency"),
    ("0.00", "USD", "/amount/amount"),
    ("-1.00", "USD", "/amount/amount"),
    ("40.01", "USD", "/amount/amount"),  # more than the order
    ("1.005", "USD", "/amount/amount"),  # past the currency's minor units
])
def test_a_fixed_tip_out_of_range_names_its_field(amount: str, currency: str,
                                                  field: str) -> None:
    with pytest.raises(CommerceError) as raised:
        feedback.tip_amount(_order(), {"amount": amount, "currency": currency}, None)
    assert (raised.value.status, raised.value.code) == (400, "bad_request")
    assert raised.value.details[0]["field"] == field


def test_a_tiny_order_may_still_be_tipped_one_unit() -> None:
    assert feedback.tip_amount(_order("0.50"), {"amount": "1.00", "currency": "USD"},
                               None) == Decimal("1.00")


@pytest.mark.parametrize(("total", "currency", "percentage", "tip"), [
    ("40.00", "USD", 15, "6.00"), ("33.33", "USD", 10, "3.33"), ("19.99", "USD", 12.5, "2.50"),
    ("1234", "JPY", 10, "123"), ("10.000", "KWD", 7.5, "0.750"),
])
def test_a_percentage_tip_is_rounded_to_the_currency(total: str, currency: str,
                                                      percentage: float, tip: str) -> None:
    assert feedback.tip_amount(_order(total, currency), None, percentage) == Decimal(tip)


def test_a_percentage_that_comes_to_nothing_is_refused() -> None:
    with pytest.raises(CommerceError) as raised:
        feedback.tip_amount(_order("0.10"), None, 1)
    assert raised.value.details[0] == {"type": "validation", "field": "/percentage",
                                       "value": 1, "reason": "gives a zero tip"}


def test_the_agents_tip_arguments() -> None:
    assert tip_request({"percentage": 10}) is None
    assert tip_request({"amount": {"amount": 5, "currency": "usd"}}) == {
        "amount": "5", "currency": "USD"}
    assert tip_value(_order(), {"percentage": 10}) == {"amount": "4.00", "currency": "USD"}
    assert tip_value(_order(), {"amount": {"amount": "2.50", "currency": "usd"}}) == {
        "amount": "2.50", "currency": "USD"}
    with pytest.raises(ToolFailure) as raised:
        tip_value(_order(), {"orderId": "ord_1"})
    assert raised.value.code == "invalid_arguments"


# --- refunds mirrored from the provider ------------------------------------------------------

NOW = "2026-06-01T00:00:00Z"


def test_the_providers_refunds_are_mirrored_once_and_never_past_the_payment() -> None:
    doc = _order("40.00")
    refunds.record(doc, Decimal("10.00"), "Cancelled a line", NOW, providerRefundId="re_1",
                   status="pending")
    refunds.mirror(doc, [("re_1", Decimal("10.00"), "succeeded"),
                         ("re_2", Decimal("5.00"), "succeeded"),
                         ("re_3", Decimal("3.00"), "failed")], NOW)
    entries = doc["metadata"][model.REFUNDS]
    assert [(e["providerRefundId"], e["amount"]["amount"], e["status"]) for e in entries] == [
        ("re_1", "10.00", "succeeded"), ("re_2", "5.00", "succeeded")]
    assert entries[1]["reason"] == "Refunded at the payment provider"
    refunds.mirror(doc, [("re_2", Decimal("5.00"), "succeeded")], NOW)  # seen again
    assert len(doc["metadata"][model.REFUNDS]) == 2
    refunds.mirror(doc, [("re_4", Decimal("100.00"), "succeeded")], NOW)
    assert refunds.refunded(doc) == Decimal("40.00") and refunds.refundable(doc) == 0
    refunds.mirror(doc, [("re_5", Decimal("1.00"), "succeeded")], NOW)  # nothing left
    assert len(doc["metadata"][model.REFUNDS]) == 3


def test_a_refund_that_failed_at_the_provider_is_given_back() -> None:
    doc = _order("40.00")
    refunds.record(doc, Decimal("40.00"), "Cancelled", NOW, providerRefundId="re_1",
                   status="pending")
    assert refunds.refundable(doc) == 0
    refunds.mirror(doc, [("re_1", Decimal("40.00"), "failed")], NOW)
    assert refunds.refundable(doc) == Decimal("40.00")
    assert refunds.paid({"metadata": {}}) == 0
