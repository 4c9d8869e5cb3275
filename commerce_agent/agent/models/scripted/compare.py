"""Two things compared: "what's the difference between the margherita and the diavola?",
« quelle est la différence entre le mug classique et le mug édition limitée ? »,
「玉露と玄米茶の違いは？」. Each is searched for by its own words and answered with its price and
what its description says first; nothing is added or offered.

Coordinated words share their noun ("ceremonial and culinary matcha" is "ceremonial matcha"
and "culinary matcha"); when both name the same item (its variants compared), or one names
nothing sold, the question is left to the item's details.
"""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.models.scripted import browse, naming, words
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.planner import Decision, Planner
from commerce_agent.operations.base import money_text

_ARTICLE = r"(?:(?:the|a|an|your|le|la|les|l'|un|une|des|du)\s*)?"
_END = r"\s*[?？!.]*\s*$"
_ASKED = (
    re.compile(rf"\bdifferences? (?:between|entre) {_ARTICLE}(?P<a>.+?) (?:and|et) "
               rf"{_ARTICLE}(?P<b>.+?){_END}"),
    re.compile(rf"\b(?:compare|comparer?) {_ARTICLE}(?P<a>.+?) (?:and|with|to|et|avec|a) "
               rf"{_ARTICLE}(?P<b>.+?){_END}"),
    re.compile(rf"\bhow (?:is|does|do) {_ARTICLE}(?P<a>.+?) differ from {_ARTICLE}(?P<b>.+?)"
               rf"{_END}"),
    re.compile(rf"^(?:what about |and )?{_ARTICLE}(?P<a>[\w' -]+?) (?:vs\.?|versus) "
               rf"{_ARTICLE}(?P<b>.+?){_END}"),
    re.compile(r"(?P<a>[^、。？?とは]+)と(?P<b>[^、。？?とは]+?)(?:の|って|は)?(?:違い|ちがい|差)"),
)


def asked(text: str) -> tuple[str, str] | None:
    """The two things a question compares, each in its own words, else None."""
    folded = words.fold(text)
    for pattern in _ASKED:
        found = pattern.search(folded)
        if found is None:
            continue
        first, second = found.group("a").strip(), found.group("b").strip()
        if " " not in first and " " in second and not words.re_japanese(second):
            first = f"{first} {second.rsplit(' ', 1)[1]}"  # "standard and express shipping"
        if first and second and first != second:
            return first, second
    return None


def answer(p: Planner) -> Decision | None:
    """Both things' prices and first sentences, once each is found; None when the question
    compares nothing, or not two items."""
    pair = asked(p.frame.last)
    if pair is None:
        return None
    store = p.mentioned_store() or p.state.store
    found: list[dict[str, Any] | None] = []
    for phrase, other in (pair, pair[::-1]):
        call = p.state.done("search_products", query=phrase)
        if call is None:
            return p.call("search_products", query=phrase, limit=5, availableOnly=False,
                          **({"storeId": store} if store else {}))
        results = call.result.get("results", []) if isinstance(call.result, dict) else []
        found.append(_meant(results, phrase, other))
    first, second = found
    if first is not None and second is not None and first.get("itemId") == second.get("itemId"):
        # one item's own versions ("ceremonial and culinary matcha"): its details list them
        item_id = str(first["itemId"])
        if item_id not in p.state.details:
            return p.call("get_item", itemId=item_id)
        return browse.describe(p, p.state.items[item_id])
    stop = "。" if p.lang == "ja" else "."
    return " ".join(_line(item, stop) if item is not None else
                    say(p.lang, "not_found", query=phrase)
                    for item, phrase in zip(found, pair, strict=True))


def _meant(results: list[dict[str, Any]], phrase: str, other: str) -> dict[str, Any] | None:
    """The result a side of the comparison names, by the words that set it apart ("ceremonial
    matcha" from "culinary matcha": an item named "matcha" alone is neither): in its name,
    else in its description ("hojicha" is the roasted stem tea's)."""
    said = (naming.wanted(phrase) - naming.wanted(other)) or naming.wanted(phrase)
    named = [item for item in results if naming.name_score(item, said) > 0]
    if named:
        return max(named, key=lambda item: naming.name_score(item, said))
    return next((item for item in results if any(
        word in words.fold(str(item.get("description", ""))) for word in said)), None)


def _line(item: dict[str, Any], stop: str) -> str:
    about = re.split(r"(?<=[.!?。])\s*", str(item.get("description", "")).strip())[0]
    about = about.rstrip(".。")
    text = f"{item.get('name')}: {money_text(item.get('price'))}{stop}"
    return f"{text} {about}{stop}" if about else text
