"""What a merchant does to orders and returns: advance (shipping with its own carrier and
tracking number), mark ready for pickup, cancel with a refund, approve, reject, receive and
refund returns. The admin API and the CLI (`orders advance`, `returns advance`) both call
these, and they move orders only through the state machines of orders/lifecycle.py and
services/returns/handling.py.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta

from commerce_agent import clock, links
from commerce_agent.commerce.orders import cancellation, lifecycle, model, rules
from commerce_agent.commerce.orders.model import CONFIRMED, IN_TRANSIT, PROCESSING, OrderStatus
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.commerce.storage import returns as return_storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError, not_found, validation_error
from commerce_agent.struct_rules import NOT_SPACE

PICKUP_METHODS = rules.PICKUP_METHODS


class AdvanceOrder(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Empty: the next status. With trackingNumber: ship now with that carrier and number."""

    to: OrderStatus | None = None
    carrier: Annotated[str, Meta(min_length=1, max_length=100)] | None = None
    trackingNumber: Annotated[str, Meta(min_length=1, max_length=100,
                                        pattern=r"^[A-Za-z0-9 _./-]+$")] | None = None
    trackingUrl: Annotated[str, Meta(max_length=2048,
                                     pattern=rf"^https?://{NOT_SPACE}+$")] | None = None


class CancelOrder(msgspec.Struct, forbid_unknown_fields=True):
    reason: Annotated[str, Meta(max_length=500)] | None = None
RETURN_ACTIONS = ("approve", "reject", "receive", "refund")


def _refused(doc: dict[str, Any], what: str) -> CommerceError:
    status = doc.get("status")
    return CommerceError(409, "invalid_transition", f"A {status} order cannot {what}.",
                         details=[{"type": "business_logic", "field": "/status",
                                   "resourceId": doc.get("id"), "reason": f"order is {status}"}],
                         params={"from": status, "to": what})


def _shipment(carrier: str, number: str, url: str | None) -> Any:
    def apply(order: dict[str, Any]) -> None:
        now = clock.now_iso()
        entry: dict[str, Any] = {"_version": "1.0", "carrier": carrier, "trackingNumber": number,
                                 "status": "in_transit", "shippedAt": now}
        if url:
            entry["trackingUrl"] = url
        order["metadata"][model.SHIPMENT_TRACKING] = [entry]
        order["metadata"][model.DETAILED_STATUS] = {
            "_version": "1.0", "title": "Shipped",
            "description": f"Your parcel is on its way with {carrier} ({number}).",
            "progressPercentage": 50}
    return apply


async def advance(tx: Transaction, order_id: str, base_url: str, *, to: str | None = None,
                  carrier: str | None = None, tracking_number: str | None = None,
                  tracking_url: str | None = None) -> dict[str, Any]:
    """Move an order to its next status (or `to`), running its fulfillment steps. With a
    tracking number the order ships now with that carrier and number (packing first if it
    was only confirmed)."""
    if tracking_url is not None and (reason := links.url_problem(tracking_url)):
        raise validation_error("/trackingUrl", reason, tracking_url)
    if tracking_number is None:
        if carrier is not None or tracking_url is not None:
            raise validation_error("/trackingNumber", "is required with a carrier or URL")
        return await simulator.advance(tx, order_id, base_url, to)
    _, doc = await lifecycle.load(tx, order_id)
    if to not in (None, IN_TRANSIT):
        raise validation_error("/to", "must be in_transit (or left out) with a tracking number",
                               to)
    if not rules.ships(doc):
        raise validation_error("/trackingNumber", "is only for orders that are shipped")
    if doc["status"] == CONFIRMED:
        doc = await simulator.advance(tx, order_id, base_url, PROCESSING)
    if doc["status"] != PROCESSING:
        raise _refused(doc, "be shipped")
    chosen = carrier or doc.get("fulfillment", {}).get("carrier") or "Carrier"
    return await lifecycle.change_order(
        tx, order_id, _shipment(chosen, tracking_number, tracking_url), to=IN_TRANSIT)


async def ready_for_pickup(tx: Transaction, order_id: str) -> dict[str, Any]:
    """Tell the customer a pickup order waits at the counter (the order stays confirmed)."""
    _, doc = await lifecycle.load(tx, order_id)
    method = doc.get("fulfillment", {}).get("method")
    if method not in PICKUP_METHODS or doc["status"] != CONFIRMED:
        raise _refused(doc, "be made ready for pickup" if method in PICKUP_METHODS
                       else "be picked up (it is not a pickup order)")
    where = doc["fulfillment"].get("location", "the store")

    def ready(order: dict[str, Any]) -> None:
        metadata = order["metadata"]
        metadata[model.DETAILED_STATUS] = {
            "_version": "1.0", "title": "Ready for pickup",
            "description": f"Collect it at {where}.", "progressPercentage": 80}
        if method == "kitchen_pickup":
            kitchen = metadata.setdefault(model.KITCHEN_STATUS, {"_version": "1.0"})
            kitchen["status"] = "ready_for_pickup"
            kitchen["estimatedReadyAt"] = clock.now_iso()

    return await lifecycle.change_order(tx, order_id, ready)


async def cancel(tx: Transaction, order_id: str, reason: str | None) -> dict[str, Any]:
    """Cancel for the customer: stock back, slots freed, what was paid refunded."""
    return await cancellation.cancel(tx, order_id, owner_id=None,
                                     reason=reason or "Cancelled by the merchant", by="merchant")


_RETURN_DECISIONS = {"requested": ("approve", "reject"), "approved": ("receive",),
                     "in_transit": ("receive",), "received": ("refund",),
                     "processed": ("refund",)}


def return_actions(ret: dict[str, Any]) -> tuple[str, ...]:
    """What the merchant may decide about a return now (each an `advance_return` action)."""
    return _RETURN_DECISIONS.get(str(ret.get("status")), ())


def _return_path(ret: dict[str, Any], action: str) -> list[str]:
    status = ret["status"]
    if action == "approve":
        return ["approved"]
    if action == "reject":
        return ["rejected"]
    if action == "receive":
        return ["in_transit", "received"] if status == "approved" and \
            ret.get("returnMethod", "ship") == "ship" else ["received"]
    return ["processed", "completed"] if status == "received" else ["completed"]


async def advance_return(tx: Transaction, return_id: str, action: str | None = None, *,
                         to: str | None = None) -> dict[str, Any]:
    """Approve, reject, receive (goods back in stock) or refund (completes it) a return; or
    move it one step (`action` None), or to the status `to`."""
    row = await return_storage.get(tx, return_id)
    if row is None:
        raise not_found("return", return_id)
    if action is None:
        return await returns.advance(tx, return_id, to)
    ret: dict[str, Any] = msgspec.json.decode(row["doc"])
    for target in _return_path(ret, action):
        ret = await returns.advance(tx, return_id, target)
    return ret
