"""Product search across stores (dev.commerce.product.search): match, filter, rank, sort.

Matching uses the word index of migration 0009 (FTS5, or tsvector on PostgreSQL);
docs/decisions.md ("Search ranking") says how terms are resolved (stems, then prefixes, then
typo corrections) and which items are kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from commerce_agent.commerce import money
from commerce_agent.commerce.search import terms as search_terms
from commerce_agent.commerce.services.catalog.storefront import StockedItem, group_rows, render_item
from commerce_agent.commerce.storage import search as storage
from commerce_agent.db import Database
from commerce_agent.errors import validation_error

SORTS = {"relevance", "price_asc", "price_desc", "name_asc", "name_desc"}
FULFILLMENT_TYPES = {"physical", "digital", "pickup", "hybrid"}


@dataclass
class _Term:
    """One query word as the words that find it ((word, as a prefix) alternatives), and the
    items it matches."""

    match: list[tuple[str, bool]]
    item_ids: set[str]
    # Items where the word heads a longer run of an unspaced script: Japanese compounds end
    # with what they name (宇治抹茶 is a matcha, 抹茶碗 a bowl), so these come first.
    heads: set[str] = field(default_factory=set)


async def _resolve(db: Database, word: str) -> _Term | None:
    """The word as written (stemmed: "mugs" finds "mug"), else as a prefix, else corrected
    to the nearest words in item names; None when nothing in the catalog resembles it. A
    word in a script without spaces is also found inside longer indexed runs (玄米茶 in
    抹茶入り玄米茶)."""
    match = [(word, False)]
    heads: set[str] = set()
    if search_terms.unspaced(word):  # 抹茶 alone, and inside 宇治抹茶 and 抹茶入り玄米茶
        longer = [found for found in await storage.indexed_words_containing(db, word)
                  if found != word]
        match += [(found, False) for found in longer]
        headed = [(found, False) for found in longer if found.endswith(word)]
        heads = await storage.matching_item_ids(db, headed) if headed else set()
    found = await storage.matching_item_ids(db, match)
    if not found and len(word) >= 3:
        match = [(word, True)]
        found = await storage.matching_item_ids(db, match)
    if not found and search_terms.typo_budget(word):
        texts = await storage.name_words_like(db, word)
        fixed = search_terms.corrections(word, texts)
        if fixed:
            match = [(correction, False) for correction in fixed]
            found = await storage.matching_item_ids(db, match)
    return _Term(match, found, heads) if found else None


def _price(item: StockedItem) -> Decimal:
    return money.parse(item.doc["price"]["amount"])


def _validate(sort: str, fulfillment_type: str | None) -> None:
    if sort not in SORTS:
        raise validation_error("sort", f"must be one of {', '.join(sorted(SORTS))}", sort)
    if fulfillment_type is not None and fulfillment_type not in FULFILLMENT_TYPES:
        raise validation_error("fulfillmentType", "must be physical, digital, pickup or hybrid",
                               fulfillment_type)


async def search(db: Database, query: str, *, store_id: str | None, sort: str,
                 min_price: Decimal | None, max_price: Decimal | None,
                 fulfillment_type: str | None, available_only: bool,
                 locale: str | None, currency: str | None = None) -> list[dict[str, Any]]:
    """Matching items; `currency` keeps only items priced in it (prices are never converted).

    Of the items passing the filters, only those matching the most query terms come back
    (all of them when any item has all), ranked by bm25."""
    _validate(sort, fulfillment_type)
    words = search_terms.terms_of(query)
    found = [term for term in [await _resolve(db, word) for word in words] if term]
    if words and not found:
        return []
    if found:
        rows = await storage.ranked_items(
            db, [alternative for term in found for alternative in term.match], store_id)
    else:
        rows = await storage.all_items(db, store_id)
    translations = {row["id"]: row["translations"] for row in rows}
    ranks = {row["id"]: float(row["rank"]) for row in rows}
    kept: list[tuple[int, StockedItem]] = []
    for item in group_rows(rows).values():
        if available_only and not item.available:
            continue
        if fulfillment_type and item.doc.get("fulfillmentType") != fulfillment_type:
            continue
        if currency is not None and item.doc["price"]["currency"] != currency:
            continue
        if min_price is not None and _price(item) < min_price:
            continue
        if max_price is not None and _price(item) > max_price:
            continue
        kept.append((sum(item.id in term.item_ids for term in found), item))
    best = max((matched for matched, _ in kept), default=0)
    items = [item for matched, item in kept if matched == best]
    items.sort(key=lambda item: -sum(item.id in term.heads for term in found))  # stable
    if sort in ("price_asc", "price_desc"):
        items.sort(key=_price, reverse=sort == "price_desc")
    elif sort in ("name_asc", "name_desc"):
        items.sort(key=lambda item: str(item.doc.get("name", "")).lower(),
                   reverse=sort == "name_desc")
    results = []
    for item in items:
        rendered = render_item(item, translations=translations[item.id], locale=locale)
        relevance = round(-ranks[item.id], 4) if found else 1
        rendered.update({"storeId": item.store_id, "catalogId": item.catalog_id,
                         "relevance": relevance})
        results.append(rendered)
    return results
