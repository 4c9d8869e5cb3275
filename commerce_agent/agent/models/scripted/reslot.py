"""Another time for a booking the shopper turned down: "the 3pm then", "plutôt 15h", "15時で".

The booked line is added again at the new time with its options, the old line is removed, and
the cart is checked out again, which asks for approval again (`offers` tells when a message
names another open time of a line whose order was just turned down).
"""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.models.scripted.acquire import check_out
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.offers import other_slot
from commerce_agent.agent.models.scripted.planner import Decision, Planner

_KEPT = ("variantId", "customizations", "addOnIds")


def reslot(p: Planner) -> Decision:
    state = p.state
    added, removed = state.done("add_to_cart"), state.done("remove_cart_item")
    if removed is not None:
        return check_out(p, state.frame_store(removed))
    if added is not None:
        cart = next((c for c in state.carts.values()
                     if c.get("cartId") == added.args.get("cartId")), {})
        old = next((line for line in cart.get("items", [])
                    if line["itemId"] == added.args.get("itemId")
                    and line.get("timeSlotId") not in (None, added.args.get("timeSlotId"))),
                   None)
        if old is None:
            return check_out(p, state.frame_store(added))
        return p.call("remove_cart_item", cartId=cart["cartId"], cartItemId=old["cartItemId"])
    found = other_slot(state.open_carts(), state.items, p.frame.last, state.now,
                       state.time_zone)
    if found is None:
        return say(p.lang, "help")
    cart, line, slot = found
    args: dict[str, Any] = {"cartId": cart["cartId"], "itemId": line["itemId"],
                            "quantity": line.get("quantity", 1), "timeSlotId": slot.id}
    args.update({key: line[key] for key in _KEPT if line.get(key)})
    return p.call("add_to_cart", **args)
