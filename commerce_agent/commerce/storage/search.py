"""SQL for product search: FTS5 and bm25 on SQLite, tsvector and ts_rank on PostgreSQL (each
backend's migration 0009 keeps its index current).

A search term is a list of alternatives, `(word, prefix)`: items matching any of them match
the term. Each backend turns them into its own query: FTS5 strings (commerce/search/terms.py
quotes them) or a tsquery built from bound parameters.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from commerce_agent.commerce.search import terms
from commerce_agent.db import Database

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


def _tsquery(alternatives: Alternatives) -> tuple[str, dict[str, str]]:
    """A tsquery expression of bound words (OR of each), and its parameters."""
    parts, params = [], {}
    for index, (word, prefix) in enumerate(alternatives):
        params[f"w{index}"] = word
        parts.append(f"to_tsquery('commerce_search', quote_literal(:w{index}) || ':*')"
                     if prefix else f"phraseto_tsquery('commerce_search', :w{index})")
    return "(" + " || ".join(parts) + ")", params


async def matching_item_ids(db: Database, alternatives: Alternatives) -> set[str]:
    """Ids of the items matching any of the alternatives."""
    if db.dialect == "postgresql":
        query, params = _tsquery(alternatives)
        rows = await db.fetch_all(
            f"SELECT item_id FROM item_search WHERE document @@ {query}", params)
    else:
        rows = await db.fetch_all(
            "SELECT keys.item_id FROM items_fts "
            "JOIN item_search_keys AS keys ON keys.key = items_fts.rowid "
            "WHERE items_fts MATCH :match", {"match": _fts5(alternatives)})
    return {row["item_id"] for row in rows}


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


async def ranked_items(db: Database, alternatives: Alternatives, store_id: str | None
                       ) -> list[sqlite3.Row]:
    """Active items matching any alternative with their stock rows, best `rank` (most
    negative: bm25, or ts_rank negated) first (draft and archived items are never found)."""
    if db.dialect == "postgresql":
        query, params = _tsquery(alternatives)
        ranked = (f"SELECT search.item_id, -{_TS_RANK} AS rank "
                  f"FROM item_search AS search, (SELECT {query} AS q) AS query "
                  "WHERE search.document @@ query.q")
    else:
        params = {"match": _fts5(alternatives)}
        ranked = (f"SELECT keys.item_id, {_BM25} AS rank FROM items_fts "
                  "JOIN item_search_keys AS keys ON keys.key = items_fts.rowid "
                  "WHERE items_fts MATCH :match")
    return await db.fetch_all(
        f"SELECT {_COLUMNS}, ranked.rank FROM ({ranked}) AS ranked "
        "JOIN items ON items.id = ranked.item_id "
        "JOIN stores ON stores.id = items.store_id "
        "LEFT JOIN stock ON stock.item_id = items.id "
        "WHERE items.status = 'active' AND (:store IS NULL OR items.store_id = :store) "
        "ORDER BY ranked.rank, stores.position, items.position", {**params, "store": store_id})


async def all_items(db: Database, store_id: str | None) -> list[sqlite3.Row]:
    """Every active item (an empty query), in store and catalog order, with rank 0."""
    return await db.fetch_all(
        f"SELECT {_COLUMNS}, 0.0 AS rank FROM items "
        "JOIN stores ON stores.id = items.store_id "
        "LEFT JOIN stock ON stock.item_id = items.id "
        "WHERE items.status = 'active' AND (:store IS NULL OR items.store_id = :store) "
        "ORDER BY stores.position, items.position", {"store": store_id})
