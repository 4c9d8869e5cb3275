"""The dialogue policy: the request being served and the state decide the next tool call or
the reply. A failed tool ends the turn with its plain-language next step."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from commerce_agent.agent.language import conditions, gifting, quantities
from commerce_agent.agent.models.scripted import (
    aftercare,
    aftermath,
    answers,
    browse,
    cart_edits,
    charges,
    compare,
    configured,
    edits,
    in_context,
    line_options,
    offers,
    pickup_place,
    sequence,
    words,
)
from commerce_agent.agent.models.scripted.acquire import acquire, check_out, pickup
from commerce_agent.agent.models.scripted.explain import explain
from commerce_agent.agent.models.scripted.intents import Frame, greeting, understand
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.phrasing import asks, in_store_words, lines
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.reorder import reorder
from commerce_agent.agent.models.scripted.replace import replace_line
from commerce_agent.agent.models.scripted.reslot import reslot
from commerce_agent.agent.models.scripted.several import acquire_items, every_shown
from commerce_agent.agent.models.scripted.similar import similar
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.agent.models.scripted.state import State
from commerce_agent.operations.base import money_text


def _unwrapped(p: Planner) -> Decision | None:
    """"can you gift wrap it?" of a thing whose store offers no wrapping for it (no add-on of
    its says so): said so, and no search for "gift wrap" offers a gift card instead. None
    when the message is not about wrapping, or the thing's add-ons are not known yet."""
    item = p.item(p.state.focus)
    if item is None or not item.get("metadata") or not gifting.about_wrapping(p.frame.last):
        return None
    if line_options.named(item, p.frame.last):
        return None  # it has one: the edit or the add takes it
    return say(p.lang, "option_not_offered", name=item.get("name", ""),
               wanted=gifting.WRAPPING.get(p.lang, gifting.WRAPPING["en"]))


def _other(p: Planner) -> Decision:
    unwrapped = _unwrapped(p)
    if unwrapped is not None:
        return unwrapped
    text = p.frame.last
    folded = words.fold(text)
    if read_act(text).kind != "question" and every_shown(p):
        return acquire_items(p, then_check_out=False)  # "all of them, 12 inch", "the first two"
    asked = configured.serve(p)  # "the speckled mug with a gift box, thanks": that, added
    if asked is not None:
        return asked
    if any(word in folded for word in ("thank", "cheers", "great", "perfect", "merci",
                                       "ありがとう")):
        return say(p.lang, "welcome")
    if words.address(text) and (p.state.open_carts() or p.state.done("place_order")):
        return check_out(p)
    if words.content_words(p.query(text)) and not greeting(folded):
        return browse.search(p)
    return say(p.lang, "help")


def _search(p: Planner) -> Decision:
    """"the cheaper one please" with results in view names no product: it picks the one shown
    by price, asked about (a question) or taken (a request)."""
    if not words.content_words(p.query()) and p.state.shown and p.by_price(p.frame.first):
        if read_act(p.frame.first).kind == "question":
            return browse.details(p)
        return acquire_items(p, then_check_out=False)
    return browse.search(p)


def _yes(p: Planner) -> Decision:
    if words.names_a_thing(p.frame.last):
        # "ok then the pour-over dripper" with nothing on the table: assent to a thing of
        # its own, asked for (into the cart, which moves no money)
        return acquire_items(p, then_check_out=False)
    return say(p.lang, "help")


def _acknowledged(p: Planner) -> Decision:
    """"ok, thanks" after an order or an answer, with nothing offered: answered, and nothing
    done (a bare confirmation never orders or adds again)."""
    after = p.state.outcome
    if after is not None and after.kind == "ordered" and p.state.last_order:
        return say(p.lang, "acknowledged_order", id=p.state.last_order)
    return say(p.lang, "acknowledged")


def _ordered_already(p: Planner) -> Decision:
    """"ok order it" when the thing is in the order just placed, with no cart open: that
    order is named, and nothing is bought twice."""
    order = p.state.orders.get(p.state.last_order or "", {})
    return say(p.lang, "ordered_already", id=p.state.last_order,
               lines=lines(order, p.lang) if order else "")


def _no(p: Planner) -> Decision:
    bound = conditions.price_condition(p.frame.last)
    item = p.item(p.state.focus)
    if bound is not None and bound.max is not None and item is not None:
        # "only if it's under $50" of a $72 teapot: its price, and nothing added
        price = item.get("price") or {}
        limit = money_text({"amount": str(bound.max),
                            "currency": bound.currency or price.get("currency", "")})
        said = say(p.lang, "spend_too_little", name=item.get("name", ""),
                   price=money_text(price), amount=limit)
        return f"{said} {say(p.lang, 'declined')}"
    return say(p.lang, "declined")


def _hedge(p: Planner) -> Decision:
    return say(p.lang, offers.hesitated(p.state.offer))


def _count_change(p: Planner) -> Decision:
    """"one more", "drop one": the cart line changes; "another mug" with no mug in the cart
    is a new line."""
    change = quantities.change(p.frame.last)
    if change is not None and change > 0 and cart_edits.names_no_line(p):
        return acquire_items(p, then_check_out=False)
    if p.state.done("remove_cart_item") or p.state.done("update_cart_item"):
        return cart_edits.set_quantity(p)  # the line changed this turn: said so
    said = quantities.how_many(p.frame.last)
    if change is None and said is not None and said > 0 and quantities.says_a_total(
            p.frame.last) and (
            not p.state.open_carts() or cart_edits.names_no_line(p)):
        # "6 plates altogether" with no plate in the cart: that many, added
        return acquire_items(p, then_check_out=False)
    if change is None and said == 0 and cart_edits.names_no_line(p):
        # "zero espresso cup sets" with none in the cart: the add says nothing is added
        return acquire_items(p, then_check_out=False)
    if change is None and said == 0 and not p.state.open_carts():
        return _no(p)  # "none of those" with nothing in the cart: the offer declined
    return cart_edits.set_quantity(p)


def _discounts(p: Planner) -> Decision:
    """"I have a coupon: FIVEOFF" names one of the store's codes: it is applied; "any
    discounts?" asks, and the store's offers are listed."""
    if read_act(p.frame.last).kind == "question":
        return browse.discounts(p)
    return cart_edits.promotion(p)  # lists the offers when the message names no code


def _switch(p: Planner) -> Decision:
    """"switch to the blue one" changes a cart line; "switch to Lumen Studio" the store;
    "switch to the trattoria and add a tiramisu" gets the item there (the store named is
    where its search looks first)."""
    under_way = p.state.done("add_to_cart") or p.state.done("remove_cart_item")
    if under_way is not None or (p.state.open_carts() and cart_edits.names_an_option_change(p)):
        return cart_edits.set_quantity(p)
    then = _then_getting(p.frame.first)
    if then is not None:
        getting = Planner(replace(p.state, frame=replace(p.frame, intent=then)), p.tools)
        getting.extra = p.extra
        return acquire_items(getting, then_check_out=then == "buy")
    return browse.switch(p)


# Where a message's next clause starts: "switch to X and add Y", « passe à X et ajoute Y ».
_NEXT_CLAUSE = re.compile(r"\s*,?\s*\b(?:and(?: then)?|then|et(?: puis)?|puis|pis)\b\s+|、|。")


def _then_getting(text: str) -> str | None:
    """"add" or "buy" when a clause after the first of the message asks to get something."""
    for clause in _NEXT_CLAUSE.split(text)[1:]:
        kind = understand(clause)[0]
        if kind in ("add", "buy"):
            return kind
    return None


def _status(p: Planner) -> Decision:
    """"Where's my order?"; asked with no order yet ("how many days until it arrives?") it is
    about the store's delivery terms, answered for the store in view."""
    found = aftercare.status(p)
    meant = aftercare.meant(p)
    if isinstance(found, str) and meant.order_id is None and not meant.tied and (
            p.current_store() or p.mentioned_store() or (
                not p.state.orders and words.names_a_thing(p.query()) and
                answers.asks_when_sent(p.frame.first))
    ) and read_act(p.frame.last).kind == "question":
        # "when does the shincha pre-order ship?" with no order: that item's own dates and
        # its store's delivery times
        return answers.store_terms(p)
    return found


# An order placed, named as such ("the total on my order", « ma commande », 「注文」), not a cart.
_PLACED_ORDER = re.compile(r"\b(?:my|the|that|last) (?:\w+ )?order\b|\bma commande\b|注文")


def _cart(p: Planner) -> Decision:
    """What the cart holds; asked of an order with no cart left ("what was the total on my
    order?" once it is placed), the order's own status, total and lines."""
    if not p.state.open_carts() and _PLACED_ORDER.search(words.fold(p.frame.first)) and \
            read_act(p.frame.last).kind == "question":
        return _status(p)
    return cart_edits.view(p)


def _details(p: Planner) -> Decision:
    """Details asked for; said as a request with the item's choices named ("マルゲリータを
    16インチ、オリーブ追加でお願いします"), the item is wanted so."""
    unwrapped = _unwrapped(p)
    if unwrapped is not None:
        return unwrapped
    if read_act(p.frame.last).kind != "question":
        asked = configured.serve(p)
        if asked is not None:
            return asked
    compared = compare.answer(p)  # "what's the difference between the X and the Y?"
    return compared if compared is not None else browse.details(p)


def _code_put_on(p: Planner) -> Decision | None:
    """A word put on the cart that names no product but is the store's code ("put
    pizzafriday on it", "add fiveoff"): the store's codes are read once the search for the
    word found nothing, and the code is applied. None when the word is no such code."""
    carts = p.state.open_carts()
    if not carts:  # (read first: the product words cost more to find)
        return None
    query = p.query()
    searched = p.state.done("search_products", query=query)
    if searched is None or not re.fullmatch(r"[a-z][a-z0-9-]{3,31}", query) or \
            not isinstance(searched.result, dict) or searched.result.get("results"):
        return None
    store = str(carts[0].get("storeId"))
    if store not in p.state.store_info:
        done = p.state.done("get_store", storeId=store)
        return p.call("get_store", storeId=store) if done is None and p.has("get_store") \
            else None
    if query.upper() not in p.state.known_codes():
        return None
    return cart_edits.promotion(p)


# Requests served as one whatever else the message says: purchases and what ends or undoes
# an order, and the answers to a question the agent asked.
_SERVED_WHOLE = ("buy", "book", "subscribe", "checkout", "cancel", "sub_pause", "sub_resume",
                 "sub_cancel", "yes", "no", "hedge", "pickup", "pickup_place", "reslot", "reorder",
                 "context")

HANDLERS: dict[str, Callable[[Planner], Decision]] = {
    "search": _search, "details": _details, "stores": browse.stores,
    "switch": _switch, "discounts": _discounts,
    "add": lambda p: _code_put_on(p) or acquire_items(p, then_check_out=False),
    "buy": lambda p: acquire_items(p, then_check_out=True),
    "book": lambda p: acquire(p, then_check_out=True),
    "subscribe": lambda p: acquire(p, then_check_out=True),
    "checkout": check_out, "pickup": pickup, "pickup_place": pickup_place.answer,
    "quantity": _count_change, "remove": cart_edits.remove,
    "keep": cart_edits.keep_only,
    "replace": replace_line, "reorder": reorder, "reslot": reslot,
    "cart": _cart, "empty": cart_edits.empty, "promotion": cart_edits.promotion,
    "status": _status, "payment": answers.policy, "cancel": aftercare.cancel,
    "return": aftercare.start_return,
    "rate": aftercare.rate, "policy": answers.policy, "tip": aftercare.tip,
    "sub_pause": aftercare.subscription,
    "sub_resume": aftercare.subscription, "sub_cancel": aftercare.subscription,
    "similar": similar, "context": in_context.answer,
    "yes": _yes, aftermath.ACKNOWLEDGE: _acknowledged, "no": _no,
    "ordered_already": _ordered_already,
    "hedge": _hedge, "other": _other,
}


# Cart edits a checkout may follow in one message ("make it 2 then check out").
_EDITS_BEFORE_A_CHECKOUT = ("remove", "quantity", "replace", "switch", "keep")
# The calls a checkout makes, where the edit's calls end.
_CHECKOUT_CALLS = ("apply_promotion", "place_order")


def _edited_then_checked_out(p: Planner, edit: str, checkout: str, kind: str = "") -> Decision:
    """The edit served as a message of only it would be, seeing the calls it made; once it is
    done (and asks nothing), the checkout, on the cart it left."""
    calls = p.state.calls
    paying = Planner(replace(p.state, frame=Frame("checkout", (checkout,))), p.tools)
    end = next((index for index, call in enumerate(calls) if call.name in _CHECKOUT_CALLS),
               len(calls))
    if end < len(calls):  # the checkout is under way: the edit is done (its cart may be gone)
        return check_out(paying)

    editing = Planner(replace(p.state, calls=calls[:end],
                              frame=Frame(kind or understand(edit)[0], (edit,))), p.tools)
    done = edits.serve(editing, HANDLERS) if editing.frame.intent in ("remove", "quantity") \
        else None
    done = done if done is not None else HANDLERS.get(editing.frame.intent, _other)(editing)
    if not isinstance(done, str) or asks(done):
        return done
    paid = check_out(paying)
    return f"{done} {paid}" if isinstance(paid, str) else paid


def _extras_then_paid(state: State, edit: str) -> bool:
    """Whether `edit` names a cart line's extras ("gift wrap it", 「ギフトボックスで」), or
    named them before this turn's order was placed (the cart is gone then)."""
    return state.names_extras(edit) or (state.done("place_order") is not None and any(
        call.name in ("update_cart_item", "add_to_cart") for call in state.calls))


def decide(state: State, tools: dict[str, str]) -> tuple[Decision, Planner]:
    planner = Planner(state, tools)
    last = state.calls[-1] if state.calls else None
    if last is not None and last.is_error and not (
            last.name == "apply_promotion" and planner.frame.intent == "promotion"):
        # (a code refused among several said is explained with the others, which are tried)
        return explain(last, state), planner
    if planner.frame.intent in charges.MAY_ASK and (
            charged := charges.answer(planner)) is not None:
        return charged, planner  # "how much did you charge me for delivery?": the order's own
    known = planner.frame.intent if planner.frame.intent in _EDITS_BEFORE_A_CHECKOUT else ""
    closing = sequence.concluded(planner.frame.first, known) if len(planner.frame.texts) == 1 \
        and planner.frame.intent in (*_EDITS_BEFORE_A_CHECKOUT, "checkout") else None
    # (the dialogue state may read the edit better than its words alone: "wait, add olives
    # to it" changes the line's extras)
    edit_kind = planner.frame.intent if planner.frame.intent in _EDITS_BEFORE_A_CHECKOUT \
        else understand(closing[0])[0] if closing is not None else ""
    if closing is None and planner.frame.intent == "checkout" and len(planner.frame.texts) == 1:
        # "gift wrap it and place the order": a cart line's extras, then the checkout
        extras = sequence.concluded(planner.frame.first, "quantity")
        if extras is not None and _extras_then_paid(state, extras[0]):
            closing, edit_kind = extras, "quantity"
    if closing is not None and edit_kind in _EDITS_BEFORE_A_CHECKOUT and (
            words.content_words(closing[0]) or re.search(r"\d", closing[0]) or
            words.quantity(closing[0]) is not None or _extras_then_paid(state, closing[0])):
        # (an edit names its line or count: "ok, instead", left by a code, is none)
        # "actually remove the mug then pay": the edit, then the checkout
        return _edited_then_checked_out(planner, *closing, edit_kind), planner
    several = edits.serve(planner, HANDLERS) if planner.frame.intent in ("remove", "quantity") \
        else None  # "drop the teapot and make the plates four": each edit by its own words
    if several is None and (planner.frame.intent not in _SERVED_WHOLE or
                            planner.frame.intent in (*sequence.PLAN_ACTS, "cancel")):
        # "5 stars, and add a 15% tip": each request in the order said
        several = sequence.serve(planner, HANDLERS)
    decision = several if several is not None else HANDLERS.get(planner.frame.intent, _other)(
        planner)
    if isinstance(decision, str) and state.asked:
        # The request is served; the question asked inside it is answered after it.
        kind, text = understand(state.asked)
        asking = Planner(state, tools)
        asking.frame = Frame(kind, (text,))
        answer = (browse.item_answer if kind == "details" else HANDLERS.get(kind, _other))(
            asking)
        decision = f"{decision} {answer}" if isinstance(answer, str) else answer
    if isinstance(decision, str) and planner.lang != "en":  # the store's names for options
        decision = in_store_words(decision, state.items.values())
    return decision, planner
