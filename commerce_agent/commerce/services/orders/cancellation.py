"""Cancelling an order (`dev.commerce.order.cancellation`): restock, free slots, refund.

Allowed from pending and confirmed (GAPS.md), except a restaurant order the kitchen has started.
Later states answer 403 cancellation_window_expired; a cancelled order 403
order_already_cancelled.
"""

from __future__ import annotations

from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.services.fulfillment import lifecycle, scheduling
from commerce_agent.commerce.services.fulfillment.plans import KITCHEN_STATUS
from commerce_agent.commerce.services.orders import subscriptions
from commerce_agent.commerce.services.returns import refunds
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError


def problem(doc: dict[str, Any]) -> CommerceError | None:
    """Why the order cannot be cancelled now, or None when it can."""
    status = doc.get("status")
    if status == "cancelled":
        return CommerceError(403, "order_already_cancelled", "This order is already cancelled.",
                             params={"id": doc.get("id")})
    kitchen = doc.get("metadata", {}).get(KITCHEN_STATUS, {}).get("status", "confirmed")
    if status not in ("pending", "confirmed") or kitchen != "confirmed":
        return CommerceError(403, "cancellation_window_expired",
                             f"This order is {status} and can no longer be cancelled.",
                             params={"id": doc.get("id"), "status": status})
    return None


async def cancel(tx: Transaction, order_id: str, *, owner_id: str | None, reason: str | None,
                 by: str = "customer") -> dict[str, Any]:
    _, doc = await lifecycle.load(tx, order_id, owner_id)
    error = problem(doc)
    if error is not None:
        raise error
    for line in doc["items"]:
        await catalog_storage.restock(tx, line["itemId"], line.get("variantId", ""),
                                      int(line["quantity"]))
    await scheduling.release(tx, order_id)
    # The provider refunds first (idempotent per order): if it is down this answers 503 and
    # the transaction, restock included, rolls back; a retry refunds once.
    amount = refunds.refundable(doc)
    provider_refund = (await providers.active().refund(doc, amount, key="cancellation")
                       if amount > 0 else {})

    def change(order: dict[str, Any]) -> None:
        now = clock.now()
        order["cancellation"] = {"cancelledBy": by, "reason": reason or ""}
        subscriptions.end(order, now)
        refunds.record(order, amount, "Cancellation", clock.iso(now), **provider_refund)

    return await lifecycle.change_order(tx, order_id, change, to="cancelled", owner_id=owner_id)
