"""Product search across stores (dev.commerce.product.search): match, filter, rank, sort.

Matching uses the word index of migration 0009 (FTS5, or tsvector on PostgreSQL);
docs/decisions.md ("Search ranking") says how terms are resolved (stems, then prefixes, then
typo corrections) and which items are kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from commerce_agent.commerce import pagination
from commerce_agent.commerce.search import terms as search_terms
from commerce_agent.commerce.services.catalog.storefront import group_rows, render_item
from commerce_agent.commerce.storage import search as storage
from commerce_agent.db import Database, Row
from commerce_agent.errors import validation_error

SORTS = {"relevance", "price_asc", "price_desc", "name_asc", "name_desc"}
FULFILLMENT_TYPES = {"physical", "digital", "pickup", "hybrid"}
FIRST_PAGE = pagination.Page(20)


@dataclass(frozen=True)
class Found:
    """One page of results, how many there are in all (None: not known from this page), and
    the page's `pagination` object."""

    items: list[dict[str, Any]]
    total: int | None
    pagination: dict[str, Any]
    # The query's words that nothing in any catalog says, by stem, prefix or typo: they
    # narrowed nothing, so an item found is found by the other words alone.
    unmatched: tuple[str, ...] = ()


def cursor_key(db: Database) -> tuple[type, ...]:
    """The types of a search cursor's key: (tier, the item's key in the index, position)."""
    return (int, str if db.dialect == "postgresql" else int, int)


async def _resolve(db: Database, word: str) -> list[tuple[str, bool]] | None:
    """The word as written (stemmed: "mugs" finds "mug"), else as a prefix, else corrected
    to the nearest words in item names; None when nothing in the catalog resembles it. A
    word in a script without spaces is also found inside longer indexed runs (玄米茶 in
    抹茶入り玄米茶)."""
    match = [(word, False)]
    if search_terms.unspaced(word):  # 抹茶 alone, and inside 宇治抹茶 and 抹茶入り玄米茶
        match += [(found, False) for found in await storage.indexed_words_containing(db, word)
                  if found != word]
    if await storage.any_match(db, match):
        return match
    if len(word) >= 3 and await storage.any_match(db, prefix := [(word, True)]):
        return prefix
    if search_terms.typo_budget(word):
        texts = await storage.name_words_like(db, word)
        fixed = [(correction, False) for correction in search_terms.corrections(word, texts)]
        if fixed and await storage.any_match(db, fixed):
            return fixed
    return None


def _names(doc: dict[str, Any], translations: Any) -> str:
    """The item's name and description in every language its store translates it into."""
    localized = json.loads(translations) if isinstance(translations, str) else translations
    texts = [doc.get("name", ""), doc.get("description", "")]
    for locale in (localized or {}).values():
        entry = locale.get("items", {}).get(doc.get("id", ""), {}) if isinstance(
            locale, dict) else {}
        texts += [str(entry.get("name", "")), str(entry.get("description", ""))]
    return " ".join(texts)


def _validate(sort: str, fulfillment_type: str | None) -> None:
    if sort not in SORTS:
        raise validation_error("sort", f"must be one of {', '.join(sorted(SORTS))}", sort)
    if fulfillment_type is not None and fulfillment_type not in FULFILLMENT_TYPES:
        raise validation_error("fulfillmentType", "must be physical, digital, pickup or hybrid",
                               fulfillment_type)


async def search(db: Database, query: str, *, store_id: str | None, sort: str,
                 min_price: Decimal | None, max_price: Decimal | None,
                 fulfillment_type: str | None, available_only: bool,
                 locale: str | None, currency: str | None = None,
                 page: pagination.Page = FIRST_PAGE) -> Found:
    """One page of matching items; `currency` keeps only items priced in it (prices are never
    converted).

    Of the items passing the filters, only those matching the most query terms come back
    (all of them when any item has all). Matching, filtering, ranking and cutting happen in the
    database: only the page's items are read and rendered. One term by relevance is read out of
    the index a page at a time, name matches first, each page ranked by bm25 (or ts_rank) among
    its own items, with key cursors (docs/decisions.md, "Search reads a page, not every
    match"); several terms, or another order, rank every match, with offset cursors."""
    _validate(sort, fulfillment_type)
    words = search_terms.terms_of(query)
    resolved = [await _resolve(db, word) for word in words]
    found = [term for term in resolved if term]
    unmatched = tuple(word for word, term in zip(words, resolved, strict=True) if not term)
    if words and not found:
        return Found([], 0, pagination.pagination(page, 0, False), unmatched)
    filters = storage.Filters(store_id, currency, fulfillment_type, min_price, max_price,
                              available_only)
    if found and storage.pages_by_key(db, found, sort):
        keyed = await _keyed(db, found, words, filters, page, locale)
        return Found(keyed.items, keyed.total, keyed.pagination, unmatched)
    offset = page.offset
    if page.key is not None:  # a key cursor of one term, for a query that now has more
        offset = page.key[-1] + 1 if not page.backward else max(page.key[-1] - page.limit, 0)
    at = pagination.Page(page.limit, offset=offset)
    total: int | None
    if found:
        ranked = await storage.ranked_page(db, found, filters, sort, page.limit + 1, offset)
        if not ranked and offset:  # past the end: count what there is
            first = await storage.ranked_page(db, found, filters, sort, 1, 0)
        else:
            first = ranked
        total = int(first[0]["total"]) if first else 0
    else:
        ranked = await storage.browse_page(db, filters, sort, page.limit + 1, offset)
        total = pagination.total_count(
            await storage.count_browsed(db, filters, pagination.COUNT_CAP + 1))
    items = await _render(db, ranked[:page.limit], found, words, sort, locale)
    return Found(items, total, pagination.pagination(at, total, len(ranked) > page.limit),
                 unmatched)


async def _keyed(db: Database, found: list[list[tuple[str, bool]]], words: list[str],
                 filters: storage.Filters, page: pagination.Page, locale: str | None) -> Found:
    """A page of one term read in (tier, key) order: after or before a key cursor's row, or
    from the start (an offset cursor of before is served once by reading up to it)."""
    if page.key is not None:
        tier, key, position = page.key
        # A key the index could not hold: a rowid past 64 bits, a text with a NUL.
        held = 0 <= key < 2**63 if isinstance(key, int) else "\x00" not in key
        if tier not in storage.TIERS or position < 0 or not held:
            raise validation_error("cursor", "is not a cursor this server issued",
                                   list(page.key))
        rows = await storage.keyed_page(db, found[0], filters, (tier, key), page.backward,
                                        page.limit + 1)
        start = position - 1 if page.backward else position + 1
    else:
        read = await storage.keyed_page(db, found[0], filters, None, False,
                                        page.offset + page.limit + 1)
        rows, start = read[page.offset:], page.offset
    # Each row's place in the whole list: cursors carry it, so that the last page knows the
    # total without counting.
    step = -1 if page.backward else 1
    placed = [(row, max(start + step * index, 0)) for index, row in enumerate(rows)]
    total = None if page.backward or len(rows) > page.limit else \
        start + len(rows) if page.key is not None else len(read)
    kept, info = pagination.keyed(page, placed, lambda entry: (
        entry[0]["tier"], entry[0]["key"], entry[1]), total)
    # Name matches first, then each page's own rows by rank.
    ranked = sorted((row for row, _ in kept), key=lambda row: (row["tier"], row["rank"]))
    return Found(await _render(db, ranked, found, words, "relevance", locale), total, info)


async def _render(db: Database, ranked: list[Row], found: list[list[tuple[str, bool]]],
                  words: list[str], sort: str, locale: str | None) -> list[dict[str, Any]]:
    """The page's items in `ranked`'s order, rendered, each with its relevance."""
    ranks = {row["id"]: float(row["rank"]) for row in ranked}
    rows = await storage.items_of_page(db, list(ranks))
    items = group_rows(rows)
    translations = {row["id"]: row["translations"] for row in rows}
    # Japanese compounds end with what they name (宇治抹茶 is a matcha, 抹茶碗 a bowl): on a
    # page ranked by relevance, names with a compound headed by a query word come first.
    heads = [alternative for term in found for alternative, _ in term[1:]
             if any(search_terms.unspaced(word) and alternative.endswith(word) for word in words)]
    order = list(ranks)
    if heads and sort == "relevance":
        order.sort(key=lambda item_id: not any(
            head in search_terms.words_of(_names(items[item_id].doc, translations[item_id]),
                                          limit=None)
            for head in heads))
    results = []
    for item_id in order:
        rank = ranks[item_id]
        item = items[item_id]
        rendered = render_item(item, translations=translations[item_id], locale=locale)
        rendered.update({"storeId": item.store_id, "catalogId": item.catalog_id,
                         "relevance": round(-rank, 4) if found else 1})
        results.append(rendered)
    return results
