"""After-sale tools of the `commerce` connection: cancel an order, start a return, tip, rate,
and pause, resume or cancel a subscription.

They call the same services as POST /orders/{id}/cancel, POST /returns,
POST /orders/{id}/tips, POST /orders/{id}/ratings and POST /orders/{id}/subscription/{action},
each in one transaction guarded by the call's idempotency key. Every one of them changes an
existing order (or moves money), so each asks the person first (commerce_agent.operations.policy),
with the prompt its writer in `approvals` makes.
"""

from __future__ import annotations

from typing import Any

from commerce_agent.commerce import idempotency
from commerce_agent.commerce.orders import cancellation, feedback, lifecycle, rules, subscriptions
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.db import Transaction
from commerce_agent.operations import approvals
from commerce_agent.operations.base import (
    CHANGES,
    COMMERCE,
    Tool,
    ToolContext,
    ToolFailure,
    schema,
)
from commerce_agent.operations.orders import order_summary


async def _order_change(ctx: ToolContext, route: str, args: dict[str, Any], work: Any) -> Any:
    async def run(tx: Transaction) -> idempotency.Outcome:
        doc = await work(tx)
        return idempotency.Outcome(200, order_summary(order_view.render(doc)))

    return (await idempotency.call_once(ctx.db, ctx.scope("POST", route), args, run)).body


async def cancel_order(ctx: ToolContext, args: dict[str, Any]) -> Any:
    order_id = args["orderId"]
    return await _order_change(ctx, f"/orders/{order_id}/cancel", args, lambda tx: (
        cancellation.cancel(tx, order_id, owner_id=ctx.user().user_id,
                            reason=args.get("reason"))))


def return_summary(ret: dict[str, Any]) -> dict[str, Any]:
    return {"returnId": ret["id"], "orderId": ret["orderId"], "status": ret["status"],
            "items": [{"cartItemId": item["cartItemId"], "itemId": item.get("itemId"),
                       "name": item.get("name"), "quantity": item["quantity"]}
                      for item in ret["items"]],
            "refundAmount": ret.get("refundAmount"), "returnMethod": ret.get("returnMethod"),
            "preferredResolution": ret.get("preferredResolution")}


async def start_return(ctx: ToolContext, args: dict[str, Any]) -> Any:
    owner = ctx.user().user_id

    async def run(tx: Transaction) -> idempotency.Outcome:
        items = args.get("items")
        if not items:  # everything still returnable
            _, doc = await lifecycle.load(tx, args["orderId"], owner)
            items = [{"cartItemId": line_id, "quantity": left}
                     for line_id, left in rules.returnable(doc).items() if left > 0]
        request = {**args, "items": items}
        return idempotency.Outcome(201, return_summary(await returns.create(tx, owner, request)))

    return (await idempotency.call_once(ctx.db, ctx.scope("POST", "/returns"), args, run)).body


async def tip_order(ctx: ToolContext, args: dict[str, Any]) -> Any:
    order_id = args["orderId"]
    if args.get("amount") is None and args.get("percentage") is None:
        raise ToolFailure("invalid_arguments", "Give an amount or a percentage.")
    return await _order_change(ctx, f"/orders/{order_id}/tips", args, lambda tx: feedback.tip(
        tx, ctx.user().user_id, order_id, approvals.tip_request(args), args.get("percentage"),
        args.get("recipient"), args.get("message")))


async def rate_order(ctx: ToolContext, args: dict[str, Any]) -> Any:
    order_id = args["orderId"]
    rating: dict[str, Any] = {key: args[key] for key in ("overall", "comment") if key in args}
    return await _order_change(ctx, f"/orders/{order_id}/ratings", args, lambda tx: feedback.rate(
        tx, ctx.user().user_id, order_id, rating))


async def change_subscription(ctx: ToolContext, args: dict[str, Any]) -> Any:
    order_id, action = args["orderId"], args["action"]
    return await _order_change(
        ctx, f"/orders/{order_id}/subscription/{action}", args,
        lambda tx: subscriptions.change(tx, ctx.user().user_id, order_id, action))


_ORDER = {"type": "string", "description": "The order's id (orderId)."}
_REASON = {"type": "string", "maxLength": 500}


def tools() -> list[Tool]:
    return [
        Tool("cancel_order", "Cancel an order that has not started shipping; it is refunded.",
             schema({"orderId": _ORDER, "reason": _REASON}, ["orderId"]), cancel_order,
             COMMERCE, effect=CHANGES, approval=approvals.cancel_order, destructive=True),
        Tool("start_return",
             "Start a return for a completed order: the given lines, or everything still "
             "returnable when items is omitted.",
             schema({"orderId": _ORDER, "reason": _REASON,
                     "items": {"type": "array", "maxItems": 100, "items": schema(
                         {"cartItemId": {"type": "string"},
                          "quantity": {"type": "integer", "minimum": 1}},
                         ["cartItemId", "quantity"])},
                     "returnMethod": {"enum": ["ship", "in_store", "pickup"]},
                     "preferredResolution": {"enum": ["refund", "exchange", "store_credit"]}},
                    ["orderId"]), start_return, COMMERCE,
             effect=CHANGES, approval=approvals.start_return),
        Tool("tip_order",
             "Tip the people who served an order (a courier, a kitchen, a host): a fixed "
             "amount or a percentage of the total. The user is asked to approve it first.",
             schema({"orderId": _ORDER,
                     "amount": schema({"amount": {"type": "string",
                                                  "pattern": r"^\d+(\.\d+)?$"},
                                       "currency": {"type": "string",
                                                    "pattern": "^[A-Za-z]{3}$"}},
                                      ["amount", "currency"]),
                     "percentage": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
                     "message": {"type": "string", "maxLength": 500}}, ["orderId"]),
             tip_order, COMMERCE, effect=CHANGES, approval=approvals.tip_order),
        Tool("rate_order", "Rate a completed order from 1 to 5 stars, with an optional comment.",
             schema({"orderId": _ORDER, "overall": {"type": "integer", "minimum": 1,
                                                    "maximum": 5},
                     "comment": {"type": "string", "maxLength": 1000}}, ["orderId", "overall"]),
             rate_order, COMMERCE, effect=CHANGES, approval=approvals.rate_order),
        Tool("change_subscription",
             "Pause, resume or cancel the subscription an order started.",
             schema({"orderId": _ORDER, "action": {"enum": list(rules.SUBSCRIPTION_ACTIONS)}},
                    ["orderId", "action"]), change_subscription, COMMERCE,
             effect=CHANGES, approval=approvals.change_subscription, destructive=True),
    ]
