"""What POST /orders adds for the order lifecycle, around `orders.place_order`.

Before payment (`check_request`): the request metadata is validated (customer fields,
fulfillment intent; server-owned keys are refused) and booked time slots are refused.
Inside the order transaction (`prepare`): the cart is split into one order per fulfillment
group, and each order gets its subscription terms, preorder release, booked slots, its
fulfillment method and the first statuses the customer sees.
"""

from __future__ import annotations

from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.services.carts import customer_fields
from commerce_agent.commerce.services.carts.cart import CartView
from commerce_agent.commerce.services.carts.charges import Charges
from commerce_agent.commerce.services.fulfillment import intent as fulfillment_intent
from commerce_agent.commerce.services.fulfillment import lifecycle, scheduling
from commerce_agent.commerce.services.fulfillment import plans as fulfillment
from commerce_agent.commerce.services.fulfillment.intent import Group
from commerce_agent.commerce.services.orders import subscriptions
from commerce_agent.db import Transaction
from commerce_agent.errors import validation_error

# Order metadata only the server writes; a client cannot set it when ordering.
SERVER_OWNED = frozenset({
    fulfillment.DETAILED_STATUS, fulfillment.SHIPMENT_TRACKING, fulfillment.DELIVERY_TRACKING,
    fulfillment.KITCHEN_STATUS, fulfillment.PREORDER, fulfillment.SCHEDULING,
    "dev.commerce.order.digital_access", "dev.commerce.order.subscription",
    "dev.commerce.order.refunds", "dev.commerce.order.ratings", "dev.commerce.order.tipping",
    "dev.commerce.order.applied_promotions",
})


def check_request(metadata: dict[str, Any], cart: CartView
                  ) -> tuple[dict[str, Any], list[Group] | None]:
    """(metadata to store, fulfillment groups or None); 400/409 for what cannot be ordered."""
    stored: dict[str, Any] = {}
    groups = None
    for key, value in metadata.items():
        base = key.split("@", 1)[0]
        if base == lifecycle.FULFILLMENT_INTENT:
            groups = fulfillment_intent.parse(value, key, cart)
        elif base == customer_fields.CUSTOMER_FIELDS:
            stored[base] = customer_fields.parse(value, key)
        elif base in SERVER_OWNED:
            raise validation_error(f"/metadata/{key}", "is set by the server")
        else:
            stored[key] = value
    scheduling.check_lines(cart.lines)
    return stored, groups


def _preorder(doc: dict[str, Any], cart: CartView) -> None:
    ids = {line["id"] for line in doc["items"]}
    terms = [(line.id, line.item.doc["metadata"][fulfillment.PREORDER]) for line in cart.lines
             if line.id in ids and line.item is not None
             and fulfillment.PREORDER in line.item.doc.get("metadata", {})]
    if not terms:
        return
    latest = max((entry for _, entry in terms),
                 key=lambda entry: clock.parse(entry["releaseDate"]))
    doc["metadata"][fulfillment.PREORDER] = {
        **latest, "_version": "1.0", "cartItemIds": [line_id for line_id, _ in terms]}


async def prepare(tx: Transaction, owner_id: str, doc: dict[str, Any], cart: CartView,
                  groups: list[Group] | None, base_url: str,
                  priced: list[Charges] | None = None) -> list[dict[str, Any]]:
    """The order documents to insert for this cart (one, or one per fulfillment group)."""
    store = cart.store
    now = clock.now()
    context = fulfillment.Context(now, 1.0, base_url)
    documents = fulfillment_intent.split(doc, groups, priced)
    for document in documents:
        subscriptions.attach(document, cart.lines, now)
        _preorder(document, cart)
        await scheduling.book(tx, owner_id, document)
        document["fulfillment"] = fulfillment.describe(document, store)
        fulfillment.initial_metadata(document, context)
    return documents
