"""Order tools of the `commerce` connection: place and pay, read, list.

`place_order` runs the same x402 flow a client of the HTTP API runs: place the order, take the
402's sandbox `fiat_intent` offer, confirm that intent with the test card, and place the order
again with the payment proof. Both writes that matter are stored under the call's idempotency
key in the transaction that makes them: the confirmation (which intent was charged) and the
final placement (the order). A call repeated after a crash returns the order it already
created, or spends the intent it already charged, instead of charging or buying twice.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from commerce_agent.commerce import address, idempotency
from commerce_agent.commerce.orders import model
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.orders.model import RATINGS, SUBSCRIPTION, TIPPING
from commerce_agent.commerce.pagination import COUNT_CAP, total_count
from commerce_agent.commerce.payments import sandbox
from commerce_agent.commerce.services.checkout.placement import (
    Payment,
    PlacedOrder,
    place_order,
    preverify,
)
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError
from commerce_agent.operations import approvals
from commerce_agent.operations.approvals import order_request_from_args
from commerce_agent.operations.base import (
    CHANGES,
    COMMERCE,
    READS,
    Tool,
    ToolContext,
    ToolFailure,
    schema,
)

TEST_CARD = "4242424242424242"
# The idempotency route under which a call records the intent it charged.
CONFIRM_ROUTE = "/payments/sandbox/confirm"


def order_summary(order: dict[str, Any]) -> dict[str, Any]:
    summary = {
        "orderId": order["id"], "status": order["status"], "storeId": order.get("storeId"),
        "items": [{"cartItemId": line.get("id"), "itemId": line.get("itemId"),
                   "name": line.get("name"), "quantity": line.get("quantity"),
                   "lineTotal": line.get("lineTotal"),
                   **{key: line[key] for key in ("variantId", "timeSlotId", "fulfillmentType")
                      if key in line}}
                  for line in order.get("items", [])],
        "subtotal": order.get("subtotal"), "discount": order.get("discount"),
        "total": order.get("total"), "createdAt": order.get("createdAt"),
        "updatedAt": order.get("updatedAt"),
        "actions": [action.get("id") for action in order.get("actions", [])],
    }
    for key in ("payment", "deliveryAddress", "shippingMethod", "fulfillment", "tracking",
                "refunds", "returns"):
        if key in order:
            summary[key] = order[key]
    metadata = order.get("metadata", {})
    for key, name in ((SUBSCRIPTION, "subscription"), (RATINGS, "rating"), (TIPPING, "tip")):
        if key in metadata:
            summary[name] = metadata[key]
    # Where the goods are, as the fulfillment wrote it: "has it shipped?" is answered from this.
    shipments = [{key: shipment[key] for key in _SHIPMENT_FIELDS if key in shipment}
                 for shipment in metadata.get(model.SHIPMENT_TRACKING, [])]
    if shipments:
        summary["shipments"] = shipments
    eta = (metadata.get(model.DETAILED_STATUS) or {}).get("estimatedCompletionAt") or (
        metadata.get(model.DELIVERY_TRACKING) or {}).get("estimatedArrivalAt")
    if eta:
        summary["estimatedCompletionAt"] = eta
    return summary


_SHIPMENT_FIELDS = ("carrier", "trackingNumber", "status", "shippedAt", "deliveredAt")


def _payment_proof(intent_id: str, network: str = "sandbox") -> str:
    proof = {"x402Version": 1, "scheme": "fiat_intent", "network": network,
             "payload": {"paymentIntentId": intent_id}}
    return base64.b64encode(json.dumps(proof).encode()).decode()


async def _place(ctx: ToolContext, args: dict[str, Any], payment: Payment | None
                 ) -> idempotency.Outcome:
    base_url = ctx.settings.base_url.rstrip("/")

    async def work(tx: Transaction) -> idempotency.Outcome:
        request = order_request_from_args(args)
        placed: PlacedOrder = await place_order(tx, ctx.user(), request, payment,
                                                base_url=base_url, pay_to=ctx.pay_to)
        return idempotency.Outcome(placed.status, placed.body)

    return await idempotency.call_once(ctx.db, ctx.scope("POST", "/orders"), args, work)


async def _confirm(ctx: ToolContext, args: dict[str, Any], offer: dict[str, Any]
                   ) -> idempotency.Outcome:
    """Charge the test card for the 402's intent, once per call."""
    extra = offer.get("extra", {})

    async def work(tx: Transaction) -> idempotency.Outcome:
        intent_id = await sandbox.confirm_intent(tx, extra["paymentIntentId"],
                                                 extra["clientSecret"], TEST_CARD)
        return idempotency.Outcome(200, {"paymentIntentId": intent_id})

    return await idempotency.call_once(ctx.db, ctx.scope("POST", CONFIRM_ROUTE), args, work)


def _amount_mismatch(exc: CommerceError) -> bool:
    return exc.code == "payment_failed" and any(
        detail.get("reason") == "amount_mismatch" for detail in exc.details)


async def place(ctx: ToolContext, args: dict[str, Any]) -> Any:
    # A call resumed after a crash may have charged an intent already: spend that one.
    charged = await idempotency.call_lookup(ctx.db, ctx.scope("POST", CONFIRM_ROUTE), args)
    if charged is None:
        first = await _place(ctx, args, None)
        if first.status != 402:
            return order_summary(first.body)
        offer = next((entry for entry in first.body.get("accepts", [])
                      if entry.get("scheme") == "fiat_intent"), None)
        if offer is None:
            raise ToolFailure("payment_unavailable", "The store offered no sandbox card payment.")
        if "paymentUrl" in offer.get("extra", {}):
            return await _place_paid_by_shopper(ctx, args, offer)
        charged = await _confirm(ctx, args, offer)
    intent_id = str(charged.body["paymentIntentId"])
    payment = preverify(_payment_proof(intent_id), ctx.pay_to)
    try:
        second = await _place(ctx, args, payment)
    except CommerceError as exc:
        if not _amount_mismatch(exc):
            raise
        raise ToolFailure(
            "cart_changed_after_payment",
            f"The cart changed after its payment ({intent_id}) was confirmed, so the order "
            "was not placed and nothing more was charged; ask again to check out the cart "
            "as it is now.", {"paymentIntentId": intent_id, "reason": exc.message}) from None
    if second.status != 201:
        raise ToolFailure("payment_failed", "The order was not created after payment.")
    return order_summary(second.body)


# Why a real card provider's intent cannot pay yet: the shopper has to act on the page.
_SHOPPER_STEPS = {"not_paid", "not_confirmed", "requires_action", "card_declined", "processing"}


async def _place_paid_by_shopper(ctx: ToolContext, args: dict[str, Any],
                                 offer: dict[str, Any]) -> Any:
    """A real card provider (Stripe): an agent cannot type a card, so the shopper pays on the
    payment page; once they have, the same call places the order with that intent (the
    unchanged cart is offered the same intent again)."""
    extra = offer["extra"]
    payment = preverify(_payment_proof(str(extra["paymentIntentId"]), str(offer["network"])),
                        ctx.pay_to)
    try:
        placed = await _place(ctx, args, payment)
    except CommerceError as exc:
        reasons = {str(detail.get("reason")) for detail in exc.details}
        if exc.code != "payment_failed" or not reasons & _SHOPPER_STEPS:
            raise
        raise ToolFailure(
            "payment_needs_shopper",
            "I cannot type a card: please pay on this page, then ask me again to place the "
            f"order (nothing is ordered until then): {extra['paymentUrl']}",
            {"paymentUrl": extra["paymentUrl"], "paymentIntentId": extra["paymentIntentId"],
             "reason": sorted(reasons & _SHOPPER_STEPS)[0]}) from None
    if placed.status != 201:
        raise ToolFailure("payment_failed", "The order was not created after payment.")
    return order_summary(placed.body)


async def get_order(ctx: ToolContext, args: dict[str, Any]) -> Any:
    row = await order_storage.get_order(ctx.db, args["orderId"], ctx.user().user_id)
    if row is None:
        raise ToolFailure("order_not_found", f"No order with id {args['orderId']!r}.")
    return order_summary(order_view.render(model.decode(row["doc"])))


async def list_orders(ctx: ToolContext, args: dict[str, Any]) -> Any:
    user_id, status = ctx.user().user_id, args.get("status")
    rows = await order_storage.list_orders(ctx.db, user_id, status, 10)
    total = await order_storage.count_orders(ctx.db, user_id, status, COUNT_CAP + 1)
    return {"orders": [order_summary(order_view.render(model.decode(row["doc"])))
                       for row in rows], "total": total_count(total)}


def tools() -> list[Tool]:
    return [
        Tool("place_order",
             "Place the order for a cart and pay it with the sandbox card. Physical items "
             "need a deliveryAddress; shippingMethodId picks one of the cart's "
             "shippingOptions (default: the cart's choice, else the store's first). The user "
             "is asked to approve the payment first.",
             schema({"cartId": {"type": "string"}, "deliveryAddress": address.json_schema(),
                     "shippingMethodId": {"type": "string", "minLength": 1,
                                          "maxLength": 100}}, ["cartId"]),
             place, COMMERCE, effect=CHANGES, approval=approvals.place_order),
        Tool("get_order", "Show one order: its status, items, total and what can be done next.",
             schema({"orderId": {"type": "string"}}, ["orderId"]), get_order, COMMERCE,
             effect=READS),
        Tool("list_orders", "List the user's most recent orders (newest first).",
             schema({"status": {"enum": list(model.STATUSES)}}),
             list_orders, COMMERCE, effect=READS),
    ]
