"""The agent's sentences in the shopper's language.

English is written here, as the source; French and Japanese live in the project's i18n
catalogs (commerce_agent/i18n/catalogs/<locale>.json, keys `agent.<name>`) beside the Commerce
API's error messages, and are filled by the same `translate` (money and numbers written the
locale's way). A sentence a catalog lacks stays English rather than failing.
"""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.i18n.messages import catalog, translate

ENGLISH: dict[str, str] = {
    "help": "I can find products (“find a ceramic mug under $20”), show details, add them to "
            "your cart (“add two to my cart”, “the blue one”), change or remove lines, apply a "
            "code, check out or “buy it now”, book a class or session, start or pause a "
            "subscription, tell you where your order is, cancel it, return it, rate it or tip.",
    "welcome": "You're welcome! Anything else?",
    "acknowledged": "All right. Is there anything else I can do for you?",
    "acknowledged_order": "You're welcome! Your order {id} is placed. Is there anything else "
                          "I can do for you?",
    "declined": "OK, I'll leave it there. What else can I do for you?",
    "no_rush": "No rush: say “yes” when you want it, or ask me anything about it.",
    "found": "I found {count} match(es): {listing}. The best match is {name} at {price}.",
    "found_cheapest": "I found {count} match(es): {listing}. The cheapest is {name} at "
                      "{price}.",
    "found_dearest": "I found {count} match(es): {listing}. The most expensive is {name} at "
                     "{price}.",
    "not_found": "I couldn't find anything matching “{query}”. Try other words?",
    "closest": "The closest I have: {listing}.",
    "suggest_add": "Want me to add it to your cart?",
    "added": "Added {quantity} × {name}{options} to your cart.",
    "cart": "Your cart at {store} holds {lines}: total {total}.",
    "cart_empty_at": "Your cart at {store} is empty.",
    "ready": "Say “check out” when you're ready.",
    "already_in_cart": "{name} is already in your cart. Say “one more” to add another, or "
                       "“check out” when you're ready.",
    "which": "Which one would you like?",
    "which_time": "Which time suits you?",
    "where": "Where should I deliver it?",
    "which_store": "Which store do you mean?",
    "which_order": "Which order do you mean? {orders}",
    "no_order_with": "None of your orders has {what}. Your orders: {orders}",
    "how_many": "How many would you like?",
    "no_pack_size": "{name} isn't sold by weight or volume, so {amount} doesn't say how many.",
    "packs_rounded": "{amount} is not a whole number of {size} packs, so I rounded up to "
                     "{count}.",
    "spend_bought": "{amount} buys {count} × {name} at {price} each ({total}).",
    "spend_too_little": "{name} costs {price}, more than {amount}.",
    "spend_other_currency": "{name} is priced in {currency}, so {amount} doesn't say how many.",
    "none_added": "Zero of {name} is nothing to add, so I've added nothing.",
    "cannot_add_count": "I can't add {count} of {name}.",
    "what": "What would you like me to add?",
    "how_many_stars": "How many stars would you give it, from 1 to 5?",
    "how_much_tip": "How much should the tip be?",
    "comes_in": "{name} comes in: {listing}.",
    "address_fixed": "Order {id} goes to {address}; an order's delivery address can't be "
                     "changed once it is placed.",
    "address_cancel_again": "While it is {status} you can cancel it and order again to the "
                            "right address.",
    "address_at_checkout": "The delivery address is given when you check out (“ship to …” with "
                           "the address), so it can be changed until then.",
    "one_version": "{name} comes in one version only: no colours or sizes to choose.",
    "option_question": "{name}: {group}? {listing}.",
    "example_address": "Give me an address such as “1 Main St, Springfield, US”.",
    "cart_holds": "Your cart holds {lines}.",
    "placed": "Done: order {id} is placed and paid ({lines}, total {total}). Its status is "
              "{status}.",
    "order_status": "Your order {id} ({lines}, total {total}) is {status}.",
    "no_orders": "You have no orders yet.",
    "cancelled": "Order {id} is cancelled: the {total} goes back to your card.",
    "not_done": "OK, I didn't go ahead: order {id} is unchanged.",
    "not_done_cart": "OK, I didn't go ahead. Nothing was charged; your cart is still there.",
    "can_cancel": "Order {id} is {status}, so it can still be cancelled and the {total} "
                  "refunded. Say “cancel order {id}” if you want that.",
    "cancel_policy": "An order can be cancelled while it is {statuses}, before it is prepared "
                     "or shipped; its total is then refunded to your card.",
    "cannot_cancel": "Order {id} is {status}: it can no longer be cancelled. Once it has "
                     "arrived you can return it.",
    "returns": "You can return items within {days} days of delivery or collection, for a "
               "refund to your card. Say “return my order” when you want to.",
    "returns_unknown": "Returns are accepted for delivered or collected orders, within the "
                       "store's return window. Ask me about a specific order for its window.",
    "sub_cancel_anytime": "Your subscription {name} (order {id}) can be cancelled at any time: "
                          "billing stops from then on. Say “cancel my subscription” if you "
                          "want that.",
    "sub_cancel_commitment": "Your subscription {name} (order {id}) can be cancelled after "
                             "{cycles} billing cycles; you can pause it meanwhile.",
    "cancellable_from": "You can cancel it from {day}.",
    "sub_pause": "Yes: your subscription {name} (order {id}) can be paused while it is active, "
                 "and resumed whenever you like; you are not billed while it is paused. Say "
                 "“pause my subscription” if you want that.",
    "sub_resume": "A paused subscription can be resumed at any time; billing starts again from "
                  "the next cycle. Say “resume my subscription” if you want that.",
    "sub_frequency": "Your subscription {name} (order {id}) is billed {frequency}; the store "
                     "offers it at no other frequency, so nothing was changed.",
    "plan_held": "You already have {name} (order {id}); it is {status}, so nothing new was "
                 "started.",
    "no_subscription": "You have no subscription yet. Say “subscribe to …” to start one.",
    "tips": "Tips are for completed deliveries, restaurant orders and sessions. Say “tip 15%” "
            "or “tip 5 dollars” on a completed order.",
    "hours": "{store} is open {hours}; it is at {address}.",
    "open_on_day": "On {day}, {store} is open {min}–{max} (its hours: {hours}); it is at "
                   "{address}.",
    "closed_on_day": "{store} is closed on {day} (its hours: {hours}); it is at {address}.",
    # asked for today or tomorrow: that day's hours only, the week when it is closed then
    "open_today": "Today ({day}), {store} is open {min}–{max}; it is at {address}.",
    "closed_today": "{store} is closed today ({day}); its hours: {hours}. It is at {address}.",
    "open_tomorrow": "Tomorrow ({day}), {store} is open {min}–{max}; it is at {address}.",
    "closed_tomorrow": "{store} is closed tomorrow ({day}); its hours: {hours}. It is at "
                       "{address}.",
    "payment": "{store} accepts {methods}.",
    "contact": "You can reach {store} at: {listing}.",
    "pickup_offered": "Yes: {store} offers {option}, at {address}.",
    "pickup_not_offered": "{store} lists no pickup option: orders are delivered.",
    "not_stated": "Its details don't say more about that.",
    "contact_unknown": "{store} gives no phone number or email here.",
    "currency": "{store} prices everything in {currency}; prices are never converted.",
    "no_free_shipping": "{store} lists no free shipping: each shipping option has the cost "
                        "shown.",
    "weighs": "It weighs {weight}.",
    "measures": "It measures {size}.",
    "payment_unknown": "{store} takes payment by card when you check out.",
    "ships_there": "Yes: {store} delivers to {country}.",
    "delivers_to": "It delivers to {areas}.",
    "which_place": "Which city and ZIP or postcode is “{address}” in?",
    "which_country": "Which country is “{address}” in?",
    "no_pickup": "{store} delivers {lines}; there is no pickup for them.",
    "pickup_only": "{store} doesn't deliver {lines}: you collect them at the store. Say “check "
                   "out” to order them for pickup.",
    "pickup_possible": "Yes: you collect {lines} at {store}. Say “check out” when you're ready.",
    "does_not_ship_there": "Sorry: {store} does not deliver to {country}.",
    "fees": "{store}: delivers to {areas}; minimum order {minimum}.",
    "in_stock": "In stock: {listing}.",
    "sold_out_now": "It's sold out right now.",
    "in_stock_now": "It's in stock.",
    "costs_for": "{quantity} × {name} would come to {total}.",
    "lasts": "It lasts {minutes} minutes.",
    "held_at": "It takes place at {place}.",
    "holds": "It holds {volume}.",
    "trial_days": "It starts with a {days}-day free trial.",
    "no_trial": "Its terms offer no free trial.",
    "left_counts": "Left in stock: {listing}.",
    "count_unknown": "The store doesn't say how many are left.",
    "item_sold_out": "Sorry, {name} is sold out right now. Shall I look for something similar?",
    "no_similar": "I found nothing like {name} in stock right now.",
    "sold_out": "Sorry, {name} is sold out right now.",
    "in_stock_instead": "In stock instead: {listing}. Say “add …” with its name to take one.",
    "ships_to_you": "It's shipped to your address.",
    "digital": "It's delivered digitally: no address needed.",
    "pickup_at": "You collect it at {store}.",
    "hybrid": "It comes in parts: some shipped, some digital.",
    "stores": "The stores here: {names}. Say “shop at …” to pick one.",
    "which_item": "Which item? Ask me to find something first.",
    "several": "I found several: {listing}.",
    "cart_empty": "Your cart is empty: add something first.",
    "quantity_set": "Done: {quantity} × {name} now.",
    "removed": "Removed {name}.",
    "emptied": "Done: your cart is empty now.",
    "code_applied": "Code {code} applied: you save {saved}.",
    "return_started": "Return {id} is {status} for {items}.",
    "refund_will_be": "The refund will be {refund}.",
    "rated": "Thank you! I rated order {id} {stars} out of 5.",
    "tipped": "Done: your tip was added to order {id}. Thank you!",
    "subscription_now": "Your subscription (order {id}) is now {status}.",
    "offers": "{store} offers: {listing}. Say “apply code …” to use one on your cart.",
    "next_charge": "The next charge is on {day}.",
    "resume_hint": "Say “resume my subscription” whenever you want it back.",
    "tracking": "Tracking number: {number}.",
    "shipped_with": "It shipped with {carrier}, tracking number {number}.",
    "not_shipped_yet": "It hasn't shipped yet.",
    "expected_by": "It is expected by {day}.",
    "preorder_ships": "{name} is a pre-order that ships around {day}.",
    "variant_unavailable": "{name} in {wanted} is sold out. It comes in: {listing}.",
    "what_hint": "Name it (“add the glaze mug”), or ask me to find something first: “find a "
                 "ceramic mug under $20”.",
    "sold_out_every_option": "Sorry, {name} is sold out in every option right now.",
    "option_sold_out": "Sorry, {name} in {gone} is sold out. In stock: {listing}.",
    "fully_booked": "Sorry, {name} is fully booked.",
    "no_time_then": "{name} has no free time then. The next free times: {listing}.",
    "next_times": "{name}, the next free times: {listing}.",
    "no_cart_opened": "I couldn't open a cart at that store.",
    "no_orders_to_cancel": "You have no orders to cancel.",
    "no_orders_to_return": "You have no orders to return.",
    "no_orders_to_rate": "You have no orders to rate yet.",
    "no_orders_to_tip": "You have no orders to tip on yet.",
    "tip_hint": "For example “tip 5 dollars” or “tip 15%”.",
    "cheaper_than": "Cheaper than {name}, of the same kind: {listing}.",
    "nothing_cheaper": "{name} is already the least expensive of its kind here.",
    "dearer_than": "Of the same kind, above {name}: {listing}.",
    "nothing_dearer": "{name} is already the most expensive of its kind here.",
    "option_not_offered": "{name} doesn't come in {wanted}.",
    "tip_currency": "Order {id} was paid in {currency}: how much should the tip be in {currency}?",
    "stores_are": "The stores are {names}.",
    "offers_per_store": "Each store has its own offers: {names}.",
    "no_offers": "{store} has no offers right now.",
    "you_have": "You have {quantity} × {name}.",
    "already_empty": "Your cart is already empty.",
    "which_code": "Your cart holds {lines}. What's the code? Type it and I'll apply it before "
                  "you approve the order, or say “no code” to order without one.",
    "code_needs_cart": "Add something to your cart first, then I'll apply {code}.",
    "minimum_order": "{store} has a minimum order of {minimum}; your cart is below it. Add "
                     "something more, then say “check out”.",
    "slot_taken": "That time has just been booked by someone else.",
    "shipping_options": "Shipping: {listing}.",
    "days_range": "{min}–{max} days",
    "return_window": "Returns are accepted within {days} days of delivery.",
    "store_return_window": "{store}: returns within {days} days of delivery or collection.",
    "no_returns": "{store} does not accept returns.",
    "usual_days": "It goes by {option}, which usually takes {min}–{max} days.",
    "charged_shipping": "Order {id} was charged {amount} for shipping ({method}); its total "
                        "is {total}.",
    "charged_no_shipping": "Order {id} has no shipping charge: nothing in it is shipped. Its "
                           "total is {total}.",
    "charged_total": "Order {id} ({lines}) came to {total}.",
    "charged_total_shipping": "That includes {amount} for shipping ({method}).",
    "charged_discount": "Order {id} had {discount} off; its total was {total}.",
    "charged_no_discount": "No discount was applied to order {id}; its total was {total}.",
    "plan_charge": "Your {name} (order {id}) is billed {frequency} at {amount}.",
    "item_ships_digital": "{name} is delivered digitally, so there is no shipping on it.",
    "item_collected_at": "{name} is collected at {place}, so there is no shipping on it.",
    "choose_one": "choose one",
    "optional": "optional",
    "group_options": "{group} ({need}): {listing}.",
    "addons": "Add-ons: {names}.",
    "next_free": "Next free times: {listing}.",
    "preorder": "It's a pre-order: it ships around {day}.",
    "subscription_terms": "It's a subscription billed {frequency}.",
    "subscription_trial": "It's a subscription billed {frequency}, after a {trial}-day free "
                          "trial.",
    "plan_cancel_anytime": "It can be cancelled at any time.",
    "plan_commitment": "It has a minimum commitment of {cycles} billing cycles; it can be "
                       "cancelled after that.",
    "your_time": "Your time: {slot}.",
    "nearest_time": "No session starts at the time you named; the nearest free time: {slot}.",
    "booked_for": "{name} is booked for {slot}.",
    "billed_next": "Your subscription is billed {frequency}; the next charge is on {day}.",
    "every_daily": "daily",
    "every_weekly": "weekly",
    "every_monthly": "monthly",
    "every_quarterly": "quarterly",
    "every_yearly": "yearly",
    "billed_next_trial": "Your subscription is billed {frequency} after a {trial}-day free "
                         "trial; the next charge is on {day}.",
    "collect_at": "Collect it at {store}, {address}.",
    "ordered_already": "That is already ordered: order {id} ({lines}). Say “order another” if "
                       "you want more.",
    "collect_lines_at": "You collect {lines} at {store}, {address}.",
    "downloads": "Digital items are ready to download from the order.",
    "still_in_carts": "You still have {carts}.",
    "cart_count": "{count} item(s) in your cart at {store}",
    "status.pending": "pending",
    "status.confirmed": "confirmed",
    "status.processing": "being prepared",
    "status.shipped": "shipped",
    "status.in_transit": "on its way",
    "status.out_for_delivery": "out for delivery",
    "status.delivered": "delivered",
    "status.ready_for_pickup": "ready for pickup",
    "status.completed": "completed",
    "status.cancelled": "cancelled",
    "status.active": "active",
    "status.paused": "paused",
    "status.requested": "requested",
    "status.approved": "approved",
    "stores_here": "The stores here: {names}. What are you looking for? For example “find a "
                   "ceramic mug under $20”.",
    "now_at": "You're now shopping at {store} ({address}); prices are in {currency}. What are "
              "you looking for?",
    "explain.declined_access": "I can't do that without access to your account: the connection "
                               "was declined. Ask again whenever you want to sign in.",
    "explain.stopped": "Stopped.",
    "explain.too_many_lines": "{message} Check out what you have, or remove a line first.",
    "explain.one_code": "{store} takes only one code per order, and your cart already has one.",
    "explain.not_completed": "That order isn't completed yet: you can rate it once it has been "
                             "delivered or collected.",
    "explain.already_rated": "You've already rated that order. Thank you!",
    "explain.already_tipped": "That order already has a tip. Thank you!",
    "explain.no_tip": "Tips are for completed deliveries, restaurant orders and sessions; this "
                      "order can't take one yet.",
    "explain.too_late_to_cancel": "{message} You can start a return once it arrives.",
    "explain.already_cancelled": "That order is already cancelled, and refunded.",
    "explain.too_late_to_return": "{message} Contact {store} if something is wrong with it.",
    "explain.not_returnable": "{message} You can return it once it has been delivered.",
    "explain.commitment": "{message} You can pause it instead, if you like.",
    "explain.no_subscription_there": "That order has no subscription to change.",
    "explain.cart_changed": "Your cart changed while I was paying, so nothing was ordered and "
                            "nothing more charged. Say “check out” again to order the cart as it "
                            "is now.",
    "explain.order_unknown": "I can't find that order among yours. Say “my orders” to see them.",
    "explain.payment_failed": "The payment didn't go through, so nothing was ordered. Try "
                              "“check out” again in a moment.",
    "explain.only_left_one": "Sorry, only {left} of {name} is left. Ask for {left} or fewer, or "
                             "pick something else.",
    "explain.only_left": "Sorry, only {left} of {name} are left. Ask for {left} or fewer, or "
                         "pick something else.",
    "explain.at_most": "Sorry, I can add at most {most} of {name} to one cart line. Ask for {most} "
                       "or fewer.",
    "explain.not_enough": "There isn't enough of {name} in stock; try a smaller quantity.",
    "explain.some_sold_out": "Some of those items are sold out now; remove them and try again.",
    "explain.no_delivery_there": "{store} doesn't deliver there; it delivers to {areas}.",
    "explain.other_countries": "other countries",
    "explain.which_country": "I couldn't tell which country that address is in.",
    "explain.cart_gone": "That cart is gone (it expired or was ordered). Ask me to add the item "
                         "again.",
    "explain.item_gone": "I can't find that item any more. Ask me to search again?",
    "explain.cannot_now": "That can't be done now: {message}",
    "explain.went_wrong": "Something went wrong on the store's side, so nothing changed. Try "
                          "again, or ask me for something else.",
    "explain.code_expired": "The code {code} has expired. Say “any discounts?” to see the "
                            "current ones.",
    "explain.code_minimum": "The code {code} needs a larger order. Add a little more and apply "
                            "it again, or say “any discounts?”.",
    "explain.code_minimum_of": "The code {code} needs an order of at least {minimum}. Add a "
                               "little more and apply it again, or say “any discounts?”.",
    "explain.code_not_yet": "The code {code} isn't valid yet.",
    "explain.code_unknown": "{code} isn't a code {store} knows. Say “any discounts?” to see the "
                            "codes it offers.",
    "no_items": "no items",
    "promotion_code": "{title}: {description} (code {code})",
    "promotion_terms": "{terms} (code {code})",
    "offer_percent": "{percent}% off your order",
    "offer_percent_min": "{percent}% off orders of {minimum} or more",
    "offer_amount": "{amount} off your order",
    "offer_amount_min": "{amount} off orders of {minimum} or more",
    "code_offered": "{code} is one of the current offers at {store}: {description}. Say "
                    "“apply {code}” when you want it on your cart.",
    "code_not_offered": "{code} isn't among the current offers at {store}, so it may no longer "
                        "be valid. Its offers now: {listing}.",
    "code_not_offered_anywhere": "{code} isn't among any store's current offers, so it may no "
                                 "longer be valid. Say “any discounts?” to see them.",
    "the_store": "the store",
}
# Sentences that leave the request open: the next message answers them.
QUESTION_KEYS = ("which", "which_time", "where", "which_place", "which_country", "which_store",
                 "which_order", "no_order_with", "how_many", "what", "how_many_stars",
                 "how_much_tip", "tip_currency", "which_code")


def say(language: str, key: str, **params: Any) -> str:
    """The sentence `key` in `language` (English when the catalog lacks it)."""
    if language != "en":
        text = translate(language, f"agent.{key}", params)
        if text is not None:
            return text
    return ENGLISH[key].format(**params)


def offer_terms(language: str, entry: dict[str, Any], currency: object) -> str | None:
    """What a store's promotion gives, from its terms, in `language` (« 10 % de réduction dès
    20.00 USD d'achat », 「3000 JPY以上のご注文で10%オフ」); None in English or without terms,
    where the store's own description says it."""
    kind, value = entry.get("type"), entry.get("value")
    if language == "en" or kind not in ("percentage", "fixed_amount") or value is None:
        return None
    minimum = entry.get("minimumSubtotal")
    tail, minimum_text = "", ""
    if isinstance(minimum, dict):
        tail = "_min"
        minimum_text = f"{minimum.get('amount')} {minimum.get('currency', '')}".strip()
    if kind == "percentage":
        return say(language, "offer_percent" + tail, percent=str(value).removesuffix(".00"),
                   minimum=minimum_text)
    return say(language, "offer_amount" + tail, amount=f"{value} {currency}".strip(),
               minimum=minimum_text)


def how_often(language: str, frequency: object) -> str:
    """A plan's billing frequency ("monthly") in `language` (« chaque mois », 「毎月」)."""
    return say(language, f"every_{frequency}") if f"every_{frequency}" in ENGLISH else str(
        frequency)


def catalog_text(language: str, key: str, **params: Any) -> str:
    """A shared catalog message (not an agent.* one) in `language`, else in English."""
    return str(translate(language, key, params) or translate("en", key, params) or key)


def status(language: str, value: Any) -> str:
    key = f"status.{value}"
    return say(language, key) if key in ENGLISH else str(value)


def store_word(language: str, text: Any) -> str:
    """A word many stores write the same way (a payment method: "Credit Card", "Cash") in
    `language`, from the catalog's `agent.word.<words>`; else as the store wrote it (a brand such
    as "Apple Pay" or "PayPay" has no entry and stays as it is)."""
    written = str(text)
    if language == "en":
        return written
    key = "_".join(re.findall(r"[a-z0-9]+", written.casefold()))
    return str(translate(language, f"agent.word.{key}", {}) or written)


def every_language(key: str) -> list[str]:
    """`key` as each language writes it (for recognising the agent's own questions)."""
    found = [ENGLISH[key]]
    for language in ("fr", "ja"):
        text = catalog(language).get(f"agent.{key}")
        if text:
            found.append(text)
    return found
