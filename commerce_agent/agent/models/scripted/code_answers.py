"""A question about a promotion code ("is SUMMER2020 still valid?", "what does FIVEOFF do?",
「OCHA10はまだ有効ですか」) answered from the stores' current offers, never applied: applying
a code changes the cart, which only an instruction asks for."""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.language.codes import codes_asked_about
from commerce_agent.agent.models.scripted.messages import offer_terms, say
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.agent.models.scripted.speech import read_act


def codes_asked(p: Planner) -> tuple[str, ...]:
    """The codes the shopper's question names, else none (an instruction applies them)."""
    last = p.frame.last
    if read_act(last).kind != "question":
        return ()
    return codes_asked_about(last, p.state.known_codes())


def answer(p: Planner, codes: tuple[str, ...], store: str | None) -> Decision:
    """Each code named, as its store offers it: what it gives and how to use it; one no store
    offers now is said so (it may have ended: the stores list only their current offers)."""
    stores = [store] if store else [str(s["storeId"]) for s in p.state.stores or []]
    unread = [s for s in stores if s not in p.state.store_info and
              p.state.done("get_store", storeId=s) is None]
    if unread:
        return [p.call("get_store", storeId=s) for s in unread]
    offers = {s: p.state.store_info.get(s, {}) for s in stores}
    said = []
    for code in codes:
        found = next(((info, entry) for info in offers.values()
                      for entry in info.get("promotions", [])
                      if str(entry.get("code", "")).upper() == code), None)
        if found is not None:
            info, entry = found
            said.append(say(p.lang, "code_offered", code=code, store=info.get("name", ""),
                            description=_described(p.lang, entry, info)))
        elif store is not None:
            said.append(say(p.lang, "code_not_offered", code=code,
                            store=offers[store].get("name", ""),
                            listing=_listing(offers[store], p.lang) or "—"))
        else:
            said.append(say(p.lang, "code_not_offered_anywhere", code=code))
    return " ".join(said)


def _listing(info: dict[str, Any], language: str) -> str:
    return ", ".join(f"{entry['code']} ({_described(language, entry, info)})"
                     for entry in info.get("promotions", []) if entry.get("code"))


def _described(language: str, entry: dict[str, Any], info: dict[str, Any]) -> str:
    """What the offer gives, in the shopper's language where its terms are known."""
    return offer_terms(language, entry, info.get("currency")) or str(
        entry.get("description", "")).rstrip(". ")
