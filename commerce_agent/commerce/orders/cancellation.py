"""Cancelling an order (`dev.commerce.order.cancellation`): restock, free slots, refund.

Whether it may be cancelled is `rules.cancel_problem` (docs/decisions.md "Order statuses and
the cancellation window"): from pending and confirmed, not once the kitchen started, not while
a paid order's subscription has an unmet minimum commitment.
"""

from __future__ import annotations

from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.orders import bookings, lifecycle, refunds, rules, subscriptions
from commerce_agent.commerce.orders.model import CANCELLED
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.db import Transaction


async def cancel(tx: Transaction, order_id: str, *, owner_id: str | None, reason: str | None,
                 by: str = "customer") -> dict[str, Any]:
    _, doc = await lifecycle.load(tx, order_id, owner_id)
    error = rules.cancel_problem(doc)
    if error is not None:
        raise error
    for line in doc["items"]:
        await catalog_storage.restock(tx, line["itemId"], line.get("variantId", ""),
                                      int(line["quantity"]))
    await bookings.release(tx, order_id)
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

    return await lifecycle.change_order(tx, order_id, change, to=CANCELLED, owner_id=owner_id)
