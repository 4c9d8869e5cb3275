"""The order state machine, enforced in one place: every change to an order document runs here.

The moves are `rules.can_move`; nothing else moves. `change_order` loads the document inside the
caller's transaction, checks the move, applies the status and metadata changes, saves, and
reports the change through `order_events.order_changed` (the stored patch journal and the
webhook outbox).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.orders import events as order_events
from commerce_agent.commerce.orders import model, rules
from commerce_agent.commerce.orders.model import CANCELLED, COMPLETED, CONFIRMED, TERMINAL, OrderDoc
from commerce_agent.commerce.storage import lifecycle as storage
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import not_found

Change = Callable[[dict[str, Any]], None]


def check_move(doc: OrderDoc, to: str) -> None:
    error = rules.move_problem(doc, to)
    if error is not None:
        raise error


def _stamp(doc: dict[str, Any], status: str, now: str) -> None:
    if status == COMPLETED:
        doc["completedAt"] = now
        days = int(doc.get("fulfillment", {}).get("returnWindowDays") or 0)
        if days > 0:
            doc["returnableUntil"] = clock.iso(clock.parse(now) + timedelta(days=days))
    elif status == CANCELLED:
        doc["cancelledAt"] = now


async def load(db: Database | Transaction, order_id: str, owner_id: str | None = None
               ) -> tuple[str, dict[str, Any]]:
    """(owner id, document) of an order; another owner's order is 404 like a missing one."""
    row = await storage.order_by_id(db, order_id)
    if row is None or (owner_id is not None and row["owner_id"] != owner_id):
        raise not_found("order", order_id)
    return str(row["owner_id"]), model.decode(row["doc"])


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
    elif to == CONFIRMED:
        await storage.schedule(tx, order_id, 0, None)
    await order_events.order_changed(tx, owner, before, after)
    return after


async def order_created(tx: Transaction, owner_id: str, doc: dict[str, Any]
                        ) -> dict[str, Any]:
    """A new order: confirmed ones start fulfillment; listeners hear of it. Returns the order
    rendered."""
    if doc["status"] == CONFIRMED:
        await storage.schedule(tx, doc["id"], 0, None)
    return await order_events.order_changed(tx, owner_id, None, doc)
