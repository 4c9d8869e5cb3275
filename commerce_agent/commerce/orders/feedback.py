"""Ratings (`dev.commerce.order.ratings`) and tips (`dev.commerce.order.tipping`) on orders.

A completed order can be rated once. A tip goes to the people who served the order (a courier,
a kitchen, a session host): possible once, on a completed order fulfilled that way or on a
courier delivery under way; it is charged to the order's payment method (sandbox).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.orders import lifecycle, rules
from commerce_agent.commerce.orders.model import RATINGS, TIPPING
from commerce_agent.commerce.orders.rules import TIPPED_METHODS
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError


async def rate(tx: Transaction, owner_id: str, order_id: str, rating: dict[str, Any]
               ) -> dict[str, Any]:
    _, doc = await lifecycle.load(tx, order_id, owner_id)
    error = rules.rating_problem(doc)
    if error is not None:
        raise error

    def change(order: dict[str, Any]) -> None:
        order["metadata"][RATINGS] = {"_version": "1.0", **rating,
                                      "submittedAt": clock.now_iso()}

    return await lifecycle.change_order(tx, order_id, change, owner_id=owner_id)


def tip_amount(doc: dict[str, Any], amount: dict[str, str] | None,
               percentage: float | None) -> Decimal:
    """The tip in the order's currency: a fixed amount, or a percentage of the order total."""
    currency = doc["total"]["currency"]
    total = money.parse(doc["total"]["amount"])
    if amount is not None:
        if amount["currency"] != currency:
            raise CommerceError(400, "bad_request", f"Tips are paid in {currency}.",
                                details=[{"type": "validation", "field": "/amount/currency",
                                          "value": amount["currency"],
                                          "reason": f"must be {currency}"}])
        value = money.parse(amount["amount"])
        if value != money.quantize(value, currency) or value <= 0 or value > max(total, Decimal(1)):
            raise CommerceError(400, "bad_request", "The tip amount is out of range.",
                                details=[{"type": "validation", "field": "/amount/amount",
                                          "value": amount["amount"],
                                          "reason": "must be positive, in the currency's "
                                                    "minor units, and at most the order "
                                                    "total"}])
        return value
    assert percentage is not None
    value = money.quantize(total * Decimal(str(percentage)) / 100, currency)
    if value <= 0:
        raise CommerceError(400, "bad_request", "The tip comes to nothing.",
                            details=[{"type": "validation", "field": "/percentage",
                                      "value": percentage, "reason": "gives a zero tip"}])
    return value


async def tip(tx: Transaction, owner_id: str, order_id: str, amount: dict[str, str] | None,
              percentage: float | None, recipient: str | None, message: str | None
              ) -> dict[str, Any]:
    _, doc = await lifecycle.load(tx, order_id, owner_id)
    error = rules.tip_problem(doc)
    if error is not None:
        raise error
    value = tip_amount(doc, amount, percentage)
    currency = doc["total"]["currency"]
    method = doc["fulfillment"]["method"]

    def change(order: dict[str, Any]) -> None:
        entry: dict[str, Any] = {"_version": "1.0", "tip": money.money(value, currency),
                                 "recipient": recipient or TIPPED_METHODS[method],
                                 "addedAt": clock.now_iso()}
        if percentage is not None:
            entry["percentage"] = percentage
        if message:
            entry["message"] = message
        order["metadata"][TIPPING] = entry

    return await lifecycle.change_order(tx, order_id, change, owner_id=owner_id)
