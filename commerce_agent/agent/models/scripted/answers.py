"""Questions about what could be done, answered from the order's and the store's own terms and
never done: "how do I cancel my subscription?", "can I pause it?", "what's your return
policy?", "can I still cancel?". The answer ends by saying what to ask for, should the person
want it done."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from commerce_agent.agent.language.countries import country_name, country_named
from commerce_agent.agent.language.hours import (
    day_asked,
    day_meant,
    day_name,
    days_ahead_meant,
    hours_on,
    opening_hours,
)
from commerce_agent.agent.models.base import CallTool
from commerce_agent.agent.models.scripted import aftercare, browse, choices, naming, topics, words
from commerce_agent.agent.models.scripted.intents import (
    ASKS_WHEN_OPEN,
    CHANGES_ADDRESS,
    COMMITMENT,
    LOCATION,
    MAY_ASK_PICKUP,
    PAY_NAMES,
    PICKUP,
    intent,
)
from commerce_agent.agent.models.scripted.messages import how_often, say, status, store_word
from commerce_agent.agent.models.scripted.pickup_place import address_text
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.commerce.orders import model
from commerce_agent.commerce.orders.model import CANCELLABLE
from commerce_agent.commerce.orders.rules import cancellable_from
from commerce_agent.operations.base import money_text

# Free delivery asked about: said plainly when no shipping option of the store is free.
_FREE = re.compile(r"\bfree (?:shipping|delivery|postage)\b|\b(?:shipping|delivery|postage) "
                   r"(?:is |for )?free\b|\b(?:livraison|port|frais de port) (?:gratuite?s?|"
                   r"offerte?s?)\b|送料無料|無料配送")
# A shipping method that is collecting the order, named in any of the languages stores use.
_COLLECT = re.compile(r"\b(?:pick ?up|collect\w*|click|in[- ]store|counter|retrait)\b|"
                      r"受け?取り?|店頭")


# Cancelling named, and sending back named: "if I cancel, do I get my money back?" asks
# about cancelling, though a refund is named.
_CANCELLING = re.compile(r"\bcancel\w*|\bannul\w*|キャンセル|取り?消")
_SENDING_BACK = re.compile(r"\breturn\w*|\bsend\w* (?:\w+ )?back\b|\bretour\w*|\brenvoy\w*|"
                           r"返品|返送")


def topic_of(text: str) -> str:
    """What a question about the terms is about: an after-sale intent, or the store's fees
    and hours (the default)."""
    topic = intent(text)
    folded = words.fold(text)
    if COMMITMENT.search(folded):
        return "sub_cancel"
    if topic == "return" and _CANCELLING.search(folded) and not _SENDING_BACK.search(folded):
        return "cancel"  # a refund asked about, by cancelling
    return "sub_pause" if topic == "sub_skip" else topic


def policy(p: Planner) -> Decision:
    if CHANGES_ADDRESS.search(words.fold(p.frame.first)):
        return _address(p)  # "is it too late to change the address?"
    topic = topic_of(p.frame.first)
    if topic in ("sub_pause", "sub_resume", "sub_cancel", "sub_frequency"):
        return _subscription(p, topic)
    if topic == "cancel":
        return _cancel(p)
    if topic == "return":
        return _returns(p)
    if topic == "tip":
        return say(p.lang, "tips")
    return store_terms(p)


def _known_order(p: Planner, wanted: str | None = None) -> dict[str, Any] | Decision | None:
    """The order the question is about, fetched in full once (its terms are in the full
    document); None when the person has none."""
    if (step := aftercare.need_orders(p, wanted)) is not None:
        return step
    order_id = aftercare.order_meant(p, wanted)
    if order_id is None:
        return None
    if p.state.done("get_order", orderId=order_id) is None:
        return p.call("get_order", orderId=order_id)
    return p.state.orders.get(order_id) or {"orderId": order_id}


def _address(p: Planner) -> Decision:
    """Whether the delivery address can still be changed: the order's is fixed once placed (no
    tool changes it), and said as it is; before an order, it is given at checkout."""
    order = _known_order(p)
    if order is None:
        return say(p.lang, "address_at_checkout")
    if not isinstance(order, dict):
        return order
    given = (order.get("deliveryAddress") or {}).get("address")
    if not given:  # nothing of it is delivered: nothing to change
        return say(p.lang, "address_at_checkout")
    text = say(p.lang, "address_fixed", id=order["orderId"], address=given)
    if order.get("status") in CANCELLABLE:
        text += " " + say(p.lang, "address_cancel_again", status=status(p.lang, order["status"]))
    return text


def _subscription(p: Planner, topic: str) -> Decision:
    order = _known_order(p, "subscription")
    if order is None and words.names_a_thing(p.query()):  # in any script
        return browse.details(p)  # "does the studio membership have a minimum term?"
    if not isinstance(order, dict):
        return order if order is not None else say(p.lang, "no_subscription")
    terms = order.get("subscription") or {}
    name = next((line.get("name") for line in order.get("items", [])), "")
    if topic == "sub_pause":
        return say(p.lang, "sub_pause", name=name, id=order["orderId"])
    if topic == "sub_resume":
        return say(p.lang, "sub_resume")
    if topic == "sub_frequency":  # no tool changes it: said as it is, never changed
        return say(p.lang, "sub_frequency", name=name, id=order["orderId"],
                   frequency=how_often(p.lang, terms.get("frequency", "monthly")))
    rules = terms.get("cancellationPolicy") or {}
    if rules.get("canCancelAnytime", True):
        return say(p.lang, "sub_cancel_anytime", name=name, id=order["orderId"])
    text = say(p.lang, "sub_cancel_commitment", name=name, id=order["orderId"],
               cycles=rules.get("minimumCommitment", 0))
    first_day = cancellable_from(terms)
    if first_day is not None:  # the day it becomes possible, from the plan's own start
        text += " " + say(p.lang, "cancellable_from",
                          day=choices.day(first_day.date().isoformat(), p.lang))
    return text


def _cancel(p: Planner) -> Decision:
    order = _known_order(p)
    if order is None:  # no order yet: the rule every order follows
        return say(p.lang, "cancel_policy", statuses=", ".join(
            status(p.lang, state) for state in sorted(CANCELLABLE)))
    if not isinstance(order, dict):
        return order
    if order.get("subscription"):  # cancelling a subscription is ending it, by its terms
        return _subscription(p, "sub_cancel")
    state = order.get("status")
    key = "can_cancel" if state in CANCELLABLE else "cannot_cancel"
    return say(p.lang, key, id=order["orderId"], status=status(p.lang, state),
               total=money_text(order.get("total")))


def _returns(p: Planner) -> Decision:
    order = _known_order(p)
    if order is None:  # no order yet: the store's own window, when a store is in view or named
        if p.needs_stores():
            return p.call("list_stores")
        if p.mentioned_store() or p.store_named(p.frame.first) or (
                p.current_store() and not _searched_for_it(p)):
            return store_terms(p)
        item = _item_asked(p)  # "can I send a mug back?": the window of the mug's store
        if isinstance(item, CallTool):
            return item
        return store_terms(p) if item is not None else _every_window(p)
    if not isinstance(order, dict):
        return order
    days = (order.get("fulfillment") or {}).get("returnWindowDays")
    if days:
        return say(p.lang, "returns", days=days)
    return say(p.lang, "returns_unknown")


def _every_window(p: Planner) -> Decision:
    """No order, store or item in view: each store's own return window, read from its terms,
    rather than a rule without its number ("how many days do I have to send it back?")."""
    stores = [str(entry["storeId"]) for entry in p.state.stores or [] if entry.get("storeId")]
    unread = [p.call("get_store", storeId=s) for s in stores
              if s not in p.state.store_info and p.state.done("get_store", storeId=s) is None]
    if unread:
        return unread
    windows = [_window(p, p.state.store_info[s]) for s in stores if s in p.state.store_info]
    return " ".join(text for text in windows if text) or say(p.lang, "returns_unknown")


def _window(p: Planner, info: dict[str, Any]) -> str:
    """A store's return window as a sentence; none when its terms do not say."""
    days = info.get("returnWindowDays")
    if days is None:
        return ""
    if not days:
        return say(p.lang, "no_returns", store=info.get("name"))
    return say(p.lang, "store_return_window", store=info.get("name"), days=days)


def store_terms(p: Planner) -> Decision:
    """Fees, delivery and hours: the store's minimum order, where it delivers, when it opens
    and where it is."""
    if p.needs_stores():
        return p.call("list_stores")
    # A store named outright, else the one in view, else the one the words describe.
    store = p.mentioned_store()
    named = p.store_named(p.frame.first) if store is None else None
    if named is not None:  # unless its words are part of an item's name the words say
        owner = p.store_of_item_named(p.frame.first, named)
        if isinstance(owner, CallTool):
            return owner
        named = owner or named
    # the store in view, unless this turn searched for the item asked about (its results are
    # in view now, whichever store they are from)
    store = store or named or (None if _searched_for_it(p) else p.current_store())
    asked = country_named(p.frame.first)  # "do you deliver to Switzerland?": no item asked
    item = None
    if store is None and asked is None:
        # "when does the shincha ship?", "can I send a mug back?": the item asked about
        # tells the store, and its own dates
        found = _item_asked(p)
        if isinstance(found, CallTool):
            return found
        item = found
        store = store or (str(item["storeId"]) if item and item.get("storeId") else None)
        if item is not None and item["itemId"] not in p.state.details and \
                _WHEN_SENT.search(words.fold(p.frame.first)):
            return p.call("get_item", itemId=item["itemId"])  # its dates are in its details
        store = store or p.store_described(p.frame.first)
    stores = [store] if store is not None else [
        str(entry["storeId"]) for entry in p.state.stores or [] if entry.get("storeId")]
    if not stores:
        return say(p.lang, "help")
    unread = [p.call("get_store", storeId=s) for s in stores
              if s not in p.state.store_info and p.state.done("get_store", storeId=s) is None]
    if unread:  # no store in view: each store's own terms
        return unread
    if store is None and asked is not None:  # "do you deliver to Switzerland?": the stores that do
        serving = [s for s in stores if asked in (p.state.store_info.get(s, {}).get(
            "deliveryAreas") or [])]
        stores = serving or stores
    if item is None and named is not None:  # a store named by words of its item's name
        item = _named_in_results(p, named)  # ("the studio seconds box", "the … ebook")
    if item is None:
        item = _pointed_at(p, store)
    own = _its_fulfillment(p, item, store) if item is not None else ""
    if own:  # a download or a thing collected: no shipping, whatever the store's rates
        info = p.state.store_info.get(str(item.get("storeId") or store or ""), {}) \
            if item is not None else {}
        collect = _pickup(p, info) if info and _collect_options(info) and item is not None \
            and item.get("fulfillmentType") == "pickup" else ""
        return collect or own  # (how it is collected: "ready in about 20 minutes")
    terms = " ".join(_terms_of(p, p.state.store_info.get(s, {"name": s})) for s in stores)
    if len(stores) == 1:
        terms += _delivered_instead(p, stores[0])
    if item is None or not _WHEN_SENT.search(words.fold(p.frame.first)):
        return terms
    preorder = choices.meta(p.state.items.get(str(item["itemId"])) or item, model.PREORDER)
    ships = preorder.get("estimatedShipDate") or preorder.get("releaseDate")
    if ships:  # a pre-order ships on its own date, whatever the store's delivery times
        day = choices.day(str(ships), p.lang)
        return f"{item['name']}: {say(p.lang, 'preorder', day=day)} {terms}"
    return terms


# A question about when a thing is sent or arrives.
_WHEN_SENT = re.compile(r"\b(?:when|how (?:long|soon)|ships?|shipped|shipping|arriv\w*|"
                        r"dispatch\w*|quand|expedi\w*)\b|いつ|発送|届")


def asks_when_sent(text: str) -> bool:
    """Whether a question asks when a thing is sent or arrives ("when does the shincha ship?")."""
    return _WHEN_SENT.search(words.fold(text)) is not None


def _searched_for_it(p: Planner) -> bool:
    """Whether this turn searched for the item the question names (its results, not the
    store shopped at, are in view now)."""
    return p.state.done("search_products", query=p.query()) is not None


# The words of a question about opening hours, which name no item.
_OPENING_WORDS = frozenset("""time times open opens opened opening close closes closed closing
hour hours early late today tonight tomorrow morning evening weekend day days ouvert ouverte
ouverts ouvertes ouvre ouvrez ferme fermez fermes fermee heure heures aujourd demain soir
ete etes sommes 開いて 開いてる 開店 閉店 営業 何時
""".split())


def _item_asked(p: Planner) -> dict[str, Any] | CallTool | None:
    """The item a question about the terms names ("can I send the mug back?", "when does the
    shincha ship?"), searched for once; None when no item's name says a word of it."""
    said = naming.wanted(p.query())
    if not said - _OPENING_WORDS or not p.has("search_products"):
        return None  # "what time do you open on sunday": a store's hours, no item's
    if not _searched_for_it(p):
        return p.call("search_products", query=p.query(), limit=8, availableOnly=False)
    named = [item for item in p.state.results if naming.name_score(item, said) > 0]
    return max(named, key=lambda item: naming.name_score(item, said)) if named else None


def _named_in_results(p: Planner, store: str | None) -> dict[str, Any] | None:
    """The item of this turn's search the question names best (of the store asked about)."""
    if p.state.done("search_products") is None:
        return None
    listed = next((s for s in p.state.stores or [] if s.get("storeId") == store), {})
    said = naming.wanted(p.query()) - words.content_words(str(listed.get("name", ""))) - \
        words.content_words(str(store or "").removeprefix("store_"))  # the store's own words
    # named by half its words at least ("the studio seconds box"), not by one word a fee
    # question shares with it ("the cost of express shipping": no espresso cup)
    named = [item for item in p.state.results if naming.name_score(item, said) * 2 >= len(
        said) > 0 and (store is None or item.get("storeId") == store)]
    return max(named, key=lambda item: naming.name_score(item, said)) if named else None


def _pointed_at(p: Planner, store: str | None) -> dict[str, Any] | None:
    """The item in view, when the question points at it ("do I pay shipping on it?")."""
    focus = p.item(p.state.focus)
    if focus is None or not topics.points(p.frame.first) or _searched_for_it(p) or (
            store is not None and focus.get("storeId") != store):
        return None  # (what this turn's search found first is no item in view)
    return focus


def _its_fulfillment(p: Planner, item: dict[str, Any], store: str | None) -> str:
    """What the item asked about needs of shipping, from its own fulfillment: a download has
    none, a thing collected is collected where its store (or its class) is; "" for what ships,
    whose terms are the store's."""
    found = topics.topic(p.frame.first)
    if not (found is not None and found.name == "shipping" or found is None and PICKUP.search(
            words.fold(p.frame.first))):
        return ""  # (a refund asked about "when I pick it up" is the store's returns)
    full = p.state.items.get(str(item.get("itemId"))) or item
    kind = full.get("fulfillmentType")
    if kind == "digital":
        return say(p.lang, "item_ships_digital", name=full.get("name", ""))
    if kind != "pickup":
        return ""
    place = choices.meta(full, model.SCHEDULING).get("location")
    info = p.state.store_info.get(str(full.get("storeId") or store or ""), {})
    place = place or (address_text(info, p.lang) if info else "")
    if not place:
        return ""
    return say(p.lang, "item_collected_at", name=full.get("name", ""),
               place=f"{info.get('name')}, {place}" if info.get("name") and not
               choices.meta(full, model.SCHEDULING).get("location") else place)


def _terms_of(p: Planner, info: dict[str, Any]) -> str:
    topic = intent(p.frame.first)
    if topic in MAY_ASK_PICKUP and PICKUP.search(words.fold(p.frame.first)):
        topic = "pickup"
    elif topic in ("other", "details", "search") and (LOCATION.search(words.fold(
            p.frame.first)) or _asks_about(p.frame.first, "hours")):
        topic = "hours"  # its address comes with its hours
    elif topic in ("other", "details", "search", "checkout") and PAY_NAMES.search(
            words.fold(p.frame.first)):
        topic = "payment"  # "PayPayは使えますか？"
    if topic == "pickup" and ASKS_WHEN_OPEN.search(words.fold(p.frame.first)):
        topic = "hours"  # "what time can I come collect on saturday?": that day's hours
    if topic == "hours":
        folded = words.fold(p.frame.first)
        day = day_meant(folded, p.state.now or datetime.now(UTC), p.state.time_zone)
        ahead = days_ahead_meant(folded) if day_asked(folded) is None else None
        that_day = hours_on([str(spec) for spec in info.get("openingHours") or []], day) \
            if day is not None else False
        if ahead in (0, 1) and that_day is not False:  # that day's hours, not the week's
            return _on_near_day(p, info, ahead, day or 0, that_day)
        if that_day is None:  # "are you open on Tuesdays?": closed that day, said so
            return say(p.lang, "closed_on_day", store=info.get("name"), day=day_name(
                day or 0, p.lang), hours=", ".join(opening_hours(str(spec), p.lang)
                                                  for spec in info.get("openingHours") or []),
                       address=address_text(info, p.lang))
        if isinstance(that_day, tuple):  # "what time do you open on sundays?": that day's
            return say(p.lang, "open_on_day", store=info.get("name"), day=day_name(
                day or 0, p.lang), min=that_day[0], max=that_day[1], hours=", ".join(
                    opening_hours(str(spec), p.lang) for spec in info.get("openingHours") or []),
                       address=address_text(info, p.lang))
        return say(p.lang, "hours", store=info.get("name"), hours=", ".join(
            opening_hours(str(spec), p.lang) for spec in info.get("openingHours") or []) or "—",
                   address=address_text(info, p.lang))
    if topic == "contact":
        reach = [str(info[key]) for key in ("telephone", "email", "url") if info.get(key)]
        return say(p.lang, "contact", store=info.get("name"), listing=", ".join(reach)) \
            if reach else say(p.lang, "contact_unknown", store=info.get("name"))
    if topic == "currency":
        return say(p.lang, "currency", store=info.get("name"), currency=info.get("currency"))
    if topic == "payment":
        methods = ", ".join(store_word(p.lang, method) for method in
                            info.get("paymentAccepted") or [])
        return say(p.lang, "payment", store=info.get("name"), methods=methods) if methods else \
            say(p.lang, "payment_unknown", store=info.get("name"))
    text = _pickup(p, info) + " " if topic == "pickup" else ""
    areas = [str(code) for code in info.get("deliveryAreas") or []]
    minimum = info.get("minimumOrderValue")
    text += say(p.lang, "fees", store=info.get("name"),
               areas=", ".join(country_name(code, p.lang) for code in areas) or "—",
               minimum=money_text(minimum) if minimum else "—")
    asked = country_named(p.frame.first)
    if asked is not None and areas:  # "do you ship to Canada?": yes or no first
        key = "ships_there" if asked in areas else "does_not_ship_there"
        text = say(p.lang, key, store=info.get("name"),
                   country=country_name(asked, p.lang)) + " " + text
    options = [f"{option.get('name')} {money_text(option['cost'])}"
               + (f" ({say(p.lang, 'days_range', min=option['minDays'], max=option['maxDays'])})"
                  if option.get("maxDays") else "")
               for option in info.get("shippingOptions") or [] if option.get("cost")]
    if options:
        text += " " + say(p.lang, "shipping_options", listing="; ".join(options))
    if _FREE.search(words.fold(p.frame.first)) and not any(
            _free(option) for option in info.get("shippingOptions") or []):
        text += " " + say(p.lang, "no_free_shipping", store=info.get("name"))
    if info.get("returnWindowDays"):
        text += " " + say(p.lang, "return_window", days=info["returnWindowDays"])
    elif info.get("returnWindowDays") == 0 and topics.RETURNS.search(
            words.fold(p.frame.first)):
        text += " " + say(p.lang, "no_returns", store=info.get("name"))  # asked: said plainly
    return text




def _on_near_day(p: Planner, info: dict[str, Any], ahead: int, day: int,
                 that_day: tuple[str, str] | None | bool) -> str:
    """The store's hours today or tomorrow (`ahead` 0 or 1): that day's only, or that it is
    closed then, with its week."""
    name, address = info.get("name"), address_text(info, p.lang)
    weekday = day_name(day, p.lang)
    if isinstance(that_day, tuple):
        opens, closes = that_day
        if ahead == 0:
            return say(p.lang, "open_today", store=name, day=weekday, min=opens, max=closes,
                       address=address)
        return say(p.lang, "open_tomorrow", store=name, day=weekday, min=opens, max=closes,
                   address=address)
    week = ", ".join(opening_hours(str(spec), p.lang) for spec in info.get("openingHours") or [])
    if ahead == 0:
        return say(p.lang, "closed_today", store=name, day=weekday, hours=week, address=address)
    return say(p.lang, "closed_tomorrow", store=name, day=weekday, hours=week, address=address)




def _asks_about(text: str, name: str) -> bool:
    found = topics.topic(text)
    return found is not None and found.name == name


def _collect_options(info: dict[str, Any]) -> list[str]:
    """The store's own shipping options that are collecting the order."""
    return [str(option.get("name")) for option in info.get("shippingOptions") or []
            if _COLLECT.search(words.fold(str(option.get("name", ""))))]


def _delivered_instead(p: Planner, store: str) -> str:
    """"Can I pick up the blue mug at your studio?" where the store collects nothing: after
    the honest no, the item asked about offered for delivery (a yes, or an address, buys it)."""
    asked = p.frame.first
    info = p.state.store_info.get(store, {})
    if intent(asked) not in MAY_ASK_PICKUP or not PICKUP.search(words.fold(asked)) or \
            _collect_options(info):
        return ""
    focus = p.item(p.state.focus)
    if focus is None or focus.get("storeId") != store or focus.get("fulfillmentType") == \
            "pickup" or naming.name_score(focus, naming.wanted(p.query())) == 0:
        return ""
    return " " + say(p.lang, "suggest_add")


def _pickup(p: Planner, info: dict[str, Any]) -> str:
    """Whether the store's own shipping options include collecting the order, and where."""
    found = _collect_options(info)
    if found:
        text = say(p.lang, "pickup_offered", store=info.get("name"), option=found[0],
                   address=address_text(info, p.lang))
        # the option's own words ("Ready in about 20 minutes"), in the language they are in
        told = next((str(option["description"]) for option in info.get("shippingOptions") or []
                     if option.get("name") == found[0] and option.get("description")), "")
        return f"{text} {told}" if told and p.lang == "en" else text
    return say(p.lang, "pickup_not_offered", store=info.get("name"))


def _free(option: dict[str, Any]) -> bool:
    cost = option.get("cost")
    return isinstance(cost, dict) and str(cost.get("amount", "")).strip("0.") == ""
