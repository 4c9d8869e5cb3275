"""The agent's words: its fixed questions, how carts and orders read, and every tool error
turned into a next step in plain language (never a quoted `Invalid request: /field`)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from commerce_agent.agent.tools.base import money_text

if TYPE_CHECKING:
    from commerce_agent.agent.models.scripted.state import Call, State

# Questions that leave the request open: the next message answers them.
WHICH = "Which one would you like?"
WHICH_TIME = "Which time suits you?"
WHERE = "Where should I deliver it?"
WHICH_STORE = "Which store do you mean?"
HOW_MANY = "How many would you like?"
WHAT = "What would you like me to add?"
HOW_MANY_STARS = "How many stars would you give it, from 1 to 5?"
HOW_MUCH_TIP = "How much should the tip be?"
QUESTIONS = (WHICH, WHICH_TIME, WHERE, WHICH_STORE, HOW_MANY, WHAT, HOW_MANY_STARS,
             HOW_MUCH_TIP)
SUGGEST_ADD = "Want me to add it to your cart?"
HELP = ("I can find products (“find a ceramic mug under $20”), show details, add them to your "
        "cart (“add two to my cart”, “the blue one”), change or remove lines, apply a code, "
        "check out or “buy it now”, book a class or session, start or pause a subscription, "
        "tell you where your order is, cancel it, return it, rate it or tip.")
EXAMPLE_ADDRESS = "Give me an address such as “1 Main St, Springfield, US”."


_ASKS = re.compile("|".join(re.escape(question) for question in QUESTIONS))


@lru_cache(maxsize=1024)
def asks(content: str) -> bool:
    return _ASKS.search(content) is not None


def suggests_add(content: str) -> bool:
    return content.rstrip().endswith(SUGGEST_ADD)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def lines(container: dict[str, Any]) -> str:
    parts = [f"{line['quantity']} × {line['name']}" for line in container.get("items", [])]
    return ", ".join(parts) if parts else "no items"


def cart_text(cart: dict[str, Any], store: str) -> str:
    if not cart.get("items"):
        return f"Your cart at {store} is empty."
    discount = cart.get("discount") or {}
    saved = f" after {money_text(discount)} off" if str(discount.get("amount", "0")).strip(
        "0.") else ""
    return (f"Your cart at {store} holds {lines(cart)}: total "
            f"{money_text(cart['total'])}{saved}.")


def listing(choices: list[Any]) -> str:
    return "; ".join(f"{n}) {choice.label}" for n, choice in enumerate(choices, 1))


# -- errors ------------------------------------------------------------------------------

def _detail(result: dict[str, Any], key: str) -> Any:
    for detail in result.get("details") or []:
        if isinstance(detail, dict) and key in detail:
            return detail[key]
    return None


def _money_in(message: str) -> str | None:
    match = re.search(r"(\d[\d,]*(?:\.\d+)?) ([A-Z]{3})", message)
    return f"{match.group(1)} {match.group(2)}" if match else None


def explain(call: Call, state: State) -> str:
    """What went wrong, in the shopper's terms, and what they can do next."""
    result = call.result if isinstance(call.result, dict) else {}
    code, message = call.code, str(result.get("message", ""))
    item = state.items.get(str(call.args.get("itemId", ""))) or {}
    name = item.get("name", "that item")
    store = state.store_name(state.frame_store(call))
    simple = {
        "authorization_declined": "I can't do that without access to your account: the "
                                  "connection was declined. Ask again whenever you want to "
                                  "sign in.",
        "rejected_by_user": "OK, I didn't go ahead. Nothing was charged; your cart is still "
                            "there.",
        "cancelled": "Stopped.",
        "cart_empty": "Your cart is empty: add something first.",
        "max_cart_items_exceeded": f"{message} Check out what you have, or remove a line first.",
        "promotion_stacking_not_allowed": f"{store} takes only one code per order, and your cart "
                                          "already has one.",
        "order_not_completed": "That order isn't completed yet: you can rate it once it has "
                               "been delivered or collected.",
        "order_already_rated": "You've already rated that order. Thank you!",
        "order_already_tipped": "That order already has a tip. Thank you!",
        "tip_not_allowed": "Tips are for completed deliveries, restaurant orders and sessions; "
                           "this order can't take one yet.",
        "cancellation_window_expired": f"{message} You can start a return once it arrives.",
        "order_already_cancelled": "That order is already cancelled, and refunded.",
        "return_window_expired": f"{message} Contact {store} if something is wrong with it.",
        "return_not_allowed": f"{message} You can return it once it has been delivered.",
        "minimum_commitment_not_met": f"{message} You can pause it instead, if you like.",
        "subscription_not_found": "That order has no subscription to change.",
        "cart_changed_after_payment": "Your cart changed while I was paying, so nothing was "
                                      "ordered and nothing more charged. Say “check out” "
                                      "again to order the cart as it is now.",
        "order_not_found": "I can't find that order among yours. Say “my orders” to see "
                           "them.",
        "payment_failed": "The payment didn't go through, so nothing was ordered. Try "
                          "“check out” again in a moment.",
        "delivery_address_required": f"{WHERE} {EXAMPLE_ADDRESS}",
    }
    if code in simple:
        return simple[code]
    if code == "insufficient_stock":
        left = _detail(result, "availableQuantity")
        return (f"Sorry, only {left} of {name} {'is' if left == 1 else 'are'} left. Ask for "
                f"{left} or fewer, or pick something else." if left is not None else
                f"There isn't enough of {name} in stock; try a smaller quantity.")
    if code in ("product_unavailable", "order_items_unavailable"):
        if _detail(result, "reason") == "time_slot_booked":
            return f"That time has just been booked by someone else. {WHICH_TIME}"
        return (f"Sorry, {name} is sold out right now. Ask me to find something similar."
                if item else "Some of those items are sold out now; remove them and try again.")
    if code == "minimum_order_value":
        least = _money_in(message)
        return (f"{store} has a minimum order of {least or 'a set amount'}; your cart is "
                f"below it. Add something more, then say “check out”.")
    if code == "geographic_restriction":
        areas = ", ".join(re.findall(r"\b[A-Z]{2}\b", message.split("delivers to")[-1]))
        return (f"{store} doesn't deliver there; it delivers to {areas or 'other countries'}. "
                f"{WHERE} {EXAMPLE_ADDRESS}")
    if code == "bad_request" and "country" in message.lower():
        return f"I couldn't tell which country that address is in. {WHERE} {EXAMPLE_ADDRESS}"
    if code == "promotion_invalid":
        return _promotion(result, state, call)
    if code in ("cart_not_found", "cart_expired", "cart_already_submitted"):
        return "That cart is gone (it expired or was ordered). Ask me to add the item again."
    if code in ("item_not_found", "not_found"):
        return "I can't find that item any more. Ask me to search again?"
    if code == "invalid_transition":
        return f"That can't be done now: {message[:1].lower()}{message[1:]}"
    return ("Something went wrong on the store's side, so nothing changed. Try again, or ask "
            "me for something else.")


def _promotion(result: dict[str, Any], state: State, call: Call) -> str:
    code = str(call.args.get("code", "")).upper()
    reason = _detail(result, "reason")
    if reason == "expired":
        return f"The code {code} has expired. Say “any discounts?” to see the current ones."
    if reason == "minimum_subtotal_not_met":
        return (f"The code {code} needs a larger order. Add a little more and apply it again, "
                "or say “any discounts?”.")
    if reason == "not_started":
        return f"The code {code} isn't valid yet."
    return (f"{code} isn't a code {state.store_name(state.frame_store(call))} knows. Say "
            "“any discounts?” to see the codes it offers.")
