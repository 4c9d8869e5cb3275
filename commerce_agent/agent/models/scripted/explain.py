"""Every tool error turned into a next step in plain language (never a quoted
`Invalid request: /field`), in the shopper's language where the i18n catalog has it."""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language.countries import country_name
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.phrasing import EXAMPLE_ADDRESS, WHERE
from commerce_agent.agent.models.scripted.state import Call, State
from commerce_agent.i18n.messages import translate

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
    language = state.language
    if code == "rejected_by_user":  # the shopper declined the approval: nothing changed
        order_id = call.args.get("orderId")
        return say(language, "not_done", id=order_id) if order_id else say(
            language, "not_done_cart")
    if language != "en":
        translated = translate(language, f"error.{code}", {})
        if translated is not None:
            return translated
    item = state.items.get(str(call.args.get("itemId", ""))) or {}
    name = item.get("name", "that item")
    store = state.store_name(state.frame_store(call))
    simple = {
        "authorization_declined": "I can't do that without access to your account: the "
                                  "connection was declined. Ask again whenever you want to "
                                  "sign in.",
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
            return say(language, "slot_taken") + " " + say(language, "which_time")
        return (f"Sorry, {name} is sold out right now. Ask me to find something similar."
                if item else "Some of those items are sold out now; remove them and try again.")
    if code == "minimum_order_value":
        least = _money_in(message)
        return say(language, "minimum_order", store=store, minimum=least or "…")
    if code == "geographic_restriction":  # the country by its name, in the shopper's words
        country = str(_detail(result, "value") or "")
        areas = re.findall(r"\b[A-Z]{2}\b", message.split("delivers to")[-1])
        return " ".join((
            say(language, "does_not_ship_there", store=store,
                country=country_name(country, language) if country else "—"),
            say(language, "delivers_to", areas=", ".join(
                country_name(area, language) for area in areas) or "—"),
            say(language, "where")))
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
