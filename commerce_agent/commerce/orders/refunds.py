"""Refund records on an order (`dev.commerce.order.refunds`): never more than was paid."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from commerce_agent.commerce import money
from commerce_agent.commerce.orders.model import REFUNDS
from commerce_agent.ids import new_id


def paid(doc: dict[str, Any]) -> Decimal:
    payment = doc.get("payment")
    if not payment:
        return Decimal(0)
    return money.parse(payment["amount"]["amount"])


def refunded(doc: dict[str, Any]) -> Decimal:
    return sum((money.parse(entry["amount"]["amount"])
                for entry in doc.get("metadata", {}).get(REFUNDS, [])
                if entry.get("status") != "failed"), Decimal(0))


def refundable(doc: dict[str, Any]) -> Decimal:
    return max(paid(doc) - refunded(doc), Decimal(0))


def record(doc: dict[str, Any], amount: Decimal, reason: str, now: str,
           **extra: Any) -> dict[str, Any] | None:
    """Append a succeeded refund of `amount` (capped at what is left); None when nothing is."""
    currency = doc["total"]["currency"]
    amount = min(money.quantize(amount, currency), refundable(doc))
    if amount <= 0:
        return None
    entry = {"_version": "1.0", "id": new_id("refund"), "amount": money.money(amount, currency),
             "reason": reason, "status": "succeeded", "processedAt": now, **extra}
    doc["metadata"].setdefault(REFUNDS, []).append(entry)
    return entry
