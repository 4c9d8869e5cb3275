"""After the order: where it is, cancel, return, rate, tip, and subscriptions."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from commerce_agent.agent.language import portions, return_terms
from commerce_agent.agent.language.tips import read_tip
from commerce_agent.agent.models.scripted import choices, plan_verbs, which_order, words
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.messages import status as status_word
from commerce_agent.agent.models.scripted.naming import name_score
from commerce_agent.agent.models.scripted.phrasing import (
    lines,
)
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.state import alias_score, said_words
from commerce_agent.commerce.capability_ids import PRODUCT_CATEGORIES
from commerce_agent.commerce.orders import model
from commerce_agent.commerce.orders.model import CANCELLED, COMPLETED
from commerce_agent.operations.base import money_text

_REASON = "Requested by the customer"
# Words about orders that name no item ("注文", "commande").
_ORDER_WORDS = frozenset({"注文", "キャンセル", "返品", "状況", "commande", "order"})
# The order itself named, or its id: "cancel the order" is the order's, not only its plan's.
_NAMES_THE_ORDER = re.compile(r"\b(?:orders?|commandes?)\b|注文|\bord_")


def _orders(p: Planner, wanted: str | None) -> list[dict[str, Any]]:
    """The shopper's orders (of that kind), oldest first: by creation time where known,
    else in the order the conversation met them."""
    orders = sorted(p.state.orders.values(), key=lambda order: str(order.get("createdAt", "")))
    if wanted == "subscription":
        orders = [order for order in orders if order.get("subscription")]
    return orders


# A shop named by what it sells, in one word ("the bookshop", "the teahouse", "bookstore"):
# the kind of goods is what names its orders, as "the book shop" would.
# Read in the words as said: folding first would make « thé » "the", a word the query drops.
_SHOP_COMPOUND = re.compile(r"\b([a-z]{3,}?)(?:shop|store|house)s?\b", re.IGNORECASE)


def _asked(p: Planner, text: str) -> frozenset[str]:
    text = _SHOP_COMPOUND.sub(r"\1 shop", text)
    return said_words(p.query(text)) - _ORDER_WORDS - which_order.POSITION_WORDS


def _line_fit(p: Planner, line: dict[str, Any], asked: frozenset[str],
              own: frozenset[str] = frozenset(), among_plans: bool = False) -> int:
    """How well the words name an order line: its name, the shopper's own words for its item
    (as a search reads them, or as said: `own`), then (counting half) the item's categories
    (among plans only, not the category every plan has)."""
    aliases = p.state.aliases.get(str(line.get("itemId")), frozenset())
    return 2 * (name_score(line, asked) + alias_score(aliases, asked | own)) + len(
        asked & _kinds(p.item(line.get("itemId")), among_plans))


def _fits(p: Planner, among_plans: bool = False) -> Callable[[dict[str, Any], str], int]:
    def fits(order: dict[str, Any], text: str) -> int:
        asked = _asked(p, text)
        # « les tasses » of a set of « tasses à expresso » bought as such: the shopper's own
        # word for that line, though a search reads a cup as a mug
        own = said_words(words.fold(text)) - _ORDER_WORDS - which_order.POSITION_WORDS
        if not asked:
            return 0
        lines = max((_line_fit(p, line, asked, own, among_plans)
                     for line in order.get("items", [])), default=0)
        store = words.content_words(p.state.store_name(order.get("storeId")))
        return lines + len((asked - _SHOP_NOUNS) & (store | _described(p, order.get("storeId"))))
    return fits


# Words that say "a shop" and name none of them ("the order from the shop").
_SHOP_NOUNS = frozenset({"shop", "store", "place", "boutique", "magasin", "outlet", "seller",
                         "vendor", "merchant", "店", "お店", "ショップ"})


def _described(p: Planner, store_id: Any) -> frozenset[str]:
    """The words of a store's own description, once the stores are listed: "the pottery
    place", "the Italian one", "the Berlin shop", "my ebook subscription" name its orders."""
    listed = next((store for store in p.state.stores or []
                   if store.get("storeId") == store_id), None)
    if listed is None:
        return frozenset()
    return words.content_words(str(listed.get("description", "")))


def _kinds(item: dict[str, Any] | None, among_plans: bool = False) -> frozenset[str]:
    """The words of an item's categories ("Tea", "Green Tea"): "where's my tea?" names the
    gyokuro order, a little less surely than its own name would. Among plans, the category
    every plan has is left out."""
    if item is None:
        return frozenset()
    return frozenset().union(*(words.content_words(str(kind.get("name", ""))) for kind in
                               choices.meta(item, PRODUCT_CATEGORIES).get("items", [])
                               if not among_plans or not _PLAN_KIND.fullmatch(
                                   words.fold(str(kind.get("name", ""))))))


# A plan's category ("Subscriptions", "Memberships") is what every plan is: "cancel my
# subscription" names none of two plans by it (the most recent is meant, as with any order
# nothing names), while a plan's own name still does ("my membership", "the Folio plan").
_PLAN_KIND = re.compile(rf"{plan_verbs.PLAN}s?")


def meant(p: Planner, wanted: str | None = None) -> which_order.Meant:
    """The order the person means (see `which_order`), or the orders that fit equally."""
    orders = _orders(p, wanted)
    # Today's date only places "yesterday's order"; the choice is still one of the orders
    # the conversation read, so a replayed step differs only across midnight.
    found = which_order.resolve(orders, p.frame.texts, _fits(p, wanted == "subscription"),
                                p.state.order_in_view,
                                datetime.now(UTC).date())
    if found.order_id is None and not found.tied and wanted != "subscription":
        return which_order.Meant(p.state.last_order)
    return found


def order_meant(p: Planner, wanted: str | None = None) -> str | None:
    return meant(p, wanted).order_id


def need_orders(p: Planner, wanted: str | None = None) -> Decision | None:
    """The reads the choice needs first: every order when the conversation knows none (of
    that kind) or the words place the order among all of them ("my first order", an id's
    tail); a search in the shopper's language when their words for an item ("les
    assiettes", 「ティーポット」) name no order's line as written."""
    state = p.state
    if state.done("list_orders") is None and (
            meant(p, wanted).order_id is None
            or which_order.wants_orders_listed(p.frame.texts, _orders(p, wanted))):
        return p.call("list_orders")
    return _search_words(p, wanted) or _store_words(p, wanted)


def _store_words(p: Planner, wanted: str | None) -> Decision | None:
    """The stores, listed once with their descriptions, when the shopper's words still name
    none of their orders and those orders come from more than one store: the words may
    describe a store ("the pottery place", « la boutique de Tokyo »)."""
    if p.state.stores is not None or not p.has("list_stores") or \
            p.state.done("list_stores") is not None:
        return None
    if len({order.get("storeId") for order in _orders(p, wanted)}) < 2:
        return None
    return p.call("list_stores") if _unmatched(p, wanted) is not None else None


def _search_words(p: Planner, wanted: str | None) -> Decision | None:
    """Order lines are named as written; a search for words no order's line carries ties the
    shopper's word to an item (`State.aliases`: « les assiettes », 「ティーポット」), which then
    names its order, or shows the words name a thing none of their orders holds."""
    if wanted == "subscription" or not p.has("search_products") or p.state.done(
            "search_products") is not None:
        return None
    if (text := _unmatched(p, wanted)) is not None:
        return p.call("search_products", query=p.query(text), limit=8, availableOnly=False)
    return None


def _unmatched(p: Planner, wanted: str | None) -> str | None:
    """The latest message's product words, when they fit none of the orders, unless a message
    places the order otherwise (an id, a position, a day, an amount)."""
    orders, fits = _orders(p, wanted), _fits(p, wanted == "subscription")
    for text in reversed(p.frame.texts):
        if which_order.placed(which_order.cues(text)):
            return None
        asked, _ = which_order.spared(text)
        if _asked(p, asked):  # the latest words about items decide
            return asked if orders and all(fits(order, asked) == 0 for order in orders) else None
    return None


def _named_nothing(p: Planner, wanted: str | None) -> str | None:
    """The shopper's words, when a search shows they name a product and still no order of
    theirs holds it ("cancel my teapot order" with no teapot ordered): said plainly, never
    taken for the most recent order."""
    searched = p.state.done("search_products")
    text = _unmatched(p, wanted)
    if searched is None or text is None:
        return None
    asked = said_words(str(searched.args.get("query", "")))
    found = searched.result.get("results", []) if isinstance(searched.result, dict) else []
    if any(alias_score(said_words(str(item.get("name", ""))), asked) for item in found):
        return " ".join(text.split())
    return None


def which(p: Planner, found: which_order.Meant) -> str:
    """Asks which of the orders that fit equally is meant, listing them."""
    listing = "; ".join(
        f"{index}) {order_id} ({lines(_order(p, order_id), p.lang)}, "
        f"{p.state.store_name(_order(p, order_id).get('storeId'))})"
        for index, order_id in enumerate(found.tied, start=1))
    return say(p.lang, "which_order", orders=listing)


def _order(p: Planner, order_id: str) -> dict[str, Any]:
    return p.state.orders.get(order_id) or {"orderId": order_id}


@dataclass(frozen=True, slots=True)
class Chosen:
    """The order an after-sale request is about, once nothing needs doing first."""

    order_id: str


def the_order(p: Planner, none_key: str, wanted: str | None = None) -> Chosen | Decision:
    """The order meant, or what comes first: the reads the choice needs, the question when
    orders fit equally, the reply `none_key` when there is no order (of that kind)."""
    if (step := need_orders(p, wanted)) is not None:
        return step
    if (missing := _named_nothing(p, wanted)) is not None:
        listing = "; ".join(f"{order['orderId']} ({lines(order, p.lang)})"
                            for order in reversed(_orders(p, wanted)))
        return say(p.lang, "no_order_with", what=p.query(missing) or missing, orders=listing)
    found = meant(p, wanted)
    if found.tied:
        return which(p, found)
    if found.order_id is None:
        return say(p.lang, none_key)
    return Chosen(found.order_id)


def status(p: Planner) -> Decision:
    if not isinstance(chosen := the_order(p, "no_orders"), Chosen):
        return chosen
    order_id = chosen.order_id
    if p.state.done("get_order", orderId=order_id) is None:
        return p.call("get_order", orderId=order_id)
    order = _order(p, order_id)
    store = str(order.get("storeId"))
    if _shipping_method(order) and store not in \
            p.state.store_info and p.state.done("get_store", storeId=store) is None and \
            _ASKS_WHEN.search(words.fold(p.frame.last)):
        return p.call("get_store", storeId=store)  # the days its shipping option takes
    text = [say(p.lang, "order_status", id=order_id, lines=lines(order, p.lang),
                total=money_text(order.get("total")),
                status=status_word(p.lang, order.get("status")))]
    text.extend(_where_it_is(p, order))
    for line in order.get("items", []):
        item = p.item(line.get("itemId")) or {}
        preorder = choices.meta(item, model.PREORDER)
        if preorder and order.get("status") not in (COMPLETED, CANCELLED):
            ships = preorder.get("estimatedShipDate") or preorder.get("releaseDate")
            text.append(say(p.lang, "preorder_ships", name=item["name"],
                            day=choices.day(str(ships), p.lang)))
    return " ".join(text)


# A question about shipping ("has it shipped?", "est-elle partie ?", "発送されましたか"), not
# about the order in general: answered yes or no first.
_ASKS_SHIPPED = re.compile(r"\b(?:ship\w*|dispatch\w*|sent|posted|go(?:ne)? out|went out|"
                           r"left|parti\w*|expedi\w*|envoy\w*)\b|発送|出荷")
_NOT_YET_SHIPPED = frozenset({"pending", "confirmed", "processing"})


def _where_it_is(p: Planner, order: dict[str, Any]) -> list[str]:
    """What the order's fulfillment says of where the goods are: not shipped yet (when
    asked), the carrier and tracking number once shipped, the estimated arrival."""
    found = []
    status_now = str(order.get("status", ""))
    if status_now in _NOT_YET_SHIPPED and _ASKS_SHIPPED.search(words.fold(p.frame.last)) and \
            (order.get("deliveryAddress") or any(line.get("fulfillmentType") in (
                "physical", "hybrid") for line in order.get("items", []))):
        found.append(say(p.lang, "not_shipped_yet"))
    for shipment in order.get("shipments", []):
        if shipment.get("trackingNumber"):
            found.append(say(p.lang, "shipped_with", carrier=shipment.get("carrier", ""),
                             number=shipment["trackingNumber"]))
    eta = order.get("estimatedCompletionAt")
    if eta and status_now not in (COMPLETED, CANCELLED):
        found.append(say(p.lang, "expected_by", day=choices.day(str(eta), p.lang)))
    elif status_now in _NOT_YET_SHIPPED and _ASKS_WHEN.search(words.fold(p.frame.last)):
        found.extend(_usual_days(p, order))
    return found


# Asking when the goods come ("when will it arrive?", « quand … ? », 「いつ届きますか」).
_ASKS_WHEN = re.compile(r"\b(?:when|how (?:long|soon)|quand|combien de temps)\b|いつ|何日")


def _shipping_method(order: dict[str, Any]) -> str | None:
    """The id of the shipping option the order goes by, if it ships."""
    chosen = (order.get("shippingMethod") or {}).get("id") or (
        order.get("fulfillment") or {}).get("shippingMethodId")
    return str(chosen) if chosen else None


def _usual_days(p: Planner, order: dict[str, Any]) -> list[str]:
    """No arrival date yet: the days its shipping option usually takes, from the store's own
    terms (read once the store is known)."""
    method = _shipping_method(order)
    info = p.state.store_info.get(str(order.get("storeId")), {})
    option = next((o for o in info.get("shippingOptions") or [] if o.get("id") == method), None)
    if option is None or not option.get("maxDays"):
        return []
    return [say(p.lang, "usual_days", option=option.get("name"), min=option.get("minDays"),
                max=option["maxDays"])]


# Every order meant at once: "cancel both orders", "cancel all my orders", « annulez les
# deux », « toutes mes commandes », 「両方キャンセル」「注文を全部キャンセル」.
_EVERY_ORDER = re.compile(
    r"\bboth(?: of (?:them|my orders|the orders)| (?:my )?orders)?\s*(?:[.!?,]|$|please|pls)|"
    r"\bboth (?:of (?:my |the )?)?orders\b|\ball (?:of )?(?:my |the )?(?:orders|purchases)\b|"
    r"\bevery order\b|\b(?:les deux|toutes les deux)(?: commandes)?\s*(?:[.!?,]|$|svp|stp|"
    r"s'il)|\btoutes? (?:mes|les) commandes\b|"
    r"両方(?:の注文|とも|を|キャンセル)|全部の注文|すべての注文|全ての注文|注文を(?:全部|すべて|全て)")


def _every_order(p: Planner) -> list[str] | None:
    """The orders "both" or "all my orders" means, once said: those the words name, if two
    or more, else every one still open; None when fewer than two are."""
    orders = [order for order in _orders(p, None) if order.get("status") not in (
        CANCELLED, COMPLETED) or p.state.done("cancel_order", orderId=order["orderId"])]
    fits = _fits(p)
    named = [order for order in orders if any(fits(order, text) for text in p.frame.texts)]
    chosen = named if len(named) >= 2 else orders
    return [str(order["orderId"]) for order in chosen] if len(chosen) >= 2 else None


def _cancel_every(p: Planner) -> Decision | None:
    """Several orders called off in one request, each with its own approval."""
    if not any(_EVERY_ORDER.search(words.fold(text)) for text in p.frame.texts):
        return None
    if (step := need_orders(p)) is not None:
        return step
    targets = _every_order(p)
    if targets is None:
        return None
    for order_id in targets:
        if p.state.done("cancel_order", orderId=order_id) is None:
            return p.call("cancel_order", orderId=order_id, reason=_REASON)
    return " ".join(_cancelled_text(p, order_id) for order_id in targets)


def _cancelled_text(p: Planner, order_id: str) -> str:
    order = _order(p, order_id)
    if order.get("status") != CANCELLED:  # say only what the tool result shows
        return say(p.lang, "order_status", id=order_id, lines=lines(order, p.lang),
                   total=money_text(order.get("total")),
                   status=status_word(p.lang, order.get("status")))
    return say(p.lang, "cancelled", id=order_id, total=money_text(order.get("total")))


def cancel(p: Planner) -> Decision:
    if (several := _cancel_every(p)) is not None:
        return several
    if not isinstance(chosen := the_order(p, "no_orders_to_cancel"), Chosen):
        return chosen
    order_id = chosen.order_id
    if p.state.done("cancel_order") is None and (p.state.done("change_subscription") or (
            _a_running_plan(_order(p, order_id)) and not any(
                _NAMES_THE_ORDER.search(words.fold(text)) for text in p.frame.texts))):
        # "cancel it" about a plan ends the plan (its billing stops), as a shop assistant
        # hears it; "cancel the order" still cancels (and refunds) the order
        return _change_plan(p, "cancel", order_id)
    if p.state.done("cancel_order") is None:
        return p.call("cancel_order", orderId=order_id, reason=_REASON)
    return _cancelled_text(p, order_id)


def start_return(p: Planner) -> Decision:
    if not isinstance(chosen := the_order(p, "no_orders_to_return"), Chosen):
        return chosen
    order_id = chosen.order_id
    state = p.state
    if state.done("get_order", orderId=order_id) is None:
        return p.call("get_order", orderId=order_id)
    done = state.done("start_return")
    if done is None:
        order = _order(p, order_id)
        asked = frozenset().union(*(_asked(p, text) for text in p.frame.texts))
        scored = [(_line_fit(p, line, asked), line) for line in order.get("items", [])]
        best = max((score for score, _ in scored), default=0)
        # "return the mug" of an order with plates too: that line; nothing named, the order
        named = [line for score, line in scored if best and score == best]
        args: dict[str, Any] = {"orderId": order_id, "reason": _REASON, **_return_terms(p)}
        if named:
            args["items"] = [{"cartItemId": line["cartItemId"],
                              "quantity": _returned(p, line)} for line in named]
        return p.call("start_return", **args)
    ret = p.state.as_read(done.result)  # « Mug émail édition limitée » in a French reply
    what = ", ".join(f"{item['quantity']} × {item['name']}" for item in ret.get("items", []))
    # an exchange or store credit refunds nothing: only a refund's amount is said
    refund = ret.get("refundAmount") if ret.get("preferredResolution", "refund") == "refund" \
        else None
    text = say(p.lang, "return_started", id=ret["returnId"], items=what,
               status=status_word(p.lang, ret["status"]))
    return f"{text} {say(p.lang, 'refund_will_be', refund=money_text(refund))}" if refund else text


def _return_terms(p: Planner) -> dict[str, str]:
    """How the return is settled and the goods go back, where the shopper said so (the latest
    message that says wins); the store's defaults otherwise."""
    terms: dict[str, str] = {}
    for text in p.frame.texts:
        if (settled := return_terms.resolution(text)) is not None:
            terms["preferredResolution"] = settled
        if (way := return_terms.method(text)) is not None:
            terms["returnMethod"] = way
    return terms


def _returned(p: Planner, line: dict[str, Any]) -> int:
    """How many of an order line go back: the count said beside its own name when the message
    names several things ("one mug and two plates"); else a part of it said as one ("one of
    the plates", "all but one", « un seul des mugs »), from the latest message that says;
    else the count said; else the whole line."""
    bought = int(line["quantity"])
    for text in reversed(p.frame.texts):
        if (own := _count_beside(p, line, text)) is not None:
            return min(own, bought)
        if (part := portions.taken(text, bought)) is not None:
            return part
    return min(p.frame.quantity() or bought, bought)


# One of a thing said with its article ("the mug and two plates": the mug is its line, whole;
# "a mug and two plates", « un mug et deux assiettes »: one).
_ONE_SAID = re.compile(r"\b(?:one|an?|un|une|single)\b")


def _count_beside(p: Planner, line: dict[str, Any], text: str) -> int | None:
    """The count said with this line's name among several things named, or None."""
    mentions = words.item_mentions(text)
    if len(mentions) < 2:
        return None
    bought = int(line["quantity"])
    for head, whole in mentions:
        if _line_fit(p, line, _asked(p, head)) > 0:
            part = portions.taken(whole, bought) or words.quantity(whole)
            if part is None and _ONE_SAID.search(words.fold(whole)):
                part = 1
            return part if part is not None and part > 0 else bought
    return None


def rate(p: Planner) -> Decision:
    stars = next((found for found in map(words.stars, reversed(p.frame.texts)) if found), None)
    if stars is None:
        return say(p.lang, "how_many_stars")
    if not isinstance(chosen := the_order(p, "no_orders_to_rate"), Chosen):
        return chosen
    order_id = chosen.order_id
    if p.state.done("rate_order") is None:
        return p.call("rate_order", orderId=order_id, overall=stars)
    return say(p.lang, "rated", id=order_id, stars=stars)


def tip(p: Planner) -> Decision:
    said = next((found for found in (read_tip(text, p.lang) for text in reversed(p.frame.texts))
                 if found), None)
    if said is None:
        return say(p.lang, "how_much_tip") + " " + say(p.lang, "tip_hint")
    if not isinstance(chosen := the_order(p, "no_orders_to_tip"), Chosen):
        return chosen
    order_id = chosen.order_id
    if p.state.done("tip_order") is None:
        if said.percentage is not None:
            return p.call("tip_order", orderId=order_id, percentage=float(said.percentage))
        currency = (_order(p, order_id).get("total") or {}).get("currency", "USD")
        if said.currency not in (None, currency):
            # "two euros" on an order paid in dollars: asked again in its money, never
            # converted at a rate the shopper did not see
            return say(p.lang, "tip_currency", id=order_id, currency=currency)
        return p.call("tip_order", orderId=order_id,
                      amount={"amount": str(said.amount), "currency": currency})
    return say(p.lang, "tipped", id=order_id)


_ACTIONS = {"sub_pause": ("pause", "paused"), "sub_resume": ("resume", "active"),
            "sub_cancel": ("cancel", "cancelled")}


def _a_running_plan(order: dict[str, Any]) -> bool:
    return (order.get("subscription") or {}).get("status") in ("active", "paused")


# Deliveries stopped ("stop sending me the tea", "stop send me tea"): a plan's when the
# shopper holds one, else the order of that thing, called off as any order is.
_STOPS_DELIVERIES = re.compile(r"\bstop (?:to )?(?:send|ship|deliver|mail|post)\w*")


def subscription(p: Planner) -> Decision:
    action, _ = _ACTIONS[p.frame.intent]
    if action == "cancel" and any(_STOPS_DELIVERIES.search(words.fold(text))
                                  for text in p.frame.texts):
        if (step := need_orders(p, "subscription")) is not None:
            return step
        if not any(_a_running_plan(order) for order in p.state.orders.values()):
            return cancel(p)
    if not isinstance(chosen := the_order(p, "no_subscription", "subscription"), Chosen):
        return chosen
    return _change_plan(p, action, chosen.order_id)


def _change_plan(p: Planner, action: str, order_id: str) -> Decision:
    done = p.state.done("change_subscription")
    if done is None:
        return p.call("change_subscription", orderId=order_id, action=action)
    terms = _order(p, order_id).get("subscription") or {}
    state = terms.get("status", "changed")
    text = say(p.lang, "subscription_now", id=order_id, status=status_word(p.lang, state))
    if state == "active" and terms.get("nextBillingDate"):
        text += " " + say(p.lang, "next_charge",
                          day=choices.day(str(terms["nextBillingDate"]), p.lang))
    if state == "paused":
        text += " " + say(p.lang, "resume_hint")
    return text
