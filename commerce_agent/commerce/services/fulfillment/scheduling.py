"""Booked service time slots (`dev.commerce.service.scheduling`).

A slot is booked inside the order transaction: a row in slot_bookings (its primary key lets one
order hold it) and `available: false` on the slot in the item document, so catalogs, search,
carts and later orders all see it taken. Cancelling the order frees it again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from commerce_agent import clock
from commerce_agent.commerce.services.catalog.storefront import StockedItem
from commerce_agent.commerce.storage import lifecycle as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError

SCHEDULING = "dev.commerce.service.scheduling"


def _slot(item_doc: dict[str, Any], slot_id: str) -> dict[str, Any] | None:
    slots = item_doc.get("metadata", {}).get(SCHEDULING, {}).get("timeSlots", [])
    return next((slot for slot in slots if slot.get("id") == slot_id), None)


def slot_open(item: StockedItem, slot_id: str | None) -> bool:
    if not slot_id:
        return True
    slot = _slot(item.doc, slot_id)
    return slot is None or slot.get("available", True) is not False


def check_slot(item: StockedItem, options: dict[str, Any]) -> None:
    """Refuse a time slot somebody else has booked (on add to cart)."""
    slot_id = options.get("timeSlotId")
    if not slot_open(item, slot_id):
        raise CommerceError(
            400, "product_unavailable", f"The time slot {slot_id} is already booked.",
            details=[{"type": "business_logic", "resourceId": item.id, "field": "/timeSlotId",
                      "value": slot_id, "reason": "time_slot_booked"}],
            params={"itemId": item.id, "timeSlotId": slot_id})


def _taken(line: dict[str, Any]) -> CommerceError:
    return CommerceError(
        409, "order_items_unavailable", "A time slot in this order is no longer available.",
        details=[{"type": "business_logic", "resourceId": line["itemId"],
                  "field": f"/items/{line['id']}", "value": line["timeSlotId"],
                  "reason": "time_slot_booked"}])


class Line(Protocol):
    id: str
    item_id: str
    item: StockedItem | None
    options: dict[str, Any]


def check_lines(lines: Iterable[Line]) -> None:
    """Refuse an order whose cart holds a slot booked since it was added to the cart."""
    for line in lines:
        slot_id = line.options.get("timeSlotId")
        if line.item is not None and not slot_open(line.item, slot_id):
            raise _taken({"id": line.id, "itemId": line.item_id, "timeSlotId": slot_id})


async def book(tx: Transaction, owner_id: str, doc: dict[str, Any]) -> None:
    """Book every slot the order's lines name, or refuse the whole order."""
    bookings = []
    for line in doc["items"]:
        slot_id = line.get("timeSlotId")
        if not slot_id:
            continue
        item_doc = await storage.item_doc(tx, line["itemId"])
        slot = _slot(item_doc or {}, slot_id)
        if item_doc is None or slot is None or slot.get("available", True) is False:
            raise _taken(line)
        booked = await storage.book_slot(tx, {"item": line["itemId"], "slot": slot_id,
                                              "order": doc["id"], "owner": owner_id,
                                              "at": clock.now_iso()})
        if not booked:
            raise _taken(line)
        slot["available"] = False
        await storage.save_item_doc(tx, line["itemId"], item_doc)
        terms = item_doc["metadata"][SCHEDULING]
        bookings.append({"cartItemId": line["id"], "itemId": line["itemId"],
                         "timeSlotId": slot_id, "startTime": slot["startTime"],
                         "endTime": slot["endTime"], "duration": terms.get("duration"),
                         "location": terms.get("location", "")})
    if bookings:
        doc["metadata"][SCHEDULING] = {"_version": "1.0", "bookings": bookings}


async def release(tx: Transaction, order_id: str) -> None:
    """Free the slots a cancelled order held."""
    for row in await storage.release_slots(tx, order_id):
        item_doc = await storage.item_doc(tx, row["item_id"])
        slot = _slot(item_doc or {}, row["slot_id"])
        if item_doc is not None and slot is not None:
            slot["available"] = True
            await storage.save_item_doc(tx, row["item_id"], item_doc)
