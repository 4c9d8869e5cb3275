"""Every tool error turned into a next step in plain language (never a quoted
`Invalid request: /field`), in the shopper's language where the i18n catalog has it."""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language.countries import country_name
from commerce_agent.agent.models.scripted.choices import day
from commerce_agent.agent.models.scripted.messages import say
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
    """What went wrong, in the shopper's terms and language, and what they can do next."""
    result = call.result if isinstance(call.result, dict) else {}
    code = call.code
    language = state.language
    if code == "rejected_by_user":  # the shopper declined the approval: nothing changed
        order_id = call.args.get("orderId")
        return say(language, "not_done", id=order_id) if order_id else say(
            language, "not_done_cart")
    # The Commerce API's own sentence for the error, in the shopper's language when its
    # catalog has it (with the error's parameters), else as the API wrote it.
    message = str(result.get("message", ""))
    if language != "en":  # never the API's English inside a French or Japanese sentence
        message = str(translate(language, f"error.{code}", result.get("params") or {})
                      or translate(language, "error.error", {}) or message)
    item = state.items.get(str(call.args.get("itemId", ""))) or {}
    name = item.get("name") or ("that item" if language == "en" else "…")
    store = state.store_name(state.frame_store(call))
    simple = {
        "authorization_declined": "explain.declined_access",
        "cancelled": "explain.stopped",
        "max_cart_items_exceeded": "explain.too_many_lines",
        "promotion_stacking_not_allowed": "explain.one_code",
        "order_not_completed": "explain.not_completed",
        "order_already_rated": "explain.already_rated",
        "order_already_tipped": "explain.already_tipped",
        "tip_not_allowed": "explain.no_tip",
        "cancellation_window_expired": "explain.too_late_to_cancel",
        "order_already_cancelled": "explain.already_cancelled",
        "return_window_expired": "explain.too_late_to_return",
        "return_not_allowed": "explain.not_returnable",
        "minimum_commitment_not_met": "explain.commitment",
        "subscription_not_found": "explain.no_subscription_there",
        "cart_changed_after_payment": "explain.cart_changed",
        "order_not_found": "explain.order_unknown",
        "payment_failed": "explain.payment_failed",
        "cart_empty": "cart_empty",
    }
    if code == "minimum_commitment_not_met" and (result.get("params") or {}).get(
            "cancellableFrom"):  # the day it becomes possible, before the pause hint
        message += " " + say(language, "cancellable_from", day=day(
            str(result["params"]["cancellableFrom"]), language))
    if code in simple:
        return say(language, simple[code], message=message, store=store)
    if code == "delivery_address_required":
        return f"{say(language, 'where')} {say(language, 'example_address')}"
    if code == "insufficient_stock":
        left = _detail(result, "availableQuantity")
        if left is None:
            return say(language, "explain.not_enough", name=name)
        key = "explain.only_left_one" if left == 1 else "explain.only_left"
        return say(language, key, left=left, name=name)
    # more than a cart line may hold (the tool's schema refuses it): said, never changed to
    # what fits
    most = re.search(r"^/quantity: \d+ is greater than the maximum of (\d+)",
                     str(result.get("message", "")))
    if code == "invalid_arguments" and most:
        return say(language, "explain.at_most", most=most.group(1), name=name)
    if code in ("product_unavailable", "order_items_unavailable"):
        if _detail(result, "reason") == "time_slot_booked":
            return say(language, "slot_taken") + " " + say(language, "which_time")
        return (say(language, "item_sold_out", name=name) if item else
                say(language, "explain.some_sold_out"))
    if code == "minimum_order_value":
        least = _money_in(str(result.get("message", "")))
        return say(language, "minimum_order", store=store, minimum=least or "…")
    if code == "geographic_restriction":  # the country by its name, in the shopper's words
        country = str(_detail(result, "value") or "")
        areas = re.findall(r"\b[A-Z]{2}\b", str(result.get("message", "")).split("delivers to")[-1])
        return " ".join((
            say(language, "does_not_ship_there", store=store,
                country=country_name(country, language) if country else "—"),
            say(language, "delivers_to", areas=", ".join(
                country_name(area, language) for area in areas) or "—"),
            say(language, "where")))
    if code == "bad_request" and "country" in str(result.get("message", "")).lower():
        return " ".join((say(language, "explain.which_country"), say(language, "where"),
                         say(language, "example_address")))
    if code == "promotion_invalid":
        return _promotion(result, state, call)
    if code in ("cart_not_found", "cart_expired", "cart_already_submitted"):
        return say(language, "explain.cart_gone")
    if code in ("item_not_found", "not_found"):
        return say(language, "explain.item_gone")
    if code == "invalid_transition":
        return say(language, "explain.cannot_now",
                   message=f"{message[:1].lower()}{message[1:]}")
    return say(language, "explain.went_wrong")


def _promotion(result: dict[str, Any], state: State, call: Call) -> str:
    code = str(call.args.get("code", "")).upper()
    reason = _detail(result, "reason")
    keys = {"expired": "explain.code_expired", "minimum_subtotal_not_met": "explain.code_minimum",
            "not_started": "explain.code_not_yet"}
    store = state.frame_store(call)
    minimum = _detail(result, "minimumSubtotal")
    if reason == "minimum_subtotal_not_met" and isinstance(minimum, dict):  # with its amount
        amount = f"{minimum.get('amount')} {minimum.get('currency')}"
        return say(state.language, "explain.code_minimum_of", code=code, minimum=amount)
    return say(state.language, keys.get(str(reason), "explain.code_unknown"), code=code,
               store=state.store_name(store))
