"""The order state machine, enforced in one place: every change to an order document runs here.

    pending → confirmed → processing → in_transit → completed
    confirmed → completed           (orders with nothing to ship: digital, pickup)
    pending | confirmed → cancelled

Nothing else moves. `change_order` loads the document inside the caller's transaction, checks
the move, applies the status and metadata changes, saves, and reports the change through
`order_events.order_changed` (the stored patch journal and the webhook outbox).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import msgspec

from commerce_agent import clock
from commerce_agent.commerce.services.orders import events as order_events
from commerce_agent.commerce.storage import lifecycle as storage
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, not_found

STATUSES = ("pending", "confirmed", "processing", "in_transit", "completed", "cancelled")
TERMINAL = frozenset({"completed", "cancelled"})
_MOVES: dict[str, frozenset[str]] = {
    "pending": frozenset({"confirmed", "cancelled"}),
    "confirmed": frozenset({"processing", "completed", "cancelled"}),
    "processing": frozenset({"in_transit"}),
    "in_transit": frozenset({"completed"}),
}
FULFILLMENT_INTENT = "dev.commerce.order.fulfillment_intent"

Change = Callable[[dict[str, Any]], None]


def ships(doc: dict[str, Any]) -> bool:
    """True when something in the order travels to the customer (physical or hybrid part)."""
    intent = doc.get("metadata", {}).get(FULFILLMENT_INTENT)
    if isinstance(intent, dict) and intent.get("fulfillmentType") == "pickup":
        return False
    for item in doc.get("items", []):
        kind = item.get("fulfillmentType")
        if kind == "physical":
            return True
        if kind == "hybrid" and any(component.get("type") == "physical"
                                    for component in item.get("fulfillmentComponents", [])):
            return True
    return False


def can_move(doc: dict[str, Any], to: str) -> bool:
    current = str(doc.get("status"))
    if to not in _MOVES.get(current, frozenset()):
        return False
    return not (current == "confirmed" and to == "completed" and ships(doc))


def check_move(doc: dict[str, Any], to: str) -> None:
    if can_move(doc, to):
        return
    current = doc.get("status")
    raise CommerceError(
        409, "invalid_transition", f"An order cannot go from {current} to {to}.",
        details=[{"type": "business_logic", "field": "/status", "value": to,
                  "resourceId": doc.get("id"), "reason": f"not allowed from {current}"}],
        params={"from": current, "to": to})


def _stamp(doc: dict[str, Any], status: str, now: str) -> None:
    if status == "completed":
        doc["completedAt"] = now
        days = int(doc.get("fulfillment", {}).get("returnWindowDays") or 0)
        if days > 0:
            doc["returnableUntil"] = clock.iso(clock.parse(now) + timedelta(days=days))
    elif status == "cancelled":
        doc["cancelledAt"] = now


async def load(db: Database | Transaction, order_id: str, owner_id: str | None = None
               ) -> tuple[str, dict[str, Any]]:
    """(owner id, document) of an order; another owner's order is 404 like a missing one."""
    row = await storage.order_by_id(db, order_id)
    if row is None or (owner_id is not None and row["owner_id"] != owner_id):
        raise not_found("order", order_id)
    return str(row["owner_id"]), msgspec.json.decode(row["doc"])


async def change_order(tx: Transaction, order_id: str, change: Change | None = None, *,
                       to: str | None = None, owner_id: str | None = None) -> dict[str, Any]:
    """Move and/or modify one order; returns the saved document (unchanged: nothing saved)."""
    owner, before = await load(tx, order_id, owner_id)
    after = copy.deepcopy(before)
    now = clock.now_iso()
    if to is not None:
        check_move(before, to)
        after["status"] = to
        _stamp(after, to, now)
    if change is not None:
        change(after)
    if after == before:
        return after
    after["updatedAt"] = now
    await order_storage.save_doc(tx, after)
    if to in TERMINAL:
        await storage.unschedule(tx, order_id)
    elif to == "confirmed":
        await storage.schedule(tx, order_id, 0, None)
    await order_events.order_changed(tx, owner, before, after)
    return after


async def order_created(tx: Transaction, owner_id: str, doc: dict[str, Any]
                        ) -> dict[str, Any]:
    """A new order: confirmed ones start fulfillment; listeners hear of it. Returns the order
    rendered."""
    if doc["status"] == "confirmed":
        await storage.schedule(tx, doc["id"], 0, None)
    return await order_events.order_changed(tx, owner_id, None, doc)
