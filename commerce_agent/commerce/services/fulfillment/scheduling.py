"""Service time slots (`dev.commerce.service.scheduling`) before the order: is a slot open?

Booking and freeing a slot belong to the order (orders/bookings.py): a row in slot_bookings
(its primary key lets one order hold it) and `available: false` on the slot in the item
document, so catalogs, search, carts and later orders all see it taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from commerce_agent.commerce.orders.bookings import slot_of, taken
from commerce_agent.commerce.services.catalog.storefront import StockedItem
from commerce_agent.errors import CommerceError


def slot_open(item: StockedItem, slot_id: str | None) -> bool:
    if not slot_id:
        return True
    slot = slot_of(item.doc, slot_id)
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
            raise taken({"id": line.id, "itemId": line.item_id, "timeSlotId": slot_id})
