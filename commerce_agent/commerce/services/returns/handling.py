"""Returns (`dev.commerce.order.returns`) and their state machine (docs/decisions.md "Returns").

    requested → approved | rejected
    approved → in_transit → received      (ship)
    approved → received                   (in_store, pickup)
    received → processed → completed

A return is possible for a completed order inside its store's return window while some
quantity is left to return. Received goods go back in stock; completion records a refund on
the order. The order carries a summary of its returns, updated with every move.
"""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any, Literal, get_args

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.orders import events as order_events
from commerce_agent.commerce.orders import lifecycle, refunds, rules
from commerce_agent.commerce.payments import providers
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import returns as storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, not_found, validation_error
from commerce_agent.ids import new_id

ReturnStatus = Literal["requested", "approved", "rejected", "in_transit", "received",
                       "processed", "completed"]
STATUSES: tuple[ReturnStatus, ...] = get_args(ReturnStatus)
_MOVES = {"requested": ("approved", "rejected"), "approved": ("in_transit", "received"),
          "in_transit": ("received",), "received": ("processed",), "processed": ("completed",)}


def can_move(ret: dict[str, Any], to: str) -> bool:
    status = ret["status"]
    if to not in _MOVES.get(status, ()):
        return False
    if status == "approved":
        shipped = ret.get("returnMethod", "ship") == "ship"
        return (to == "in_transit") is shipped
    return True


def next_status(ret: dict[str, Any]) -> str | None:
    return next((to for to in _MOVES.get(ret["status"], ()) if can_move(ret, to)), None)





def _refund_share(doc: dict[str, Any], line: dict[str, Any], quantity: int) -> Decimal:
    """What returning `quantity` of a line gives back: its share of the goods after the
    order's discount, with the tax paid on it; shipping is not refunded by a return."""
    subtotal = money.parse(doc["subtotal"]["amount"])
    goods = subtotal - money.parse(doc.get("discount", {}).get("amount", "0"))
    value = money.parse(line["lineTotal"]["amount"]) * quantity / int(line["quantity"])
    if subtotal > 0:
        value = value * goods / subtotal
    if doc.get("taxRate"):
        value = value * (1 + money.parse(str(doc["taxRate"])) / 100)
    return money.quantize(value, doc["total"]["currency"])


def _summary(ret: dict[str, Any]) -> dict[str, Any]:
    return {"id": ret["id"], "status": ret["status"], "href": f"/returns/{ret['id']}",
            "items": [{"cartItemId": item["cartItemId"], "quantity": item["quantity"]}
                      for item in ret["items"]]}


def _items(doc: dict[str, Any], requested: list[dict[str, Any]]) -> list[dict[str, Any]]:
    lines = {line["id"]: line for line in doc["items"]}
    left = rules.returnable(doc)
    items, seen = [], set()
    for index, entry in enumerate(requested):
        line_id = entry["cartItemId"]
        if line_id not in lines:
            raise validation_error(f"/items/{index}/cartItemId", "is not a line of this order",
                                   line_id)
        if line_id in seen:
            raise validation_error(f"/items/{index}/cartItemId", "appears twice", line_id)
        seen.add(line_id)
        if entry["quantity"] > left[line_id]:
            raise validation_error(f"/items/{index}/quantity",
                                   f"exceeds the {left[line_id]} left to return",
                                   entry["quantity"])
        line = lines[line_id]
        amount = _refund_share(doc, line, entry["quantity"])
        item = {**{k: v for k, v in entry.items() if v is not None},
                "itemId": line["itemId"], "name": line.get("name", ""),
                "refundAmount": money.money(amount, doc["total"]["currency"])}
        if line.get("variantId"):
            item["variantId"] = line["variantId"]
        items.append(item)
    return items


def estimate(doc: dict[str, Any], requested: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The return lines `requested` would make, each with its refund share (what create
    stores); 400 for a line that is not the order's or exceeds what is left to return."""
    return _items(doc, requested)


async def create(tx: Transaction, owner_id: str, request: dict[str, Any]) -> dict[str, Any]:
    _, doc = await lifecycle.load(tx, request["orderId"], owner_id)
    error = rules.return_problem(doc)
    if error is not None:
        raise error
    items = _items(doc, request["items"])
    now = clock.now_iso()
    currency = doc["total"]["currency"]
    refund = sum((money.parse(item["refundAmount"]["amount"]) for item in items), Decimal(0))
    ret: dict[str, Any] = {
        "id": new_id("ret"), "orderId": doc["id"], "orderHref": f"/orders/{doc['id']}",
        "status": "requested", "items": items,
        "preferredResolution": request.get("preferredResolution") or "refund",
        "returnMethod": request.get("returnMethod") or "ship",
        "refundAmount": money.money(refund, currency), "createdAt": now, "updatedAt": now}
    if request.get("reason"):
        ret["reason"] = request["reason"]
    await storage.insert(tx, owner_id, ret)
    await order_events.return_changed(tx, owner_id, doc.get("storeId"), None, dict(ret))
    await lifecycle.change_order(
        tx, doc["id"], lambda order: order.setdefault("returns", []).append(_summary(ret)),
        owner_id=owner_id)
    return ret


async def get(db: Database, owner_id: str, return_id: str) -> dict[str, Any]:
    row = await storage.get(db, return_id)
    if row is None or row["owner_id"] != owner_id:
        raise not_found("return", return_id)
    return dict(json.loads(row["doc"]))


async def advance(tx: Transaction, return_id: str, to: str | None = None) -> dict[str, Any]:
    """The merchant moves a return one step (or to `to`); refused moves are 409."""
    row = await storage.get(tx, return_id)
    if row is None:
        raise not_found("return", return_id)
    ret = json.loads(row["doc"])
    before = copy.deepcopy(ret)
    target = to or next_status(ret)
    if target is None or not can_move(ret, target):
        raise CommerceError(409, "invalid_transition",
                            f"A return cannot go from {ret['status']} to {target}.",
                            params={"from": ret["status"], "to": target})
    now = clock.now_iso()
    ret.update(status=target, updatedAt=now)
    if target == "received":
        for item in ret["items"]:
            await catalog_storage.restock(tx, item["itemId"], item.get("variantId", ""),
                                          int(item["quantity"]))

    refund_now = target == "completed" and ret["preferredResolution"] == "refund"
    provider_refund: dict[str, Any] = {}
    if refund_now:
        # The provider refunds first, idempotent per return (see cancellation).
        _, order_doc = await lifecycle.load(tx, ret["orderId"])
        amount = min(money.parse(ret["refundAmount"]["amount"]),
                     refunds.refundable(order_doc))
        if amount > 0:
            provider_refund = await providers.active().refund(
                order_doc, amount, key=f"return/{ret['id']}")

    def change(order: dict[str, Any]) -> None:
        for index, summary in enumerate(order.get("returns", [])):
            if summary["id"] == ret["id"]:
                order["returns"][index] = _summary(ret)
        if refund_now:
            entry = refunds.record(order, money.parse(ret["refundAmount"]["amount"]),
                                   f"Return {ret['id']}", now, returnId=ret["id"],
                                   **provider_refund)
            if entry is not None:
                ret["refund"] = {"id": entry["id"], "amount": entry["amount"]}

    order = await lifecycle.change_order(tx, ret["orderId"], change)
    await storage.save(tx, ret)
    await order_events.return_changed(tx, str(row["owner_id"]), order.get("storeId"), before,
                                      dict(ret))
    return dict(ret)
