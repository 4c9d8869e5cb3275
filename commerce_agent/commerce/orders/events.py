"""Every change to an order goes through `order_changed`, inside the changing transaction.

It is the single seam between the order lifecycle and what listens to it: the stored JSON
Patch journal behind GET /orders/{id}/updates, the webhook outbox and the mail outbox
(services/mail/outbox.py). All rows are written in the same transaction as the change; live
listeners are told only after commit.

Order, refund and return events go to the customer's subscriptions and to those of the
store's merchants, each event carrying the order's `storeId` (a merchant who is also the
customer hears of it once).

Patches are computed between *rendered* orders (document plus actions), so applying every
patch of the stream to the first document gives exactly what GET /orders/{id} answers.
"""

from __future__ import annotations

from typing import Any

import jsonpatch
import msgspec

from commerce_agent import clock
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.orders.model import REFUNDS
from commerce_agent.commerce.services.mail import outbox as mail
from commerce_agent.commerce.services.webhooks import subscriptions as webhooks
from commerce_agent.commerce.storage import order_events as storage
from commerce_agent.db import Row, Transaction

# Topic of Database.signal: the order feed wakes at once for changes of this process.
ORDER_EVENTS = "order_events"


def patch_between(before: dict[str, Any] | None, after: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON Patch from one rendered order to the next; a new order is one root replace."""
    if before is None:
        return [{"op": "replace", "path": "", "value": after}]
    operations: list[dict[str, Any]] = jsonpatch.make_patch(before, after).patch
    return operations


def _new_refunds(before: dict[str, Any] | None, after: dict[str, Any]) -> list[dict[str, Any]]:
    seen = {entry.get("id") for entry in
            (before or {}).get("metadata", {}).get(REFUNDS, [])}
    return [entry for entry in after.get("metadata", {}).get(REFUNDS, [])
            if entry.get("id") not in seen]


async def order_changed(tx: Transaction, owner_id: str, before: dict[str, Any] | None,
                        after: dict[str, Any]) -> dict[str, Any]:
    """Record that an order went from `before` (None when just created) to `after`; returns
    `after` rendered (as GET /orders/{id} answers it)."""
    previous = order_view.render(before) if before is not None else None
    current = order_view.render(after)
    patch = patch_between(previous, current)
    if not patch:
        return current
    await storage.append(tx, {"order_id": after["id"], "owner_id": owner_id,
                              "status": after["status"], "at": clock.now_iso(),
                              "patch": msgspec.json.encode(patch).decode()},
                         first=previous is None)
    tx.notify(ORDER_EVENTS)
    events: list[webhooks.Event] = [("order.created", current, None) if previous is None
                                    else ("order.updated", current, previous)]
    if previous is None or previous["status"] != current["status"]:
        events.append((f"order.{current['status']}", current, previous))
    refunds = _new_refunds(before, after)
    events += [("refund.created", {**refund, "orderId": after["id"]}, None)
               for refund in refunds]
    store = str(after["storeId"]) if after.get("storeId") else None
    subscriptions, people = await storage.audience(
        tx, owner_id, store, people=mail.needs_people(previous, current, refunds))
    await _emit(tx, owner_id, store, events, subscriptions)
    await mail.order_changed(tx, owner_id, people, previous, current, refunds)
    return current


async def _emit(tx: Transaction, owner_id: str, store: str | None, events: list[webhooks.Event],
                subscriptions: list[Row] | None = None) -> None:
    """The customer's subscriptions, then each merchant's of the store, hear of `events`
    (`subscriptions`: theirs, read already by storage.order_events.audience)."""
    if subscriptions is None:
        subscriptions, _ = await storage.audience(tx, owner_id, store, people=False)
    by_owner: dict[str, list[Row]] = {}
    for row in subscriptions:
        by_owner.setdefault(str(row["owner_id"]), []).append(row)
    customer = by_owner.pop(owner_id, [])
    if customer:
        await webhooks.emit_all(tx, owner_id, events, store_id=store, active=customer)
    for merchant_id, active in sorted(by_owner.items()):
        await webhooks.emit_all(tx, merchant_id, events, store_id=store, active=active)


async def return_changed(tx: Transaction, owner_id: str, store_id: str | None,
                         before: dict[str, Any] | None, after: dict[str, Any]) -> None:
    """A return was created (`before` None) or moved: webhook subscribers hear of it."""
    if before is None:
        await _emit(tx, owner_id, store_id, [("return.created", after, None)])
    elif before != after:
        await _emit(tx, owner_id, store_id, [("return.updated", after, before)])
