"""Product search across stores (dev.commerce.product.search): match, filter, sort."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from commerce_agent.commerce import money
from commerce_agent.commerce.services.catalog import StockedItem, group_rows, render_item
from commerce_agent.commerce.storage import catalog as storage
from commerce_agent.db import Database
from commerce_agent.errors import validation_error

SORTS = {"relevance", "price_asc", "price_desc", "name_asc", "name_desc"}
FULFILLMENT_TYPES = {"physical", "digital", "pickup", "hybrid"}


def words_of(query: str) -> list[str]:
    return [word for word in re.findall(r"\w+", query.lower()) if len(word) > 1][:10]


def _score(item: StockedItem, words: list[str]) -> int:
    name = str(item.doc.get("name", "")).lower()
    text = json.dumps(item.doc).lower()
    return sum(3 * (word in name) + (word in text) for word in words)


def _price(item: StockedItem) -> Decimal:
    return money.parse(item.doc["price"]["amount"])


async def search(db: Database, query: str, *, store_id: str | None, sort: str,
                 min_price: Decimal | None, max_price: Decimal | None,
                 fulfillment_type: str | None, available_only: bool,
                 locale: str | None, currency: str | None = None) -> list[dict[str, Any]]:
    """Matching items; `currency` keeps only items priced in it (prices are never converted)."""
    if sort not in SORTS:
        raise validation_error("sort", f"must be one of {', '.join(sorted(SORTS))}", sort)
    if fulfillment_type is not None and fulfillment_type not in FULFILLMENT_TYPES:
        raise validation_error("fulfillmentType", "must be physical, digital, pickup or hybrid",
                               fulfillment_type)
    words = words_of(query)
    rows = await storage.search_items(db, words, store_id)
    translations = {row["id"]: row["translations"] for row in rows}
    items = list(group_rows(rows).values())
    scored = []
    for item in items:
        score = _score(item, words) if words else 1
        if score == 0 or (available_only and not item.available):
            continue
        if fulfillment_type and item.doc.get("fulfillmentType") != fulfillment_type:
            continue
        if currency is not None and item.doc["price"]["currency"] != currency:
            continue
        if min_price is not None and _price(item) < min_price:
            continue
        if max_price is not None and _price(item) > max_price:
            continue
        scored.append((score, item))
    if sort == "relevance":
        scored.sort(key=lambda pair: -pair[0])
    elif sort in ("price_asc", "price_desc"):
        scored.sort(key=lambda pair: _price(pair[1]), reverse=sort == "price_desc")
    else:
        scored.sort(key=lambda pair: str(pair[1].doc.get("name", "")).lower(),
                    reverse=sort == "name_desc")
    results = []
    for score, item in scored:
        rendered = render_item(item, translations=translations[item.id], locale=locale)
        rendered.update({"storeId": item.store_id, "catalogId": item.catalog_id,
                         "relevance": score})
        results.append(rendered)
    return results
