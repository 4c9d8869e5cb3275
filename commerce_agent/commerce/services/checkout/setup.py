"""What POST /orders adds for the order lifecycle, around `orders.place_order`.

Before payment (`check_request`): the request metadata is validated (customer fields,
fulfillment intent; server-owned keys are refused) and booked time slots are refused.
Inside the order transaction (`prepare`): the cart is split into one order per fulfillment
group, and each order gets its subscription terms, preorder release, booked slots, its
fulfillment method and the first statuses the customer sees.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.orders import bookings, model
from commerce_agent.commerce.orders.model import FULFILLMENT_INTENT, SUBSCRIPTION
from commerce_agent.commerce.orders.rules import add_period
from commerce_agent.commerce.services.carts import customer_fields
from commerce_agent.commerce.services.carts.cart import CartLine, CartView
from commerce_agent.commerce.services.fulfillment import intent as fulfillment_intent
from commerce_agent.commerce.services.fulfillment import plans as fulfillment
from commerce_agent.commerce.services.fulfillment import scheduling
from commerce_agent.commerce.services.fulfillment.intent import Group
from commerce_agent.db import Transaction
from commerce_agent.errors import validation_error

# Order metadata only the server writes; a client cannot set it when ordering.
SERVER_OWNED = frozenset({
    model.DETAILED_STATUS, model.SHIPMENT_TRACKING, model.DELIVERY_TRACKING,
    model.KITCHEN_STATUS, model.PREORDER, model.SCHEDULING, model.DIGITAL_ACCESS,
    model.SUBSCRIPTION, model.REFUNDS, model.RATINGS, model.TIPPING, model.APPLIED_PROMOTIONS,
})


def check_request(metadata: dict[str, Any], cart: CartView
                  ) -> tuple[dict[str, Any], list[Group] | None]:
    """(metadata to store, fulfillment groups or None); 400/409 for what cannot be ordered."""
    stored: dict[str, Any] = {}
    groups = None
    for key, value in metadata.items():
        base = key.split("@", 1)[0]
        if base == FULFILLMENT_INTENT:
            groups = fulfillment_intent.parse(value, key, cart)
        elif base == model.CUSTOMER_FIELDS:
            stored[base] = customer_fields.parse(value, key)
        elif base in SERVER_OWNED:
            raise validation_error(f"/metadata/{key}", "is set by the server")
        else:
            stored[key] = value
    scheduling.check_lines(cart.lines)
    return stored, groups


def _preorder(doc: dict[str, Any], cart: CartView) -> None:
    ids = {line["id"] for line in doc["items"]}
    terms = [(line.id, line.item.doc["metadata"][model.PREORDER]) for line in cart.lines
             if line.id in ids and line.item is not None
             and model.PREORDER in line.item.doc.get("metadata", {})]
    if not terms:
        return
    latest = max((entry for _, entry in terms),
                 key=lambda entry: clock.parse(entry["releaseDate"]))
    doc["metadata"][model.PREORDER] = {
        **latest, "_version": "1.0", "cartItemIds": [line_id for line_id, _ in terms]}


async def prepare(tx: Transaction, owner_id: str, doc: dict[str, Any], cart: CartView,
                  groups: list[Group] | None, base_url: str) -> list[dict[str, Any]]:
    """The order documents to insert for this cart (one, or one per fulfillment group)."""
    store = cart.store
    now = clock.now()
    context = fulfillment.Context(now, 1.0, base_url)
    documents = fulfillment_intent.split(doc, groups)
    for document in documents:
        attach_subscription(document, cart.lines, now)
        _preorder(document, cart)
        await bookings.book(tx, owner_id, document)
        document["fulfillment"] = fulfillment.describe(document, store)
        fulfillment.initial_metadata(document, context)
    return documents


def attach_subscription(doc: dict[str, Any], lines: list[CartLine], now: datetime) -> None:
    """Subscription terms from the first subscription item among the order's lines."""
    ids = {line["id"] for line in doc["items"]}
    for line in lines:
        terms = line.item.doc.get("metadata", {}).get(SUBSCRIPTION) if line.item else None
        if line.id not in ids or not terms:
            continue
        frequency = str(terms.get("frequency", "monthly"))
        trial = int(terms.get("trialDays") or 0)
        first_bill = now + timedelta(days=trial) if trial else add_period(now, frequency)
        doc["metadata"][SUBSCRIPTION] = {
            "_version": "1.0", "cartItemId": line.id, "itemId": line.item_id,
            "frequency": frequency, "startDate": clock.iso(now),
            "nextBillingDate": clock.iso(first_bill), "status": "active",
            "cancellationPolicy": terms.get("cancellationPolicy", {"canCancelAnytime": True}),
            **({"trialDays": trial} if trial else {}),
            "createdAt": clock.iso(now), "updatedAt": clock.iso(now)}
        return
