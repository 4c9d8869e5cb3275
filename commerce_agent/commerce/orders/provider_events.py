"""What a card provider's webhook events change here (Stripe's, signature-checked by the
route): a late success or failure of a payment intent, and refunds made at the provider.

Every event is handled by state, so a redelivered event changes nothing the second time.
"""

from __future__ import annotations

from typing import Any

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.orders import lifecycle, refunds
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.db import Transaction

INTENT_EVENTS = {"payment_intent.succeeded": "succeeded",
                 "payment_intent.payment_failed": "failed",
                 "payment_intent.canceled": "failed"}
REFUND_EVENTS = ("charge.refunded", "charge.refund.updated", "refund.created",
                 "refund.updated", "refund.failed")


def _intent_id(event: dict[str, Any]) -> str:
    obj = event.get("data", {}).get("object", {})
    if obj.get("object") == "payment_intent":
        return str(obj.get("id") or "")
    return str(obj.get("payment_intent") or "")


async def handle(tx: Transaction, event: dict[str, Any]) -> str:
    """Apply one event; returns what was done (for the answer and the tests)."""
    kind = str(event.get("type", ""))
    intent_id = _intent_id(event)
    row = await storage.intent(tx, intent_id) if intent_id else None
    if row is None or row["provider"] != "stripe":
        return "ignored"  # not one of ours (another app on the same Stripe account)
    if kind in INTENT_EVENTS:
        status = INTENT_EVENTS[kind]
        if row["status"] in ("consumed", status):
            return "unchanged"
        await storage.set_intent_status(tx, intent_id, status, was=row["status"],
                                        at=clock.now_iso())
        return f"intent_{status}"
    if kind in REFUND_EVENTS:
        return await _mirror_refunds(tx, intent_id)
    return "ignored"


async def _mirror_refunds(tx: Transaction, intent_id: str) -> str:
    order_id = await storage.order_paid_by(tx, "fiat_intent", intent_id)
    provider = providers.active()
    if order_id is None or not isinstance(provider, providers.StripeProvider):
        return "ignored"
    _, doc = await lifecycle.load(tx, order_id)
    currency = doc["total"]["currency"]
    found = [(refund.id, money.from_minor(refund.amount, currency),
              providers.refund_status(refund.status))
             for refund in await provider.gateway.refunds(intent_id)]

    def change(order: dict[str, Any]) -> None:
        refunds.mirror(order, found, clock.now_iso())

    await lifecycle.change_order(tx, order_id, change)
    return "refunds_mirrored"
