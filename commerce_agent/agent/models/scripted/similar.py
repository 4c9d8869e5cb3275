"""Something like a sold-out item, once the shopper said yes to the agent's offer to look.

Like is judged by the store's own grouping: first a search of the item's store, in stock, for
the words of its name (another bowl for a sold-out bowl); when that finds nothing else, the
other in-stock items of the item's catalog (the store's shelf it sits on). Nothing is added:
the items are listed for the shopper to choose.
"""

from __future__ import annotations

from typing import Any

from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.phrasing import numbered
from commerce_agent.agent.models.scripted.planner import Decision, Planner


def similar(p: Planner) -> Decision:
    item = p.item(p.frame.item_id)
    if item is None:
        return say(p.lang, "help")
    searched = p.state.done("search_products")
    if searched is None:
        kind = " ".join(sorted(words.content_words(str(item.get("name", "")))))
        return p.call("search_products", query=kind or str(item.get("name")), limit=8,
                      availableOnly=True,
                      **({"storeId": item["storeId"]} if item.get("storeId") else {}))
    found = _others(item, searched.result.get("results") if isinstance(searched.result, dict)
                    else None)
    listed = p.state.done("get_catalog")
    if not found and listed is None and item.get("catalogId") and p.has("get_catalog"):
        return p.call("get_catalog", catalogId=item["catalogId"])
    if not found and listed is not None and isinstance(listed.result, dict):
        found = _others(item, listed.result.get("items"))
    if not found:
        return say(p.lang, "no_similar", name=item["name"])
    return say(p.lang, "in_stock_instead", listing=numbered(found[:3]))


def _others(item: dict[str, Any], found: Any) -> list[dict[str, Any]]:
    """The in-stock items found, other than `item`."""
    if not isinstance(found, list):
        return []
    return [other for other in found if isinstance(other, dict)
            and other.get("itemId") != item.get("itemId") and other.get("available") is not False]
