"""SQL that changes stores, catalogs, items, stock and promotions (seed, import, admin API).

Every function runs inside the caller's transaction; `commerce.shop.writes` decides what to
write and tells caches and webhooks. Reads that only the writers need live here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from commerce_agent import clock
from commerce_agent.commerce.capability_ids import PRODUCT_RICH_INFO
from commerce_agent.commerce.storage import keyset
from commerce_agent.commerce.storage.documents import document_text
from commerce_agent.db import Database, Row, Transaction, locking
from commerce_agent.db.dialect import json_text

RICH_INFO_SLUG = ("metadata", PRODUCT_RICH_INFO, "seo", "slug")


async def _next_position(tx: Transaction, table: str, where: str, params: dict[str, Any]
                         ) -> int:
    row = await tx.fetch_one(
        f"SELECT COALESCE(MAX(position) + 1, 0) AS n FROM {table} WHERE {where}", params)
    return int(row["n"]) if row else 0


# --- stores -----------------------------------------------------------------------------------

async def insert_store(tx: Transaction, store_id: str, currency: str, doc: dict[str, Any],
                       translations: dict[str, Any], position: int | None = None) -> None:
    if position is None:
        position = await _next_position(tx, "stores", "1 = 1", {})
    await tx.execute(
        "INSERT INTO stores (id, position, currency, doc, translations) "
        "VALUES (:id, :position, :currency, :doc, :translations)",
        {"id": store_id, "position": position, "currency": currency, "doc": document_text(doc),
         "translations": document_text(translations)})


async def save_store_doc(tx: Transaction, store_id: str, doc: dict[str, Any]) -> None:
    await tx.execute("UPDATE stores SET doc = :doc WHERE id = :id",
                     {"doc": document_text(doc), "id": store_id})


async def set_store_currency(tx: Transaction, store_id: str, currency: str) -> None:
    await tx.execute("UPDATE stores SET currency = :currency WHERE id = :id",
                     {"currency": currency, "id": store_id})


async def store_ids_named(tx: Transaction | Database, name: str) -> list[str]:
    rows = await tx.fetch_all(
        f"SELECT id FROM stores WHERE {json_text(tx.dialect, 'doc', 'name')} = :name "
        "ORDER BY position",
        {"name": name})
    return [str(row["id"]) for row in rows]


async def id_taken(tx: Transaction, table: str, row_id: str) -> bool:
    assert table in ("stores", "catalogs", "items")
    row = await tx.fetch_one(f"SELECT 1 FROM {table} WHERE id = :id", {"id": row_id})
    return row is not None


# --- merchants --------------------------------------------------------------------------------

async def link_merchant(tx: Transaction, store_id: str, user_id: str) -> None:
    await tx.execute(
        "INSERT INTO store_merchants (store_id, user_id, created_at) "
        "VALUES (:store, :user, :at) ON CONFLICT DO NOTHING",
        {"store": store_id, "user": user_id, "at": clock.now_iso()})


async def merchant_store_ids(db: Database | Transaction, user_id: str) -> list[str]:
    rows = await db.fetch_all(
        "SELECT store_merchants.store_id FROM store_merchants "
        "JOIN stores ON stores.id = store_merchants.store_id "
        "WHERE store_merchants.user_id = :user ORDER BY stores.position", {"user": user_id})
    return [str(row["store_id"]) for row in rows]


async def store_merchant_ids(tx: Transaction, store_id: str) -> list[str]:
    rows = await tx.fetch_all(
        "SELECT user_id FROM store_merchants WHERE store_id = :store ORDER BY user_id",
        {"store": store_id})
    return [str(row["user_id"]) for row in rows]


async def user_role(db: Database | Transaction, user_id: str) -> str | None:
    row = await db.fetch_one("SELECT role FROM users WHERE id = :id", {"id": user_id})
    return None if row is None else str(row["role"])


async def set_user_role(tx: Transaction, user_id: str, role: str) -> None:
    await tx.execute("UPDATE users SET role = :role WHERE id = :id", {"role": role, "id": user_id})


# --- catalogs ---------------------------------------------------------------------------------

async def catalog_row(db: Database | Transaction, catalog_id: str) -> Row | None:
    return await db.fetch_one("SELECT id, store_id, doc FROM catalogs WHERE id = :id",
                              {"id": catalog_id})


async def store_catalog_ids(db: Database | Transaction, store_id: str) -> list[str]:
    rows = await db.fetch_all(
        "SELECT id FROM catalogs WHERE store_id = :store ORDER BY position", {"store": store_id})
    return [str(row["id"]) for row in rows]


async def upsert_catalog(tx: Transaction, catalog_id: str, store_id: str, doc: dict[str, Any]
                         ) -> bool:
    """Insert or replace the catalog's document; True when it was created."""
    changed = await tx.execute("UPDATE catalogs SET doc = :doc WHERE id = :id",
                               {"doc": document_text(doc), "id": catalog_id})
    if changed:
        return False
    position = await _next_position(tx, "catalogs", "store_id = :store", {"store": store_id})
    await tx.execute(
        "INSERT INTO catalogs (id, store_id, position, doc) VALUES (:id, :store, :pos, :doc)",
        {"id": catalog_id, "store": store_id, "pos": position, "doc": document_text(doc)})
    return True


# --- items and stock --------------------------------------------------------------------------

async def item_row(db: Database | Transaction, item_id: str) -> Row | None:
    """The item; in a write its row stays locked until the write ends, so the merchant's
    changes of one item (its document, its stock counts) take turns from their read on."""
    return await db.fetch_one(
        "SELECT id, store_id, catalog_id, status, doc FROM items WHERE id = :id" + locking(db),
        {"id": item_id})


ITEM_KEY = ("catalog_id", "position", "id")  # a store's items, in catalog order


async def store_items(db: Database | Transaction, store_id: str, status: str | None,
                      limit: int, *, offset: int = 0, key: Sequence[Any] | None = None,
                      backward: bool = False) -> list[Row]:
    """Up to `limit` of the store's items (every status unless one is given) after `key` (or
    before it: then in reverse), with their stock rows; read in items_by_store or
    items_by_store_status."""
    condition, order, params = keyset.window(ITEM_KEY, key, backward, descending=False)
    filtered = " AND status = :status" if status is not None else ""
    return await db.fetch_all(
        "SELECT items.id, items.store_id, items.catalog_id, items.position, items.status, "
        "items.doc, stock.variant_id, stock.quantity FROM "
        f"(SELECT * FROM items WHERE store_id = :store{filtered}{condition} "
        f" ORDER BY {order} LIMIT :limit OFFSET :offset) AS items "
        "LEFT JOIN stock ON stock.item_id = items.id "
        f"ORDER BY {', '.join('items.' + part for part in order.split(', '))}",
        {"store": store_id, "status": status, "limit": limit, "offset": offset, **params})


async def item_ids_by_handle(db: Database | Transaction, store_id: str) -> dict[str, str]:
    """Items of a store imported with a handle (Shopify), by handle."""
    rows = await db.fetch_all(
        f"SELECT id, handle FROM (SELECT id, {json_text(db.dialect, 'doc', *RICH_INFO_SLUG)} "
        "AS handle "
        "FROM items WHERE store_id = :store) AS handles WHERE handle IS NOT NULL",
        {"store": store_id})
    return {str(row["handle"]): str(row["id"]) for row in rows}


async def upsert_item(tx: Transaction, item: dict[str, Any], catalog_id: str, store_id: str,
                      status: str, position: int | None = None) -> bool:
    """Insert or replace the item (its document without stock); True when created."""
    doc = {key: value for key, value in item.items() if key != "stock"}
    params = {"id": item["id"], "catalog": catalog_id, "store": store_id,
              "name": item["name"], "price": item["price"]["amount"], "doc": document_text(doc),
              "status": status}
    changed = await tx.execute(
        "UPDATE items SET catalog_id = :catalog, name = :name, price = :price, doc = :doc, "
        "status = :status WHERE id = :id AND store_id = :store", params)
    if changed:
        return False
    if position is None:
        position = await _next_position(tx, "items", "catalog_id = :catalog",
                                        {"catalog": catalog_id})
    await tx.execute(
        "INSERT INTO items (id, catalog_id, store_id, position, name, price, doc, status) "
        "VALUES (:id, :catalog, :store, :position, :name, :price, :doc, :status)",
        {**params, "position": position})
    return True


async def set_item_status(tx: Transaction, item_id: str, status: str) -> None:
    await tx.execute("UPDATE items SET status = :status WHERE id = :id",
                     {"status": status, "id": item_id})


async def item_stock(db: Database | Transaction, item_id: str) -> dict[str, int]:
    rows = await db.fetch_all("SELECT variant_id, quantity FROM stock WHERE item_id = :item",
                              {"item": item_id})
    return {str(row["variant_id"]): int(row["quantity"]) for row in rows}


async def replace_stock(tx: Transaction, item_id: str, rows: list[tuple[str, int]]) -> None:
    """The item's stock rows become exactly `rows` ((variant id or '', quantity))."""
    await tx.execute("DELETE FROM stock WHERE item_id = :item", {"item": item_id})
    await tx.execute_many(
        "INSERT INTO stock (item_id, variant_id, quantity) VALUES (:item, :variant, :qty)",
        [{"item": item_id, "variant": variant, "qty": quantity} for variant, quantity in rows])


async def set_stock(tx: Transaction, item_id: str, variant_id: str, quantity: int | None
                    ) -> None:
    """Set units on hand; None makes the item (or variant) unlimited (no row)."""
    if quantity is None:
        await tx.execute("DELETE FROM stock WHERE item_id = :item AND variant_id = :variant",
                         {"item": item_id, "variant": variant_id})
        return
    await tx.execute(
        "INSERT INTO stock (item_id, variant_id, quantity) VALUES (:item, :variant, :qty) "
        "ON CONFLICT (item_id, variant_id) DO UPDATE SET quantity = excluded.quantity",
        {"item": item_id, "variant": variant_id, "qty": quantity})


async def adjust_stock(tx: Transaction, item_id: str, variant_id: str, delta: int
                       ) -> int | None:
    """Add `delta` (may be negative) in one conditional UPDATE; the new quantity, or None when
    there is no stock row or it would go below zero (nothing changed)."""
    row = await tx.fetch_one(
        "UPDATE stock SET quantity = quantity + :delta WHERE item_id = :item "
        "AND variant_id = :variant AND quantity + :delta >= 0 RETURNING quantity",
        {"delta": delta, "item": item_id, "variant": variant_id})
    return None if row is None else int(row["quantity"])


async def was_ordered(db: Database | Transaction, item_id: str) -> bool:
    row = await db.fetch_one("SELECT 1 FROM order_lines WHERE item_id = :item LIMIT 1",
                             {"item": item_id})
    return row is not None


# --- promotions -------------------------------------------------------------------------------

async def upsert_promotion(tx: Transaction, store_id: str, promotion: dict[str, Any]) -> bool:
    """Insert or replace a code (stored upper case); True when created."""
    code = str(promotion["code"]).upper()
    existed = await tx.fetch_one(
        "SELECT 1 FROM promotions WHERE store_id = :store AND code = :code",
        {"store": store_id, "code": code})
    await tx.execute(
        "INSERT INTO promotions (store_id, code, doc) VALUES (:store, :code, :doc) "
        "ON CONFLICT (store_id, code) DO UPDATE SET doc = excluded.doc",
        {"store": store_id, "code": code, "doc": document_text(promotion)})
    return existed is None


async def delete_promotion(tx: Transaction, store_id: str, code: str) -> bool:
    changed = await tx.execute(
        "DELETE FROM promotions WHERE store_id = :store AND code = :code",
        {"store": store_id, "code": code.upper()})
    return changed > 0


async def promotions(db: Database | Transaction, store_id: str) -> list[dict[str, Any]]:
    rows = await db.fetch_all(
        "SELECT doc FROM promotions WHERE store_id = :store ORDER BY code", {"store": store_id})
    return [msgspec.json.decode(row["doc"]) for row in rows]


async def catalog_items_all(db: Database | Transaction, catalog_id: str) -> list[Row]:
    """Every item of a catalog, whatever its status, with its stock rows."""
    return await db.fetch_all(
        "SELECT items.id, items.store_id, items.catalog_id, items.status, items.doc, "
        "stock.variant_id, stock.quantity FROM items "
        "LEFT JOIN stock ON stock.item_id = items.id "
        "WHERE items.catalog_id = :catalog ORDER BY items.position", {"catalog": catalog_id})


async def count_store_items(db: Database | Transaction, store_id: str, status: str | None,
                            cap: int) -> int:
    """The store's items (of `status`), counted up to `cap`."""
    filtered = " AND status = :status" if status is not None else ""
    row = await db.fetch_one(
        f"SELECT COUNT(*) AS n FROM (SELECT 1 FROM items WHERE store_id = :store{filtered} "
        "ORDER BY catalog_id, position, id LIMIT :cap) AS counted",
        {"store": store_id, "status": status, "cap": cap})
    return int(row["n"]) if row else 0


async def variant_id_taken(tx: Transaction, variant_id: str) -> bool:
    """Whether any item has a variant with this id (ids are unique across the data set)."""
    row = await tx.fetch_one(_VARIANT_ID_TAKEN[tx.dialect], {"id": variant_id})
    return row is not None


_VARIANT_ID_TAKEN = {
    "sqlite": "SELECT 1 FROM items, json_each(items.doc, "
              "'$.metadata.\"dev.commerce.product.variants\".variants') AS variant "
              "WHERE json_extract(variant.value, '$.id') = :id LIMIT 1",
    "postgresql": "SELECT 1 FROM items CROSS JOIN LATERAL (SELECT items.doc::jsonb "
                  "#> '{metadata,dev.commerce.product.variants,variants}' AS variants) AS found "
                  "CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(variants) "
                  "= 'array' THEN variants ELSE '[]' END) AS variant "
                  "WHERE variant ->> 'id' = :id LIMIT 1",
}
