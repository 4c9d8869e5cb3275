"""Time slots an order holds (`dev.commerce.service.scheduling`): booked when it is placed,
freed when it is cancelled. The slot's `available` flag lives in the item document."""

from __future__ import annotations

from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.orders.model import SCHEDULING
from commerce_agent.commerce.storage import lifecycle as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError


def slot_of(item_doc: dict[str, Any], slot_id: str) -> dict[str, Any] | None:
    slots = item_doc.get("metadata", {}).get(SCHEDULING, {}).get("timeSlots", [])
    return next((slot for slot in slots if slot.get("id") == slot_id), None)


def taken(line: dict[str, Any]) -> CommerceError:
    return CommerceError(
        409, "order_items_unavailable", "A time slot in this order is no longer available.",
        details=[{"type": "business_logic", "resourceId": line["itemId"],
                  "field": f"/items/{line['id']}", "value": line["timeSlotId"],
                  "reason": "time_slot_booked"}])


async def book(tx: Transaction, owner_id: str, doc: dict[str, Any]) -> None:
    """Book every slot the order's lines name, or refuse the whole order."""
    bookings = []
    for line in doc["items"]:
        slot_id = line.get("timeSlotId")
        if not slot_id:
            continue
        item_doc = await storage.item_doc(tx, line["itemId"])
        slot = slot_of(item_doc or {}, slot_id)
        if item_doc is None or slot is None or slot.get("available", True) is False:
            raise taken(line)
        booked = await storage.book_slot(tx, {"item": line["itemId"], "slot": slot_id,
                                              "order": doc["id"], "owner": owner_id,
                                              "at": clock.now_iso()})
        if not booked:
            raise taken(line)
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
        slot = slot_of(item_doc or {}, row["slot_id"])
        if item_doc is not None and slot is not None:
            slot["available"] = True
            await storage.save_item_doc(tx, row["item_id"], item_doc)
