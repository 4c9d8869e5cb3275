"""SQL for product search over the FTS5 index of items (migration 0009 keeps it current)."""

from __future__ import annotations

import sqlite3

from commerce_agent.db import Database

# bm25 weight of each items_fts column, in table order: a word in the name counts most.
WEIGHTS = {"name": 10.0, "category": 4.0, "description": 2.0, "options": 1.0, "store": 1.5,
           "translated": 5.0}
_BM25 = "bm25(items_fts, {})".format(", ".join(str(weight) for weight in WEIGHTS.values()))

_COLUMNS = ("items.id, items.doc, items.store_id, items.catalog_id, stock.variant_id, "
            "stock.quantity, stores.translations")


async def matching_item_ids(db: Database, match: str) -> set[str]:
    """Ids of the items an FTS5 query expression matches."""
    rows = await db.fetch_all(
        "SELECT keys.item_id FROM items_fts "
        "JOIN item_search_keys AS keys ON keys.key = items_fts.rowid "
        "WHERE items_fts MATCH :match", {"match": match})
    return {row["item_id"] for row in rows}


async def name_words_like(db: Database, trigrams: str, limit: int = 50) -> list[str]:
    """Names, categories and options sharing most trigrams with a word (typo candidates)."""
    rows = await db.fetch_all(
        "SELECT words FROM items_trigram WHERE items_trigram MATCH :match "
        "ORDER BY rank LIMIT :limit", {"match": trigrams, "limit": limit})
    return [row["words"] for row in rows]


async def ranked_items(db: Database, match: str, store_id: str | None) -> list[sqlite3.Row]:
    """Active items matching `match` with their stock rows, best bm25 `rank` (most negative)
    first (draft and archived items are never found)."""
    params = {"match": match, "store": store_id}
    return await db.fetch_all(
        f"SELECT {_COLUMNS}, ranked.rank FROM ("
        f"  SELECT keys.item_id, {_BM25} AS rank FROM items_fts"
        "   JOIN item_search_keys AS keys ON keys.key = items_fts.rowid"
        "   WHERE items_fts MATCH :match) AS ranked "
        "JOIN items ON items.id = ranked.item_id "
        "JOIN stores ON stores.id = items.store_id "
        "LEFT JOIN stock ON stock.item_id = items.id "
        "WHERE items.status = 'active' AND (:store IS NULL OR items.store_id = :store) "
        "ORDER BY ranked.rank, stores.position, items.position", params)


async def all_items(db: Database, store_id: str | None) -> list[sqlite3.Row]:
    """Every active item (an empty query), in store and catalog order, with rank 0."""
    return await db.fetch_all(
        f"SELECT {_COLUMNS}, 0.0 AS rank FROM items "
        "JOIN stores ON stores.id = items.store_id "
        "LEFT JOIN stock ON stock.item_id = items.id "
        "WHERE items.status = 'active' AND (:store IS NULL OR items.store_id = :store) "
        "ORDER BY stores.position, items.position", {"store": store_id})
