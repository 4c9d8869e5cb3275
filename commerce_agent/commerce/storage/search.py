"""SQL for product search: FTS5 and bm25 on SQLite, tsvector and ts_rank on PostgreSQL (each
backend's migration 0009 keeps its index current).

A search term is a list of alternatives, `(word, prefix)`: items matching any of them match
the term. Each backend turns them into its own query: FTS5 strings (commerce/search/terms.py
quotes them) or a tsquery built from bound parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from commerce_agent.commerce.search import terms
from commerce_agent.db import Database, Row
from commerce_agent.db.dialect import json_text
from commerce_agent.db.placeholders import named_list

Alternatives = Sequence[tuple[str, bool]]  # (word, match as a prefix)

# bm25 weight of each items_fts column, in table order: a word in the name counts most.
WEIGHTS = {"name": 10.0, "category": 4.0, "description": 2.0, "options": 1.0, "store": 1.5,
           "translated": 5.0}
_BM25 = "bm25(items_fts, {})".format(", ".join(str(weight) for weight in WEIGHTS.values()))
# ts_rank has four weights, {D, C, B, A}: options and store (D), description (C), categories
# and translations (B), name (A), in about the proportions of WEIGHTS.
_TS_RANK = "ts_rank('{0.12, 0.2, 0.45, 1.0}', search.document, query.q)"
# Typo candidates read where PostgreSQL has no pg_trgm to rank them (migration 0009).
UNRANKED_CANDIDATES = 2000

_COLUMNS = ("items.id, items.doc, items.store_id, items.catalog_id, stock.variant_id, "
            "stock.quantity, stores.translations")


def _fts5(alternatives: Alternatives) -> str:
    return " OR ".join(terms.prefix(word) if prefix else terms.phrase(word)
                       for word, prefix in alternatives)


def _tsquery(alternatives: Alternatives, name: str = "w") -> tuple[str, dict[str, str]]:
    """A tsquery expression of bound words (OR of each), and its parameters."""
    parts, params = [], {}
    for index, (word, prefix) in enumerate(alternatives):
        params[f"{name}{index}"] = word
        parts.append(f"to_tsquery('commerce_search', quote_literal(:{name}{index}) || ':*')"
                     if prefix else f"phraseto_tsquery('commerce_search', :{name}{index})")
    return "(" + " || ".join(parts) + ")", params


async def any_match(db: Database, alternatives: Alternatives) -> bool:
    """Whether any item matches any of the alternatives (the first match ends the read)."""
    if db.dialect == "postgresql":
        query, params = _tsquery(alternatives)
        row = await db.fetch_one(
            f"SELECT 1 AS found FROM item_search WHERE document @@ {query} LIMIT 1", params)
    else:
        row = await db.fetch_one("SELECT 1 AS found FROM items_fts WHERE items_fts MATCH :match "
                                 "LIMIT 1", {"match": _fts5(alternatives)})
    return row is not None


async def indexed_words_containing(db: Database, fragment: str, limit: int = 20) -> list[str]:
    """Indexed words that contain `fragment` inside them: scripts written without spaces
    (Japanese, Chinese) index a whole run of characters as one word (抹茶入り玄米茶), in
    which a shopper's shorter word (玄米茶) is found this way."""
    if db.dialect == "postgresql":
        rows = await db.fetch_all(
            "SELECT DISTINCT found.lexeme AS word FROM item_search, "
            "unnest(item_search.document) AS found WHERE strpos(found.lexeme, :fragment) > 0 "
            "LIMIT :limit", {"fragment": fragment, "limit": limit})
        return [row["word"] for row in rows]
    rows = await db.fetch_all(
        "SELECT name, category, translated FROM items_fts WHERE instr(name, :fragment) > 0 "
        "OR instr(category, :fragment) > 0 OR instr(translated, :fragment) > 0 LIMIT :limit",
        {"fragment": fragment, "limit": limit})
    texts = [" ".join(row[column] for column in ("name", "category", "translated"))
             for row in rows]
    return sorted({word for text in texts for word in terms.words_of(text, limit=None)
                   if fragment in word})[:limit]


async def name_words_like(db: Database, word: str, limit: int = 50) -> list[str]:
    """Names, categories and options sharing most trigrams with a word (typo candidates)."""
    if db.dialect == "postgresql":
        if getattr(db, "trigrams", False):
            rows = await db.fetch_all(
                "SELECT words FROM item_search ORDER BY :word <<-> words LIMIT :limit",
                {"word": word, "limit": limit})
        else:
            rows = await db.fetch_all("SELECT words FROM item_search LIMIT :limit",
                                      {"limit": UNRANKED_CANDIDATES})
    else:
        rows = await db.fetch_all(
            "SELECT words FROM items_trigram WHERE items_trigram MATCH :match "
            "ORDER BY rank LIMIT :limit", {"match": terms.trigrams(word), "limit": limit})
    return [row["words"] for row in rows]


@dataclass(frozen=True)
class Filters:
    """What an item must be to be listed, besides matching: each None is no condition."""

    store_id: str | None = None
    currency: str | None = None
    fulfillment_type: str | None = None
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    available_only: bool = False


# The item's variants: more of them than stock rows means one is not counted (available).
_VARIANT_COUNT = {
    "sqlite": "json_array_length(items.doc, "
              "'$.metadata.\"dev.commerce.product.variants\".variants')",
    "postgresql": "jsonb_array_length(items.doc::jsonb "
                  "#> '{metadata,dev.commerce.product.variants,variants}')",
}
# Prices are decimal text (items.price): compared as numbers, exactly on PostgreSQL.
_PRICE = {"sqlite": "CAST(items.price AS REAL)", "postgresql": "CAST(items.price AS NUMERIC)"}
_ORDER = {"relevance": "", "price_asc": "{price}, ", "price_desc": "{price} DESC, ",
          "name_asc": "lower(items.name), ", "name_desc": "lower(items.name) DESC, "}


def _conditions(db: Database, filters: Filters) -> tuple[str, dict[str, Any]]:
    sql: list[str] = ["items.status = 'active'"]
    params: dict[str, Any] = {}
    if filters.store_id is not None:
        sql.append("items.store_id = :store")
        params["store"] = filters.store_id
    if filters.currency is not None:
        sql.append(f"{json_text(db.dialect, 'items.doc', 'price', 'currency')} = :currency")
        params["currency"] = filters.currency
    if filters.fulfillment_type is not None:
        sql.append(f"{json_text(db.dialect, 'items.doc', 'fulfillmentType')} = :fulfillment")
        params["fulfillment"] = filters.fulfillment_type
    price = _PRICE[db.dialect]
    for name, bound, compare in (("min_price", filters.min_price, ">="),
                                 ("max_price", filters.max_price, "<=")):
        if bound is not None:
            sql.append(f"{price} {compare} :{name}")
            params[name] = bound if db.dialect == "postgresql" else float(bound)
    if filters.available_only:
        sql.append("(NOT EXISTS (SELECT 1 FROM stock WHERE stock.item_id = items.id) "
                   "OR EXISTS (SELECT 1 FROM stock WHERE stock.item_id = items.id "
                   "AND stock.quantity > 0) "
                   f"OR COALESCE({_VARIANT_COUNT[db.dialect]}, 0) > (SELECT COUNT(*) FROM stock "
                   "WHERE stock.item_id = items.id AND stock.variant_id <> ''))")
    return " AND ".join(sql), params


async def ranked_page(db: Database, terms_found: Sequence[Alternatives], filters: Filters,
                      sort: str, limit: int, offset: int) -> list[Row]:
    """One page (`id`, `rank`, `total`) of the items matching any term and passing the filters,
    keeping those matching the most terms, best `rank` (most negative: bm25, or ts_rank
    negated) first, or in `sort`'s order then by rank. Ranked and cut in the database: only
    the page's rows come back, with the count of all kept rows in each."""
    where, params = _conditions(db, filters)
    every = [alternative for term in terms_found for alternative in term]
    hits = []
    if db.dialect == "postgresql":
        query, words = _tsquery(every)
        params.update(words)
        matched = (f"SELECT search.item_id, -{_TS_RANK} AS rank "
                   f"FROM item_search AS search, (SELECT {query} AS q) AS query "
                   "WHERE search.document @@ query.q")
        for index, term in enumerate(terms_found if len(terms_found) > 1 else []):
            term_query, words = _tsquery(term, f"t{index}_")
            params.update(words)
            hits.append(f"(CASE WHEN matched.item_id IN (SELECT item_id FROM item_search "
                        f"WHERE document @@ {term_query}) THEN 1 ELSE 0 END)")
    else:
        params["match"] = _fts5(every)
        matched = (f"SELECT keys.item_id, {_BM25} AS rank FROM items_fts "
                   "JOIN item_search_keys AS keys ON keys.key = items_fts.rowid "
                   "WHERE items_fts MATCH :match")
        for index, term in enumerate(terms_found if len(terms_found) > 1 else []):
            params[f"t{index}"] = _fts5(term)
            hits.append(f"(matched.item_id IN (SELECT keys.item_id FROM items_fts "
                        "JOIN item_search_keys AS keys ON keys.key = items_fts.rowid "
                        f"WHERE items_fts MATCH :t{index}))")
    order = _ORDER[sort].format(price=_PRICE[db.dialect].replace("items.", "kept."))
    order = order.replace("items.", "kept.")
    return await db.fetch_all(
        f"WITH kept AS (SELECT items.id, items.name, items.price, matched.rank, "
        f"stores.position AS store_position, items.position, {' + '.join(hits) or '1'} AS hits "
        f"FROM ({matched}) AS matched JOIN items ON items.id = matched.item_id "
        f"JOIN stores ON stores.id = items.store_id WHERE {where}), "
        "best AS (SELECT * FROM kept WHERE hits = (SELECT max(hits) FROM kept)) "
        "SELECT id, rank, COUNT(*) OVER () AS total FROM best AS kept "
        f"ORDER BY {order}rank, store_position, position, id LIMIT :limit OFFSET :offset",
        {**params, "limit": limit, "offset": offset})


# Tiers of a term's matches, the first part of the order a page is read in (`keyed_page`).
NAME_TIER, OTHER_TIER = 0, 1  # a word of the term is in the item's name; only elsewhere
TIERS = (NAME_TIER, OTHER_TIER)


def pages_by_key(db: Database, terms_found: Sequence[Alternatives], sort: str) -> bool:
    """Whether a page of these terms is read out of the index in (tier, key) order and stops
    when full (`keyed_page`): one term, by relevance; on PostgreSQL, of whole words (a prefix
    has no postings of its own to read in order). Several terms keep only the items matching
    the most of them, and other orders sort every match: `ranked_page` does both."""
    return len(terms_found) == 1 and sort == "relevance" and (
        db.dialect == "sqlite" or not any(prefix for _, prefix in terms_found[0]))


async def keyed_page(db: Database, alternatives: Alternatives, filters: Filters,
                     after: tuple[int, Any] | None, backward: bool, limit: int) -> list[Row]:
    """Up to `limit` rows (`id`, `tier`, `key`, `rank`) of the items matching any alternative
    and passing the filters, in (tier, key) order after `after` (before it, in reverse order,
    when `backward`): the name tier first, each tier in its index's order (the FTS5 rowid, or
    the item id in migration 0017's postings). Each read stops once the page is full, so a page
    costs the same however many items match; `rank` (bm25, or ts_rank negated) is computed for
    the rows read only."""
    tiers = list(TIERS)[::-1 if backward else 1]
    if after is not None:
        tiers = tiers[tiers.index(after[0]):]
    streams = await _streams(db, alternatives) if db.dialect == "postgresql" else []
    rows: list[Row] = []
    for tier in tiers:
        bound = after[1] if after is not None and tier == after[0] else None
        if db.dialect == "postgresql":
            rows += await _postings_page(db, alternatives, streams, filters, tier, bound,
                                         backward, limit - len(rows))
        else:
            rows += await _fts5_page(db, alternatives, filters, tier, bound, backward,
                                     limit - len(rows))
        if len(rows) >= limit:
            break
    return rows


async def _fts5_page(db: Database, alternatives: Alternatives, filters: Filters, tier: int,
                     bound: int | None, backward: bool, limit: int) -> list[Row]:
    """One tier's rows on SQLite: FTS5 reads a column-filtered query in rowid order."""
    where, params = _conditions(db, filters)
    words = f"({_fts5(alternatives)})"
    match = f"{{name}} : {words}" if tier == NAME_TIER else f"{words} NOT {{name}} : {words}"
    if bound is not None:
        where += f" AND items_fts.rowid {'<' if backward else '>'} :bound"
        params["bound"] = bound
    return await db.fetch_all(
        f"SELECT keys.item_id AS id, {tier} AS tier, items_fts.rowid AS key, {_BM25} AS rank "
        "FROM items_fts JOIN item_search_keys AS keys ON keys.key = items_fts.rowid "
        f"JOIN items ON items.id = keys.item_id WHERE items_fts MATCH :match AND {where} "
        f"ORDER BY items_fts.rowid {'DESC' if backward else 'ASC'} LIMIT :limit",
        {**params, "match": match, "limit": limit})


async def _streams(db: Database, alternatives: Alternatives) -> list[tuple[str, bool]]:
    """Per alternative, the lexeme whose postings are read for it, and whether the word has
    other lexemes (a phrase: `t-shirt`), whose items are then checked against the tsvector."""
    params = {f"w{index}": word for index, (word, _) in enumerate(alternatives)}
    rows = await db.fetch_all(" UNION ALL ".join(
        f"SELECT {index} AS alternative, lexeme FROM unnest(tsvector_to_array("
        f"to_tsvector('commerce_search', :w{index}))) AS lexeme"
        for index in range(len(alternatives))), params)
    lexemes: dict[int, list[str]] = {}
    for row in rows:
        lexemes.setdefault(row["alternative"], []).append(row["lexeme"])
    # The longest of a phrase's lexemes: every one of them must be there, and a long word is
    # usually the rarest.
    return [(max(found, key=len), len(found) > 1) for found in lexemes.values()]


async def _postings_page(db: Database, alternatives: Alternatives,
                         streams: list[tuple[str, bool]], filters: Filters, tier: int,
                         bound: str | None, backward: bool, limit: int) -> list[Row]:
    """One tier's rows on PostgreSQL: each alternative's postings (migration 0017) in item
    order, merged. An item is in the name tier when the words match its name's lexemes alone
    (`ts_filter` of weight A); the tsvector is read to check that only where the postings
    cannot tell (a phrase, or an item another alternative may put in the name tier)."""
    where, params = _conditions(db, filters)
    query, words = _tsquery(alternatives)
    params.update(words)
    branches = sorted({(lexeme, posting_tier) for lexeme, phrase in streams
                       for posting_tier in ((NAME_TIER,) if tier == NAME_TIER else
                                            (NAME_TIER, OTHER_TIER) if phrase else
                                            (OTHER_TIER,))})
    if not branches:  # no word of the term is indexable: nothing can match it
        return []
    if tier == NAME_TIER:
        check = "ts_filter(search.document, '{a}') @@ query.q" if any(
            phrase for _, phrase in streams) else ""
    else:
        check = ("search.document @@ query.q AND NOT ts_filter(search.document, '{a}') "
                 "@@ query.q") if len(branches) > 1 or any(phrase for _, phrase in streams) \
            else ""
    # A correlated subquery is evaluated per candidate read, never turned into a join that
    # would read every match's tsvector.
    checked = (f" AND (SELECT {check} FROM item_search AS search, query "
               "WHERE search.item_id = terms.item_id)") if check else ""
    direction, compare = ("DESC", "<") if backward else ("ASC", ">")
    parts = []
    for index, (lexeme, posting_tier) in enumerate(branches):
        params[f"l{index}"] = lexeme
        bounded = f" AND terms.item_id {compare} :bound" if bound is not None else ""
        parts.append(
            "(SELECT terms.item_id FROM item_search_terms AS terms "
            f"JOIN items ON items.id = terms.item_id WHERE terms.lexeme = :l{index} "
            f"AND terms.tier = {posting_tier}{bounded} AND {where}{checked} "
            f"ORDER BY terms.item_id {direction} LIMIT :limit)")
    if bound is not None:
        params["bound"] = bound
    return await db.fetch_all(
        f"WITH query AS MATERIALIZED (SELECT {query} AS q) "
        f"SELECT page.item_id AS id, {tier} AS tier, page.item_id AS key, "
        f"(SELECT -{_TS_RANK} FROM item_search AS search, query "
        "WHERE search.item_id = page.item_id) AS rank "
        f"FROM ({' UNION '.join(parts)}) AS page ORDER BY page.item_id {direction} "
        "LIMIT :limit", {**params, "limit": limit})


async def browse_page(db: Database, filters: Filters, sort: str, limit: int, offset: int
                      ) -> list[Row]:
    """One page (`id`, `rank` 0) of the active items passing the filters (an empty query), in
    store and catalog order (or in `sort`'s order). Store by store, each in its own range of
    items_active_by_store, until the page is full: a page reads `limit + offset` items at most,
    however many the stores hold."""
    where, params = _conditions(db, filters)
    if sort != "relevance":  # an order of its own: every item passing the filters is sorted
        order = _ORDER[sort].format(price=_PRICE[db.dialect])
        return await db.fetch_all(
            "SELECT items.id, 0.0 AS rank FROM stores JOIN items ON items.store_id = stores.id "
            f"WHERE {where} ORDER BY {order}stores.position, stores.id, items.position, "
            "items.id LIMIT :limit OFFSET :offset", {**params, "limit": limit, "offset": offset})
    if filters.store_id is not None:
        store_ids = [filters.store_id]
    else:
        store_ids = [row["id"] for row in await db.fetch_all(
            "SELECT id FROM stores ORDER BY position, id")]
    found: list[Row] = []
    for store_id in store_ids:
        found += await db.fetch_all(
            f"SELECT items.id, 0.0 AS rank FROM items WHERE items.store_id = :shop AND {where} "
            "ORDER BY items.position, items.id LIMIT :reach",
            {**params, "shop": store_id, "reach": offset + limit - len(found)})
        if len(found) >= offset + limit:
            break
    return found[offset:]


async def count_browsed(db: Database, filters: Filters, cap: int) -> int:
    """The active items passing the filters, counted up to `cap`."""
    where, params = _conditions(db, filters)
    row = await db.fetch_one(
        f"SELECT COUNT(*) AS n FROM (SELECT 1 FROM items WHERE {where} "
        "ORDER BY store_id, position, id LIMIT :cap) AS counted",
        {**params, "cap": cap})
    return int(row["n"]) if row else 0


async def items_of_page(db: Database, item_ids: Sequence[str]) -> list[Row]:
    """The page's items with their stock rows and their store's translations."""
    placeholders, params = named_list("i", item_ids)
    return await db.fetch_all(
        f"SELECT {_COLUMNS} FROM items JOIN stores ON stores.id = items.store_id "
        "LEFT JOIN stock ON stock.item_id = items.id "
        f"WHERE items.id IN ({placeholders})", params)
