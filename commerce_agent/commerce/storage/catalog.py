"""SQL for stores, catalogs, items, stock and reviews."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce_agent.commerce.storage import keyset
from commerce_agent.commerce.storage.documents import document_text
from commerce_agent.db import Check, Database, Row, Transaction
from commerce_agent.db.placeholders import named_list

# Database.signal topics: an item changed (cached catalog reads are dropped), or only stock
# (cached catalog reads re-render the items whose stock moved).
CHANGED = "catalog"
STOCK_CHANGED = "stock"
# A catalog's active items: catalog order (items_active_by_catalog, migration 0012).
ITEM_KEY = ("position", "id")


async def list_stores(db: Database, limit: int, offset: int) -> tuple[list[Row], int]:
    rows = await db.fetch_all(
        "SELECT id, doc, translations, (SELECT COUNT(*) FROM stores) AS total FROM stores "
        "ORDER BY position LIMIT :limit OFFSET :offset", {"limit": limit, "offset": offset})
    total = rows[0]["total"] if rows else await count(db, "stores")
    return rows, int(total)


async def count(db: Database, table: str) -> int:
    row = await db.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")
    return int(row["n"]) if row else 0


async def get_store(db: Database | Transaction, store_id: str) -> Row | None:
    return await db.fetch_one(
        "SELECT id, currency, doc, translations FROM stores WHERE id = :id", {"id": store_id})


async def list_catalogs(db: Database, limit: int, offset: int) -> list[Row]:
    return await db.fetch_all(
        "SELECT catalogs.id, catalogs.doc, catalogs.store_id, stores.translations "
        "FROM catalogs JOIN stores ON stores.id = catalogs.store_id "
        "ORDER BY stores.position, catalogs.position LIMIT :limit OFFSET :offset",
        {"limit": limit, "offset": offset})


async def get_catalog(db: Database, catalog_id: str) -> Row | None:
    return await db.fetch_one(
        "SELECT catalogs.id, catalogs.doc, catalogs.store_id, stores.translations "
        "FROM catalogs JOIN stores ON stores.id = catalogs.store_id WHERE catalogs.id = :id",
        {"id": catalog_id})


async def catalog_items(db: Database, catalog_id: str) -> list[Row]:
    """Items of a catalog with their stock rows (one row per item and variant)."""
    return await db.fetch_all(
        "SELECT items.id, items.doc, stock.variant_id, stock.quantity FROM items "
        "LEFT JOIN stock ON stock.item_id = items.id "
        "WHERE items.catalog_id = :catalog AND items.status = 'active' ORDER BY items.position",
        {"catalog": catalog_id})


async def catalog_items_page(db: Database, catalog_id: str, limit: int, *, offset: int = 0,
                             key: Sequence[Any] | None = None, backward: bool = False
                             ) -> list[Row]:
    """Up to `limit` active items of a catalog after `key` (or before it: then in reverse),
    with their stock rows (one row per item and stock row), read in the index."""
    condition, order, params = keyset.window(ITEM_KEY, key, backward, descending=False)
    return await db.fetch_all(
        "SELECT items.id, items.position, items.doc, stock.variant_id, stock.quantity FROM "
        "(SELECT id, position, doc FROM items WHERE catalog_id = :catalog "
        f"AND status = 'active'{condition} ORDER BY {order} LIMIT :limit OFFSET :offset) "
        "AS items LEFT JOIN stock ON stock.item_id = items.id "
        f"ORDER BY {', '.join('items.' + part for part in order.split(', '))}",
        {"catalog": catalog_id, "limit": limit, "offset": offset, **params})


async def count_catalog_items(db: Database, catalog_id: str, cap: int) -> int:
    """A catalog's active items, counted up to `cap`."""
    row = await db.fetch_one(
        "SELECT COUNT(*) AS n FROM (SELECT 1 FROM items WHERE catalog_id = :catalog "
        "AND status = 'active' ORDER BY position, id LIMIT :cap) AS counted",
        {"catalog": catalog_id, "cap": cap})
    return int(row["n"]) if row else 0


async def catalog_stock(db: Database, catalog_id: str) -> list[Row]:
    """The stock rows (`item_id`, `variant_id`, `quantity`) of a catalog's active items."""
    return await db.fetch_all(
        "SELECT stock.item_id, stock.variant_id, stock.quantity FROM items "
        "JOIN stock ON stock.item_id = items.id "
        "WHERE items.catalog_id = :catalog AND items.status = 'active'", {"catalog": catalog_id})


def items_with_stock_statement(item_ids: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The statement of `items_with_stock`, to send beside others (Transaction.fetch_each)."""
    placeholders, params = named_list("i", item_ids)
    return ("SELECT items.id, items.doc, items.store_id, items.catalog_id, stock.variant_id, "
            "stock.quantity FROM items LEFT JOIN stock ON stock.item_id = items.id "
            f"WHERE items.id IN ({placeholders}) AND items.status = 'active' "
            "ORDER BY items.position", params)


async def items_with_stock(db: Database | Transaction, item_ids: Sequence[str]
                           ) -> list[Row]:
    return await db.fetch_all(*items_with_stock_statement(item_ids))


# The ids a statement is asked about, bound as one JSON array: one parameter however many
# (binding 50,000 named parameters took seconds), read as rows by each backend.
_IDS = {"sqlite": "SELECT value AS item_id FROM json_each(:ids)",
        "postgresql": "SELECT value AS item_id FROM jsonb_array_elements_text(CAST(:ids AS jsonb))"}


def _ids(item_ids: Sequence[str]) -> str:
    return document_text(list(item_ids))


# Each item asked about, probed in order_lines_by_owner_item for the owner's first order of it
# that is neither pending nor cancelled. PostgreSQL says so with LATERAL … LIMIT 1: left to
# itself, for a few hundred items it may read every line the owner has instead.
_PURCHASED = {
    "sqlite": f"SELECT asked.item_id FROM ({_IDS['sqlite']}) AS asked WHERE EXISTS ("
              "SELECT 1 FROM order_lines JOIN orders ON orders.id = order_lines.order_id "
              "WHERE order_lines.owner_id = :owner AND order_lines.item_id = asked.item_id "
              "AND orders.status NOT IN ('pending', 'cancelled'))",
    "postgresql": f"SELECT asked.item_id FROM ({_IDS['postgresql']}) AS asked "
                  "CROSS JOIN LATERAL (SELECT 1 FROM order_lines "
                  "JOIN orders ON orders.id = order_lines.order_id "
                  "WHERE order_lines.owner_id = :owner AND order_lines.item_id = asked.item_id "
                  "AND orders.status NOT IN ('pending', 'cancelled') LIMIT 1) AS bought",
}


async def purchased_item_ids(db: Database, owner_id: str, item_ids: Sequence[str]) -> set[str]:
    """Which of the items the owner has bought (in an order neither pending nor cancelled):
    one index probe per item, which stops at its first such order however many there are."""
    if not item_ids:
        return set()
    rows = await db.fetch_all(_PURCHASED[db.dialect],
                              {"owner": owner_id, "ids": _ids(item_ids)})
    return {row["item_id"] for row in rows}


async def reviewed_item_ids(db: Database, owner_id: str, item_ids: Sequence[str]) -> set[str]:
    if not item_ids:
        return set()
    rows = await db.fetch_all(
        f"SELECT asked.item_id FROM ({_IDS[db.dialect]}) AS asked "
        "JOIN reviews ON reviews.item_id = asked.item_id AND reviews.owner_id = :owner",
        {"owner": owner_id, "ids": _ids(item_ids)})
    return {row["item_id"] for row in rows}


async def insert_review(tx: Transaction, review: dict[str, object]) -> bool:
    changed = await tx.execute(
        "INSERT INTO reviews (id, item_id, owner_id, rating, comment, created_at) "
        "VALUES (:id, :itemId, :ownerId, :rating, :comment, :createdAt) "
        "ON CONFLICT DO NOTHING", review)
    return changed > 0


async def item_reviews(db: Database, item_id: str) -> list[Row]:
    return await db.fetch_all(
        "SELECT id, rating, comment, created_at FROM reviews WHERE item_id = :item "
        "ORDER BY created_at", {"item": item_id})


async def decrement_stock(tx: Transaction, item_id: str, variant_id: str, quantity: int) -> bool:
    """Take `quantity` units if that many are on hand; False when stock would go negative.

    Items without a stock row are unlimited, so they always succeed.
    """
    changed = await tx.execute(
        "UPDATE stock SET quantity = quantity - :qty "
        "WHERE item_id = :item AND variant_id = :variant AND quantity >= :qty",
        {"qty": quantity, "item": item_id, "variant": variant_id})
    if changed:
        tx.notify(STOCK_CHANGED)
        return True
    row = await tx.fetch_one(
        "SELECT 1 FROM stock WHERE item_id = :item AND variant_id = :variant",
        {"item": item_id, "variant": variant_id})
    return row is None


async def take_stock(tx: Transaction, item_id: str, variant_id: str, quantity: int, *,
                     counted: bool, check: Check) -> None:
    """`decrement_stock` for a write that read the item's stock rows already (`counted`:
    it had one), deferred with `check` (Transaction.defer), which gets 1 when it holds: the
    conditional UPDATE took the units of a counted item, or an uncounted one still has no
    row (0 then: sold out, or counted since; refuse the write). On PostgreSQL an order's
    stock statements then travel together, in one round trip."""
    params = {"qty": quantity, "item": item_id, "variant": variant_id}
    if counted:
        tx.notify(STOCK_CHANGED)
        await tx.defer("UPDATE stock SET quantity = quantity - :qty "
                       "WHERE item_id = :item AND variant_id = :variant AND quantity >= :qty",
                       params, check=check)
        return
    await tx.defer("SELECT 1 AS uncounted WHERE NOT EXISTS (SELECT 1 FROM stock "
                   "WHERE item_id = :item AND variant_id = :variant)", params, check=check)


async def restock(tx: Transaction, item_id: str, variant_id: str, quantity: int) -> None:
    await tx.execute(
        "UPDATE stock SET quantity = quantity + :qty "
        "WHERE item_id = :item AND variant_id = :variant",
        {"qty": quantity, "item": item_id, "variant": variant_id})
    tx.notify(STOCK_CHANGED)
