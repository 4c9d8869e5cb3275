"""Getting something: add to the cart, buy now, book a time, subscribe, and check out.

An item with options is never added blind: the variant, the required customizations and the
time slot come from the person's words, the data's default, or a question listing what is in
stock or free.
"""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language.countries import country_name, named_in
from commerce_agent.agent.language.delivery import missing, wants_pickup
from commerce_agent.agent.language.offer_names import described_offer, mistyped
from commerce_agent.agent.language.option_words import SIZE_RANK_WORDS
from commerce_agent.agent.language.party import party_size
from commerce_agent.agent.language.shipping import chosen_option
from commerce_agent.agent.models.scripted import (
    choices,
    configuration,
    line_options,
    naming,
    option_change,
    pickup_place,
    plan_verbs,
    unsold,
    words,
)
from commerce_agent.agent.models.scripted.by_amount import ByAmount, by_amount, by_sum
from commerce_agent.agent.models.scripted.messages import how_often, say, status
from commerce_agent.agent.models.scripted.phrasing import (
    cart_text,
    lines,
    listing,
    option_question,
    sold_out_text,
)
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS
from commerce_agent.commerce.orders import model
from commerce_agent.operations.base import money_text

NEEDS_ADDRESS = (None, "physical", "hybrid")
# The fewest characters of a word that only an item's description says, to name the item.
_LONG_WORD = 4
_EVERY = re.compile(r"\b(?:both|all|every|everything|each)\b|\b(?:tous|toutes|tout|les deux)\b|"
                    r"全部|両方|すべて|全て")


def _choose_item(p: Planner) -> dict[str, Any] | Decision:
    not_sold = unsold.not_sold_text(p, p.query()) if p.state.done(
        "search_products") is not None else None
    if not_sold is not None:  # "add a pepperoni pizza": no pizza is that; none is taken
        return not_sold
    item = p.resolve_item()
    if item is not None:
        return item
    details = p.focus_options_step()
    if details is not None:
        return details
    query = p.query()
    if not query:
        return say(p.lang, "what") + " " + say(p.lang, "what_hint")
    step = p.search_step(query)
    if step is not None:
        return step
    gone = p.sold_out_asked()
    if gone is not None:  # never another item that fits the words less in its place
        return sold_out_text(p.lang, gone, p.alternatives(gone))
    if not p.state.results:
        return say(p.lang, "not_found", query=query)
    top = p.top_matches()
    if len(top) > 1:
        unread = [item for item in top[:3] if item["itemId"] not in p.state.details]
        if unread:  # their options may tell them apart ("a speckled oat mug")
            return [p.call("get_item", itemId=item["itemId"]) for item in unread]
        best = _best_by_options(p, [p.state.items[item["itemId"]] for item in top[:3]])
        if best is not None:
            return best
        shown = "; ".join(f"{n}) {item['name']} ({money_text(item['price'])})"
                          for n, item in enumerate(p.state.results[:5], 1))
        return f"{say(p.lang, 'several', listing=shown)} {say(p.lang, 'which')}"
    if _weakly_named(p, top[0], query):
        # only an option word, a word of a story or an address fits it: offered, not added
        return offer(p)
    return top[0]


def _head_fit(p: Planner, item: dict[str, Any], query: str) -> str:
    """How the item fits the head noun of a French request (naming.head_fit); an item shown
    when the shopper spoke fits whatever names it."""
    if any(shown["itemId"] == item["itemId"] for shown in p.state.shown):
        return "head"
    return naming.head_fit(p.state.items.get(str(item["itemId"])) or item, query,
                           p.frame.first, p.lang)


def _weakly_named(p: Planner, item: dict[str, Any], query: str) -> bool:
    """Whether a search found the item by words that do not name it: not one of the items
    shown when the shopper spoke (picked from those, its options named), and no word of the
    request in its name. Only Japanese phrases are held to the name: Latin words may name
    the item by what its name does not show (its English name, "Lumen Online", in a Japanese
    or French message; its tag or category, "hojicha" for the Kaga Bōcha), which the search
    matched and the name cannot tell."""
    if any(shown["itemId"] == item["itemId"] for shown in p.state.shown):
        return False
    known = p.evidence_of(item)
    if known is not None:  # its names and descriptions in every language were read
        plain = p.plain_words(query)
        says, named = known.score(plain)
        if plain and says == len(plain) and (named or min(map(len, plain)) >= _LONG_WORD):
            # every word is its own, in some language (ほうじちゃ, « torréfié »); a short one
            # only a description says (配送 of 配送なし) names nothing
            return False
    said = naming.wanted(query)
    if naming.weak_evidence(p.state.items.get(str(item["itemId"])) or item,
                            p.frame.first, said, p.lang):
        return True
    if not words.re_japanese(query) or any(not words.re_japanese(word) for word in said):
        return False
    return not naming.names_it(item, said, p.lang)


def offer(p: Planner) -> str:
    """What the search found, offered (the shopper's "yes" adds the first)."""
    found = p.state.results
    shown = "; ".join(f"{n}) {item['name']} ({money_text(item.get('price'))})"
                      for n, item in enumerate(found[:5], 1))
    return (say(p.lang, "found", count=len(found), listing=shown, name=found[0]["name"],
                price=money_text(found[0].get("price"))) + " " + say(p.lang, "suggest_add"))


def _best_by_options(p: Planner, items: list[dict[str, Any]]) -> dict[str, Any] | None:
    said = choices.said_words(p.frame.texts)

    def score(item: dict[str, Any]) -> tuple[int, int]:
        # Options first ("a speckled oat mug"), then the description's words.
        named = sum(choices.matches(label, said) for label in choices.option_labels(item))
        return named, len(said & words.content_words(str(item.get("description", ""))))

    scores = [score(item) for item in items]
    best = max(scores)
    return items[scores.index(best)] if best > (0, 0) and scores.count(best) == 1 else None


def _names_options(p: Planner, item: dict[str, Any]) -> bool:
    said = choices.said_words(p.frame.texts) - words.content_words(str(item.get("name", "")))
    return any(choices.matches(label, said) for label in choices.option_labels(item)) or \
        bool(choices.when_named(p.frame.texts, p.state.now, p.state.time_zone).named())


class _Picked:
    def __init__(self) -> None:
        self.variant: choices.Choice | None = None
        self.customizations: dict[str, Any] = {}
        self.labels: list[str] = []
        self.addons: list[str] = []
        self.slot: choices.Choice | None = None


def _pick(p: Planner, item: dict[str, Any]) -> _Picked | str:
    """Every option the item needs, or the question that asks for the next one."""
    frame, picked = p.frame, _Picked()
    # The item's own name picks none of its options ("the font licence" ≠ "Web fonts").
    name = str(item["name"])
    said = choices.said_words(frame.texts, name) - words.content_words(name)
    position = frame.option_ordinal()
    # "large", "the small one": the biggest or smallest of the sizes offered
    step = option_change.direction(choices.without_name(" ".join(frame.texts), name))
    # the whole configuration the words read ("la grosse de 16 oz", "not the ceremonial, the
    # 100g bag", "with 20 seats and the app embedding"): it settles what the pickers leave open
    reading = configuration.read(item, ". ".join(frame.texts), p.lang)
    if choices.meta(item, PRODUCT_VARIANTS).get("variants"):
        allowed = choices.pick_variant(item, said, frozenset(choices.declined_words(frame.texts,
                                                                                    name)))
        if step and len(allowed) > 1:
            allowed = option_change.sized(item, allowed, step)
        if reading.variant_named:
            allowed = [choice for choice in allowed if choice.id in reading.variants] or [
                choice for choice in choices.variant_choices(item)
                if choice.id in reading.variants] or allowed
        in_stock = [choice for choice in allowed if choice.available]
        every = [choice for choice in choices.variant_choices(item) if choice.available]
        latest = [choice for choice in choices.pick_variant(
            item, choices.said_words((frame.last,), name) - words.content_words(name))
            if choice.available]
        if len(in_stock) != 1 and len(frame.texts) > 1 and len(latest) == 1:
            in_stock = latest  # the answer names one ("ok the blue 12 oz then"): it wins
        if len(in_stock) != 1 and position is not None and -len(in_stock) <= position < len(
                in_stock):
            in_stock, position = [in_stock[position]], None
        if len(in_stock) == 1:
            picked.variant = in_stock[0]
            picked.labels.append(in_stock[0].words)
        elif not every:
            return say(p.lang, "sold_out_every_option", name=name)
        elif not in_stock:
            gone = ", ".join(choice.words for choice in allowed)
            return (say(p.lang, "option_sold_out", name=name, gone=gone, listing=listing(every))
                    + " " + say(p.lang, "which"))
        else:
            return (say(p.lang, "comes_in", name=name, listing=listing(in_stock)) + " " +
                    say(p.lang, "which"))
    for group in choices.groups(item):
        options = choices.option_choices(group)
        chosen = choices.pick_options(group, said)
        read_here = reading.options.get(str(group["id"]), [])
        if group.get("selectionType") == "single":
            chosen = read_here or chosen
        else:
            chosen = [option.id for option in options if option.id in (
                {*chosen, *read_here} - reading.declined)]
        if not chosen and step and group.get("selectionType") == "single":
            chosen = option_change.sized_option(group, step)
        if not chosen and group.get("required"):
            default = choices.default_option(group)
            if default is not None:
                chosen = [default]
            elif position is not None and -len(options) <= position < len(options):
                chosen, position = [options[position].id], None
            else:
                return option_question(p.lang, name, str(group["name"]), listing(options))
        if chosen:
            single = group.get("selectionType") == "single"
            picked.customizations[str(group["id"])] = chosen[0] if single else chosen
            picked.labels += [c.words for c in options if c.id in chosen]
    # add-ons named by a word only they have ("風呂敷" is the furoshiki gift wrap), and not
    # those declined
    extras = line_options.named(item, ". ".join(frame.texts))
    addons = {addon for addon, wanted in extras if wanted} | set(choices.pick_addons(item, said))
    addons -= {addon for addon, wanted in extras if not wanted}
    addons = (addons | set(reading.addons)) - reading.declined
    picked.addons = [addon for group, addon, _ in line_options.extras(item)
                     if not group and addon in addons]
    if choices.meta(item, model.SCHEDULING).get("timeSlots"):
        now, zone = p.state.now, p.state.time_zone
        found, named = choices.pick_slots(item, frame.texts, now, zone)
        open_slots = choices.open_slots(item, now)
        offered = (found if found or not named else open_slots)[:choices.SLOTS_OFFERED]
        if position is not None and -len(offered) <= position < len(offered):
            found, named = [offered[position]], True
        if not open_slots:
            return say(p.lang, "fully_booked", name=name)
        if len(found) == 1 and (named or len(frame.texts) > 1 or (
                len(open_slots) == 1 and words.points_at_shown(frame.last))):
            # "book that one" when the one free time was shown: that time
            picked.slot = found[0]
        elif not named and len(open_slots) == 1 and p.frame.intent == "book":
            # "book two places on the sound bath": its one free time, which the approval
            # prompt names before anything is paid
            picked.slot = open_slots[0]
        elif named and not found:  # taken or none then: the free times nearest it
            nearest = choices.nearest(open_slots, frame.texts, now, zone)
            return (say(p.lang, "no_time_then", name=name,
                        listing=listing(choices.localized(
                            nearest[:choices.SLOTS_OFFERED], p.lang))) + " " +
                    say(p.lang, "which_time"))
        else:
            return (say(p.lang, "next_times", name=name,
                        listing=listing(choices.localized(offered, p.lang))) + " " +
                    say(p.lang, "which_time"))
    return picked


def acquire(p: Planner, then_check_out: bool) -> Decision:
    state = p.state
    if state.done("place_order") is not None:
        return check_out(p)
    chosen = _choose_item(p)
    if not isinstance(chosen, dict):
        return chosen
    item = chosen
    item_id = str(item["itemId"])
    p.extra["item"] = item
    if item_id not in state.details:
        return p.call("get_item", itemId=item_id)
    item = state.items[item_id]
    if state.done("search_products") is not None and state.done("add_to_cart") is None:
        # read whole (its categories tell what a search result does not), the item must be
        # the French request's head noun: « saucière » found only by a far correction into
        # "Saucers" is not sold, a bamboo whisk for a « planche … en bambou » only offered
        fit = _head_fit(p, item, p.query())
        if fit == "none":
            return say(p.lang, "not_found", query=p.query())
        if fit == "modifiers":
            return offer(p)
    if item.get("available") is False:
        return sold_out_text(p.lang, item, p.alternatives(item))
    if choices.meta(item, model.SUBSCRIPTION):
        held = _plan_held(p, item)
        if held is not None:
            return held
        then_check_out = then_check_out or _starts_the_plan(p)
    store = str(item.get("storeId"))
    cart = state.cart_for(store)
    # a number an option's name carries, in English or the shopper's language ("5 seats",
    # "5ユーザー"), names the option, not how many
    labels = choices.option_labels(item)
    local = item.get("optionNames") or {}
    quantity = p.frame.quantity(str(item["name"]), tuple(
        [*labels, *(str(local[label]) for label in labels if local.get(label))]))
    if choices.meta(item, model.SCHEDULING).get("timeSlots"):
        # a booking's count is its party: "two places", "for me and my partner", "pour nous
        # deux" (the latest message that says)
        quantity = next((size for size in map(party_size, reversed(p.frame.texts)) if size),
                        quantity)
    in_cart = any(line["itemId"] == item_id for line in (cart or {}).get("items", []))
    if state.done("add_to_cart") is None and (p.frame.added or (
            then_check_out and in_cart and quantity is None)):
        # Added already (in an earlier turn of this request, or before it): go on from there.
        return check_out(p, store) if then_check_out else \
            f"{item['name']} is in your cart. Say “check out” when you're ready."
    if state.done("add_to_cart") is None and in_cart and quantity is None and \
            not _names_options(p, item):
        # "add it to my cart" about what is already there (its options answered before):
        # say so rather than ask the same option question again.
        return say(p.lang, "already_in_cart", name=item["name"])
    if state.done("add_to_cart") is None and quantity is not None and quantity <= 0:
        # a count that cannot be bought is never taken for one: zero adds nothing, and a
        # negative one is asked about again
        if quantity == 0:
            return say(p.lang, "none_added", name=item["name"])
        return f"{say(p.lang, 'cannot_add_count', count=quantity, name=item['name'])} " \
               f"{say(p.lang, 'how_many')}"
    picked = _pick(p, item)
    if isinstance(picked, str):
        return picked
    amount = (by_sum(p.frame.texts, item, picked.variant, p.lang)
              or by_amount(p.frame.texts, item, picked.variant, p.lang)) \
        if quantity is None and state.done("add_to_cart") is None else None
    if isinstance(amount, str):
        return amount
    if isinstance(amount, ByAmount):
        quantity = amount.quantity
    if cart is None:
        if state.done("create_cart", storeId=store) is None:
            return p.call("create_cart", storeId=store)
        return say(p.lang, "no_cart_opened")
    added = state.done("add_to_cart")
    if added is None:
        args: dict[str, Any] = {"cartId": cart["cartId"], "itemId": item_id,
                                "quantity": 1 if quantity is None else quantity}
        if picked.variant:
            args["variantId"] = picked.variant.id
        if picked.customizations:
            args["customizations"] = picked.customizations
        if picked.addons:
            args["addOnIds"] = picked.addons
        if picked.slot:
            args["timeSlotId"] = picked.slot.id
        return p.call("add_to_cart", **args)
    p.extra["quantity"] = added.args.get("quantity", 1)
    if then_check_out:
        return check_out(p, store)
    return _added_reply(p, item, picked, added.args, cart)


def _starts_the_plan(p: Planner) -> bool:
    """A plan asked for is started: its checkout, whose approval names its price, frequency,
    trial and minimum term ("get me the Folio plan", "I'd like the membership"). Taken with a
    pronoun after the offer to add it, it goes where the offer said; said to go
    to the cart ("add the plan to my cart"), it only goes there; "my plan" is one held, so a
    message about it that reads as an add ("mettez mon abonnement en veille") starts none."""
    said = words.fold(p.frame.first)
    if p.frame.intent == "add" and not words.names_a_thing(said):
        return False  # "I'll take it" answering "Want me to add it to your cart?": the cart
    return p.frame.intent in ("add", "buy") and not plan_verbs.TO_THE_CART.search(said) and \
        not plan_verbs.HELD.search(said)


def _plan_held(p: Planner, item: dict[str, Any]) -> str | None:
    """What to say when the shopper already has this plan, active or paused (a second one
    would bill twice), else None."""
    for order in reversed(list(p.state.orders.values())):
        terms = order.get("subscription") or {}
        state = terms.get("status")
        if state in ("active", "paused") and any(
                line.get("itemId") == item["itemId"] for line in order.get("items", [])):
            text = say(p.lang, "plan_held", name=item["name"], id=order["orderId"],
                       status=status(p.lang, state))
            return f"{text} {say(p.lang, 'resume_hint')}" if state == "paused" else text
    return None


def _added_reply(p: Planner, item: dict[str, Any], picked: _Picked, args: dict[str, Any],
                 cart: dict[str, Any]) -> str:
    options = f" ({', '.join(picked.labels)})" if picked.labels else ""
    text = [say(p.lang, "added", quantity=args.get("quantity", 1), name=item["name"],
                options=options)]
    rounded = by_sum(p.frame.texts, item, picked.variant, p.lang) or \
        by_amount(p.frame.texts, item, picked.variant, p.lang)
    if isinstance(rounded, ByAmount) and rounded.note:
        text.append(rounded.note)
    text += notes(item, p.lang, choices.localized([picked.slot], p.lang)[0].label
                  if picked.slot else None, nearest=bool(picked.slot and picked.slot.nearest))
    # "a lasagna and cannoli" read as one request: the sold-out cannoli is said, not dropped
    text += [say(p.lang, "sold_out", name=gone["name"]) for gone in also_sold_out(p, item)]
    text.append(cart_text(cart, p.state.store_name(cart.get("storeId")), p.lang))
    text.append(say(p.lang, "ready"))
    return " ".join(text)


def also_sold_out(p: Planner, item: dict[str, Any]) -> list[dict[str, Any]]:
    """The sold-out items this turn's search found that the request also named, by words
    the item served does not carry ("a lasagna and cannoli please": the cannoli)."""
    search = p.state.done("search_products")
    found = search.result.get("results", []) if search and isinstance(search.result, dict) \
        else []
    own = {word for label in choices.option_labels(item) for word in words.content_words(label)}
    wanted = words.content_words(p.query()) - words.content_words(str(item.get("name", ""))) - \
        SIZE_RANK_WORDS - own  # "a large diavola": its size, not the Large Serving Bowl
    return [other for other in found if other.get("available") is False
            and other.get("itemId") != item.get("itemId")
            and wanted & words.content_words(str(other.get("name", "")))]


def notes(item: dict[str, Any], lang: str, slot: str | None = None,
          subscription: bool = True, nearest: bool = False) -> list[str]:
    """What a shopper should know about this kind of item."""
    found = []
    preorder = choices.meta(item, model.PREORDER)
    if preorder:
        ships = preorder.get("estimatedShipDate") or preorder.get("releaseDate")
        found.append(say(lang, "preorder", day=choices.day(str(ships), lang)))
    terms = choices.meta(item, model.SUBSCRIPTION)
    if terms and subscription:
        trial = terms.get("trialDays")
        frequency = how_often(lang, terms.get("frequency", "monthly"))
        found.append(say(lang, "subscription_trial", frequency=frequency, trial=trial)
                     if trial else say(lang, "subscription_terms", frequency=frequency))
    if slot:
        # a time nearest the one named is said to be so
        found.append(say(lang, "nearest_time" if nearest else "your_time", slot=slot))
    return found


# -- check out ---------------------------------------------------------------------------

def _cart_to_order(p: Planner, store: str | None) -> dict[str, Any] | None:
    state = p.state
    if store is None:
        store = p.mentioned_store()
    if store is not None and state.cart_for(store):
        return state.cart_for(store)
    carts = state.open_carts()
    named = _cart_naming(p, carts)
    if named is not None:  # "check out my mug" with a cart at each of two stores
        return named
    current = state.cart_for(p.current_store())
    if current and current.get("items"):
        delivers = _delivers_to(p, current)
        if delivers is not False or len(carts) < 2:
            return current
        # the address is outside the current store's areas: the cart of a store it is in
        return next((cart for cart in carts if _delivers_to(p, cart)), current)
    return carts[0] if carts else None


def _cart_naming(p: Planner, carts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one cart of several whose lines the request's words name."""
    if len(carts) < 2:
        return None
    said = frozenset().union(*(words.content_words(p.query(text)) for text in p.frame.texts
                               if words.address(text) is None))
    if not said:
        return None
    naming = [cart for cart in carts if any(
        said & words.content_words(str(line.get("name", ""))) for line in cart["items"])]
    return naming[0] if len(naming) == 1 else None


def _delivers_to(p: Planner, cart: dict[str, Any]) -> bool | None:
    """Whether the cart's store delivers to the address's country (None: not known)."""
    country = (p.state.address or {}).get("countryCode")
    areas = _areas(p, str(cart.get("storeId")))
    if not country or not areas:
        return None
    return str(country).upper() in areas


def _areas(p: Planner, store: str) -> list[str]:
    info = p.state.store_info.get(store) or {}
    return [str(area).upper() for area in info.get("deliveryAreas") or []]


def check_out(p: Planner, store: str | None = None) -> Decision:
    state = p.state
    placed = state.done("place_order")
    if placed is not None:
        others = state.open_carts()
        if others and _every_cart(p) and p.frame.intent == "checkout":
            # "check out both": the next store's cart, with its own approval
            return check_out_cart(p, others[0])
        # the order as the state holds it: its lines named as read
        reply = placed_reply(p, state.orders.get(str(placed.result.get("orderId")),
                                                 placed.result))
        earlier = [call.result for call in state.calls if call.name == "place_order"
                   and not call.is_error and call is not placed]
        if not isinstance(reply, str) or not earlier:
            return reply
        return " ".join([*(say(p.lang, "placed", id=order["orderId"], lines=lines(order, p.lang),
                                total=money_text(order["total"]),
                                status=status(p.lang, order["status"])) for order in earlier),
                         reply])
    named = " ".join(text for text in p.frame.texts if words.address(text) is None)
    if store is None and p.needs_stores() and p.query(named):
        return p.call("list_stores")  # "check out my Trattoria Fiamma cart"
    carts = state.open_carts()
    country = (state.address or {}).get("countryCode")
    if store is None and len(carts) > 1 and country and p.has("get_store") and \
            p.mentioned_store() is None and _cart_naming(p, carts) is None:
        # carts at several stores and an address: learn where each store delivers first
        unknown = next((str(cart.get("storeId")) for cart in carts
                        if str(cart.get("storeId")) not in state.store_info), None)
        if unknown is not None and state.done("get_store", storeId=unknown) is None:
            return p.call("get_store", storeId=unknown)
    cart = _cart_to_order(p, store)
    if cart is None or not cart.get("items"):
        return say(p.lang, "cart_empty")
    return check_out_cart(p, cart)


def _every_cart(p: Planner) -> bool:
    """Whether the request is for every open cart ("check out both", "tout commander")."""
    return any(_EVERY.search(words.fold(text)) for text in p.frame.texts)


def check_out_cart(p: Planner, cart: dict[str, Any]) -> Decision:
    """Place the order for `cart`, once its delivery details are enough."""
    state = p.state
    needs_address = any(line.get("fulfillmentType") in NEEDS_ADDRESS for line in cart["items"])
    address = state.address
    if needs_address and address is None:
        asked = [say(p.lang, "cart_holds", lines=lines(cart, p.lang)), say(p.lang, "where"),
                 say(p.lang, "example_address")]
        if any(wants_pickup(text) for text in p.frame.texts):
            asked[0] = say(p.lang, "no_pickup", store=state.store_name(cart.get("storeId")),
                           lines=lines(cart, p.lang))
        return " ".join(asked)
    kinds = {line.get("fulfillmentType") for line in cart["items"]}
    if kinds == {"pickup"} and any(words.address(text) for text in p.frame.texts):
        # an address for lines the store only hands over: say so before ordering
        return say(p.lang, "pickup_only", store=state.store_name(cart.get("storeId")),
                   lines=lines(cart, p.lang))
    args: dict[str, Any] = {"cartId": cart["cartId"]}
    if needs_address and address is not None:
        lacking = missing(str(address["address"]), address.get("countryCode"))
        if lacking is not None:  # "12 Oak Street": ask for the part a delivery still needs
            return say(p.lang, f"which_{lacking}", address=address["address"])
        store_id = str(cart.get("storeId"))
        if _delivers_to(p, cart) is False:
            return " ".join((
                say(p.lang, "does_not_ship_there", store=state.store_name(store_id),
                    country=country_name(str(address["countryCode"]), p.lang)),
                say(p.lang, "delivers_to", areas=", ".join(
                    country_name(area, p.lang) for area in _areas(p, store_id))),
                say(p.lang, "where")))
        args["deliveryAddress"] = address
    if state.code_wanted or state.codes or state.code_hint:
        # the store's offers first: "WELCOM10" or "my 10% code" names one of them
        store_id = str(cart.get("storeId"))
        if store_id not in state.store_info and p.has("get_store") and \
                state.done("get_store", storeId=store_id) is None:
            return p.call("get_store", storeId=store_id)
    offers = state.store_info.get(str(cart.get("storeId")), {}).get("promotions", [])
    meant = described_offer(state.code_hint, offers) if state.code_hint else None
    if state.code_wanted and meant is None and state.done("apply_promotion") is None:
        # "I have a coupon": its code first, never the next word
        return say(p.lang, "which_code", lines=lines(cart, p.lang))
    if meant is not None and state.done("apply_promotion", code=meant) is None:
        return p.call("apply_promotion", cartId=cart["cartId"], code=meant)  # "my 10% code"
    if state.codes:  # each code said, in order, before the order is asked for
        known = [str(offer.get("code", "")).upper() for offer in offers]
        return p.call("apply_promotion", cartId=cart["cartId"],
                      code=mistyped(state.codes[0], known))
    options = cart.get("shippingOptions") or []
    method = next((found for found in (chosen_option(text, options)
                                       for text in reversed(p.frame.texts)) if found), None)
    if method is not None:  # "express", "the cheaper shipping": else the cart's choice
        args["shippingMethodId"] = method
    return p.call("place_order", **args)


def pickup(p: Planner) -> Decision:
    """"I'll collect it", "can I pick it up?": a cart of pickup lines is ordered (or, asked
    about, said to be collected at the store); delivered lines have no pickup, so the
    address is asked for."""
    if p.state.done("place_order") is not None:
        return check_out(p)
    cart = _cart_to_order(p, None)
    if (cart is None or not cart.get("items")) and \
            p.state.collected_here(in_view=False) is not None:
        # "actually I'll pick them up myself" after the order of things the store hands over:
        # that order is collected already, and where is said (nothing is bought again)
        return pickup_place.answer(p)
    if cart is None or not cart.get("items"):
        return say(p.lang, "cart_empty")
    store = p.state.store_name(cart.get("storeId"))
    if any(line.get("fulfillmentType") in NEEDS_ADDRESS for line in cart["items"]):
        return " ".join((say(p.lang, "no_pickup", store=store, lines=lines(cart, p.lang)),
                         say(p.lang, "where"), say(p.lang, "example_address")))
    if read_act(p.frame.last).kind == "question":
        # "can I pick it up?": yes, and where (the store's address, read first)
        return pickup_place.answer(p, asked_if=True)
    return check_out(p)


def placed_reply(p: Planner, order: dict[str, Any]) -> Decision:
    state = p.state
    store = str(order.get("storeId"))
    kinds = {line.get("fulfillmentType") for line in order.get("items", [])}
    if "pickup" in kinds and store not in state.store_info and p.has("get_store"):
        if state.done("get_store", storeId=store) is None:
            return p.call("get_store", storeId=store)
    text = [say(p.lang, "placed", id=order["orderId"], lines=lines(order, p.lang),
                total=money_text(order["total"]), status=status(p.lang, order["status"]))]
    for line in order.get("items", []):
        item = p.item(line.get("itemId")) or {}
        slot = next((c.label for c in choices.localized(choices.slot_choices(item), p.lang)
                     if c.id == line.get("timeSlotId")), None) if line.get("timeSlotId") else None
        text += notes(item, p.lang, None, subscription=False)
        if slot:
            text.append(say(p.lang, "booked_for", name=item.get("name", ""), slot=slot))
    terms = order.get("subscription")
    if terms and terms.get("nextBillingDate"):
        trial = terms.get("trialDays")
        text.append(say(p.lang, "billed_next_trial" if trial else "billed_next",
                        frequency=how_often(p.lang, terms.get("frequency")), trial=trial,
                        day=choices.day(str(terms["nextBillingDate"]), p.lang)))
    info = state.store_info.get(store)
    if "pickup" in kinds and info:
        text.append(say(p.lang, "collect_at", store=info.get("name"), address=named_in(
            str(info.get("address") or "—"), info.get("countryCode"), p.lang)))
    if "digital" in kinds or "hybrid" in kinds:
        text.append(say(p.lang, "downloads"))
    others = state.open_carts()
    if others:
        text.append(say(p.lang, "still_in_carts", carts="; ".join(
            say(p.lang, "cart_count", count=sum(int(line["quantity"]) for line in cart["items"]),
                store=state.store_name(cart.get("storeId"))) for cart in others)))
    return " ".join(part for part in text if part)
