"""Ordering again what was ordered before: "same again", "reorder my last order", "la même
chose", "同じものをもう一度".

The order meant is found as any after-sale request finds it (by id, item or store named, else
the most recent); its lines go into that store's cart with their variants, options and
add-ons, then the cart is checked out, which parks for the shopper's approval like any
order. Booked time slots are not ordered again (a slot is one time): those lines are left out.
"""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.models.scripted import again
from commerce_agent.agent.models.scripted.acquire import check_out
from commerce_agent.agent.models.scripted.aftercare import Chosen, the_order
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.planner import Decision, Planner

_LINE_OPTIONS = ("variantId", "customizations", "addOnIds")


def reorder(p: Planner) -> Decision:
    state = p.state
    if again.repeats_the_last_add(p):  # "add 2 arancini", "same again": two more
        return again.add_again(p)
    if state.done("place_order") is not None:
        return check_out(p)  # the new order's reply
    if not isinstance(chosen := the_order(p, "no_orders"), Chosen):
        return chosen
    order_id = chosen.order_id
    if state.done("get_order", orderId=order_id) is None and not (
            state.orders.get(order_id) or {}).get("items"):
        return p.call("get_order", orderId=order_id)
    order = state.orders.get(order_id) or {}
    store = str(order.get("storeId", ""))
    wanted = [line for line in order.get("items", []) if not line.get("timeSlotId")]
    if not store or not wanted:
        return say(p.lang, "no_orders")
    cart = state.cart_for(store)
    if cart is None:
        if state.done("create_cart", storeId=store) is None:
            return p.call("create_cart", storeId=store)
        return say(p.lang, "no_cart_opened")
    added = [call for call in state.calls if call.name == "add_to_cart"]
    if len(added) < len(wanted):
        return p.call("add_to_cart", **_add_args(cart["cartId"], wanted[len(added)]))
    return check_out(p, store)


def _add_args(cart_id: str, line: dict[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"cartId": cart_id, "itemId": line["itemId"],
                            "quantity": int(line.get("quantity", 1))}
    args.update({key: line[key] for key in _LINE_OPTIONS if line.get(key)})
    return args
