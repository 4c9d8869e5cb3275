"""Where the shopper collects what they buy in person ("where do I go to get it?",
« où est-ce que je le récupère ? », 「どこで受け取れますか」, and "can I pick it up?" of a cart
the store hands over): the store's address, for the open cart or the latest order with lines
collected at the store (or the item in view, collected only). Nothing is added, ordered or
searched for."""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.language.countries import country_name, named_in
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.phrasing import lines
from commerce_agent.agent.models.scripted.planner import Decision, Planner


def answer(p: Planner, asked_if: bool = False) -> Decision:
    """The place, read from the store's page first; `asked_if`: the shopper asked whether
    the cart can be collected ("Yes: you collect … at …")."""
    held = p.state.collected_here()
    if held is None:
        return say(p.lang, "help")
    store = str(held.get("storeId"))
    info = p.state.store_info.get(store)
    if info is None and p.has("get_store") and p.state.done("get_store", storeId=store) is None:
        return p.call("get_store", storeId=store)
    name = str((info or {}).get("name") or p.state.store_name(store))
    address = address_text(info, p.lang) if info else ""
    collected = [line for line in held.get("items", [])
                 if line.get("fulfillmentType") == "pickup"]
    if asked_if:
        place = name if not address else f"{name}（{address}）" if p.lang == "ja" else \
            f"{name}, {address}"
        return say(p.lang, "pickup_possible", store=place, lines=lines(held, p.lang))
    if not address:
        return say(p.lang, "pickup_at", store=name)
    if collected:
        return say(p.lang, "collect_lines_at", lines=lines({"items": collected}, p.lang),
                   store=name, address=address)
    return say(p.lang, "collect_at", store=name, address=address)


def address_text(info: dict[str, Any], language: str) -> str:
    """Where the store is, its country named in the shopper's language."""
    address = info.get("address")
    if isinstance(address, dict):
        parts = (address.get(key) for key in ("streetAddress", "addressLocality",
                                               "addressRegion", "postalCode"))
        text = ", ".join(str(part) for part in parts if part)
        country = address.get("addressCountry")
        return ", ".join(filter(None, (text, country_name(str(country), language)
                                       if country else ""))) or "—"
    return named_in(str(address or "—"), info.get("countryCode"), language)
