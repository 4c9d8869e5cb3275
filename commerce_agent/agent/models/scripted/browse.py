"""Looking around: search, an item's details, the stores, switching store, discounts."""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.language.countries import named_in
from commerce_agent.agent.models.base import CallTool
from commerce_agent.agent.models.scripted import (
    choices,
    code_answers,
    facts,
    topics,
    unsold,
    words,
)
from commerce_agent.agent.models.scripted.acquire import notes
from commerce_agent.agent.models.scripted.messages import offer_terms, say
from commerce_agent.agent.models.scripted.phrasing import listing, sold_out_text
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.several import planner_for
from commerce_agent.agent.models.scripted.speech import read_act
from commerce_agent.operations.base import money_text


def _price(item: dict[str, Any]) -> str:
    return money_text(item.get("price"))


def search(p: Planner) -> Decision:
    query = p.query()
    p.extra["query"] = query
    if not query:  # "what do you sell?": the stores, then the question
        if p.needs_stores():
            return p.call("list_stores")
        if words.price_bounds(p.frame.first):
            return _within_a_price(p)
        names = ", ".join(f"{s['name']} — {s.get('description', '')}".rstrip(" —")
                          for s in p.state.stores or [])
        return say(p.lang, "stores_here", names=names)
    not_sold = unsold.not_sold_text(p, query)
    if not_sold is not None:
        return not_sold
    step = _search_each(p) or p.search_step(query)
    if step is not None:
        return step
    gone = p.sold_out_asked()
    if gone is not None:  # "do you have cannoli?": sold out, and what is in stock instead
        return sold_out_text(p.lang, gone, p.alternatives(gone))
    found = p.state.results
    if not found:
        closest = _closest(p)
        if closest:  # "a french press?": nothing by every word; what some of them found
            return say(p.lang, "not_found", query=query) + " " + say(
                p.lang, "closest", listing="; ".join(
                    f"{n}) {item['name']} ({_price(item)})" for n, item in enumerate(closest, 1)))
        return say(p.lang, "not_found", query=query)
    ranked = p.by_price(p.frame.first)
    found = ranked or found
    top = found[0]
    shown = "; ".join(f"{n}) {item['name']} ({_price(item)})"
                      for n, item in enumerate(found[:5], 1))
    # "which pizza is the cheapest?": the first is named as what was asked, not a best match
    sort = words.price_order(p.frame.first).get("sort") if ranked or _sorted_search(p) else None
    key = {"price_asc": "found_cheapest", "price_desc": "found_dearest"}.get(sort or "", "found")
    return (say(p.lang, key, count=len(found), listing=shown, name=top["name"],
                price=_price(top)) + " " + say(p.lang, "suggest_add"))


def _within_a_price(p: Planner) -> Decision:
    """A price limit that names no kind ("anything under 1000 yen", 「1,000円以下のもの」,
    « t'as quoi à moins de 30 balles »): the catalogs of the stores priced in its currency,
    read in one round, and what they sell within it, the cheapest first."""
    currency = words.price_currency(p.frame.first)
    wanted = [catalog_id for store in p.state.stores or []
              if currency is None or store.get("currency") == currency
              for catalog_id in store.get("catalogIds", [])]
    read = {call.args.get("catalogId") for call in p.state.calls if call.name == "get_catalog"}
    unread = [catalog_id for catalog_id in wanted if catalog_id not in read]
    if unread:
        return [p.call("get_catalog", catalogId=catalog_id) for catalog_id in unread]
    found = p.state.results
    if not found:
        return say(p.lang, "not_found", query=p.frame.first)
    shown = "; ".join(f"{n}) {item['name']} ({_price(item)})"
                      for n, item in enumerate(found[:5], 1))
    return (say(p.lang, "found_cheapest", count=len(found), listing=shown,
                name=found[0]["name"], price=_price(found[0])) + " " + say(p.lang, "suggest_add"))


def _sorted_search(p: Planner) -> bool:
    """Whether this turn's last search asked the stores for their results by price."""
    searches = [call for call in p.state.calls if call.name == "search_products"]
    return bool(searches) and searches[-1].args.get("sort") in ("price_asc", "price_desc")


def _search_each(p: Planner) -> CallTool | list[CallTool] | None:
    """The next search when the message asks about several items ("do you have the glaze
    mug and the espresso cups?"): one search for each, their results listed together."""
    if read_act(p.frame.first).kind != "question":
        return None
    phrases = words.things_asked_about(p.frame.first)
    searched = {call.args.get("query") for call in p.state.calls if call.name == "search_products"}
    for phrase in phrases:
        sub = planner_for(p, phrase, (), [])
        query = sub.query()
        if query and sub.searched(query) not in searched:
            return sub.search_step(query)
    return None


def _closest(p: Planner) -> list[dict[str, Any]]:
    """The in-stock items this turn's narrower searches (one word of the request) found,
    when the last found nothing: the closest the stores have."""
    for call in reversed(p.state.calls):
        if call.name == "search_products" and not call.is_error and isinstance(
                call.result, dict):
            found = [item for item in call.result.get("results", [])
                     if item.get("available") is not False]
            if found:
                return found[:3]
    return []


def details(p: Planner) -> Decision:
    item = p.resolve_item()
    if item is None:
        query = p.query()
        if not query:
            return say(p.lang, "which_item")
        step = p.search_step(query)
        if step is not None:
            return step
        item = p.sold_out_asked() or (p.state.results[0] if p.state.results else None)
        if item is None:
            return say(p.lang, "not_found", query=query)
    item_id = str(item["itemId"])
    p.extra["item"] = item
    if item_id not in p.state.details:
        return p.call("get_item", itemId=item_id)
    return describe(p, p.state.items[item_id])


def item_answer(p: Planner) -> Decision:
    """Only what the item's data says on the question ("add the teapot — is it dishwasher
    safe?" after the add): not its whole description, nor another offer to add it."""
    found = details(p)
    item = p.extra.get("item")
    if not isinstance(found, str) or item is None:
        return found
    said = facts.answer(p.state.items.get(str(item["itemId"]), item), p.frame.last, p.lang)
    return " ".join(said) or say(p.lang, "not_stated")


def describe(p: Planner, item: dict[str, Any]) -> str:
    stop = "。" if p.lang == "ja" else "."  # a Japanese sentence ends so, never with both
    text = [f"{item['name']}: {_price(item)}{stop}"]
    about = str(item.get("description", "")).split(". ")[0].strip().rstrip(".。")
    if about:
        text.append(f"{about}{stop}")
    if read_act(p.frame.last).kind == "question" or topics.topic(p.frame.last) is not None:
        # "is it dishwasher safe?", "大きさを教えてください": what the data says on it
        text += facts.answer(item, p.frame.last, p.lang)
    sold_out = item.get("available") is False
    variants = [c for c in choices.variant_choices(item) if c.available]
    gone = _named_sold_out(p, item)
    if gone and variants:  # "is the white mug in stock?": that one is not, these are
        text.append(say(p.lang, "option_sold_out", name=item["name"], gone=", ".join(
            c.words for c in gone), listing=listing(variants)))
    elif variants:
        text.append(say(p.lang, "in_stock", listing=listing(variants)))
    for group in choices.groups(item):
        need = say(p.lang, "choose_one" if group.get("required") else "optional")
        text.append(say(p.lang, "group_options", group=group["name"], need=need, listing=", ".join(
            c.label for c in choices.option_choices(group))))
    addons = choices.addon_names(item)
    if addons and say(p.lang, "addons", names=", ".join(addons)) not in text:
        text.append(say(p.lang, "addons", names=", ".join(addons)))
    slots = [c for c in choices.slot_choices(item) if c.available][:choices.SLOTS_OFFERED]
    if slots:
        text.append(say(p.lang, "next_free", listing=listing(choices.localized(slots, p.lang))))
    text += notes(item, p.lang) + facts.plan_terms(item, p.lang)
    if sold_out:  # asked about, it is named sold out and nothing is offered to add
        text.append(sold_out_text(p.lang, item, p.alternatives(item)))
        return " ".join(text)
    kind = item.get("fulfillmentType")
    store = p.state.store_name(item.get("storeId"))
    text.append({"digital": say(p.lang, "digital"), "pickup": say(p.lang, "pickup_at", store=store),
                 "hybrid": say(p.lang, "hybrid")}.get(str(kind), say(p.lang, "ships_to_you")))
    text.append(say(p.lang, "suggest_add"))
    return " ".join(text)


def _named_sold_out(p: Planner, item: dict[str, Any]) -> list[choices.Choice]:
    """The variants the question names, when every one it names is sold out."""
    said = choices.said_words((p.frame.last,)) - words.content_words(str(item.get("name", "")))
    named = [c for c in choices.variant_choices(item)
             if any(choices.matches(part, said) for part in c.words.split(", "))]
    return named if named and not any(c.available for c in named) else []


def stores(p: Planner) -> Decision:
    if p.state.stores is None:
        return p.call("list_stores")
    names = [f"{store['name']} ({store.get('currency')})" for store in p.state.stores]
    return say(p.lang, "stores", names=", ".join(names))


def switch(p: Planner) -> Decision:
    if p.needs_stores():
        return p.call("list_stores")
    store = p.mentioned_store()
    if store is None and not p.state.stores and p.state.done("list_stores") is None:
        return p.call("list_stores")  # (a code asked for by its offer, no store in view yet)
    if store is None:
        names = ", ".join(str(s["name"]) for s in p.state.stores or [])
        return say(p.lang, "stores_are", names=names) + " " + say(p.lang, "which_store")
    if p.state.done("get_store", storeId=store) is None:
        return p.call("get_store", storeId=store)
    info = p.state.store_info[store]
    return say(p.lang, "now_at", store=info["name"], address=named_in(
        str(info.get("address") or "—"), info.get("countryCode"), p.lang),
               currency=info.get("currency"))


def discounts(p: Planner) -> Decision:
    if p.needs_stores() and p.frame.intent == "discounts":
        return p.call("list_stores")
    store = p.mentioned_store() or p.current_store()
    asked = code_answers.codes_asked(p)
    if asked:  # "is SUMMER2020 still valid?": that code, described, never applied
        return code_answers.answer(p, asked, store)
    if store is None and not p.state.stores and p.state.done("list_stores") is None:
        return p.call("list_stores")  # (a code asked for by its offer, no store in view yet)
    if store is None:
        names = ", ".join(str(s["name"]) for s in p.state.stores or [])
        return say(p.lang, "offers_per_store", names=names) + " " + say(p.lang, "which_store")
    if p.state.done("get_store", storeId=store) is None and store not in p.state.store_info:
        return p.call("get_store", storeId=store)
    info = p.state.store_info[store]
    offers = [say(p.lang, "promotion_terms", terms=terms, code=entry["code"])
              if (terms := offer_terms(p.lang, entry, info.get("currency"))) else
              say(p.lang, "promotion_code", title=entry["title"],
                  description=entry["description"], code=entry["code"])
              for entry in info.get("promotions", []) if entry.get("code")]
    if not offers:
        return say(p.lang, "no_offers", store=info["name"])
    return say(p.lang, "offers", store=info["name"], listing="; ".join(offers))


def which(p: Planner) -> str:
    results = p.state.results[:5]
    if not results:
        return say(p.lang, "which_item")
    shown = "; ".join(f"{n}) {item['name']}" for n, item in enumerate(results, 1))
    return f"{shown}. {say(p.lang, 'which')}"
