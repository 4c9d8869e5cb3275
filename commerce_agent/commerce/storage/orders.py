"""SQL for orders and their lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce_agent.commerce.storage import keyset
from commerce_agent.commerce.storage.documents import document_text
from commerce_agent.db import Database, Row, Transaction, locking


async def insert_order(tx: Transaction, owner_id: str, doc: dict[str, Any]) -> None:
    # Deferred: on PostgreSQL they travel with the write's next statement.
    await tx.defer(
        "INSERT INTO orders (id, owner_id, store_id, status, cart_id, doc, created_at, "
        "updated_at) VALUES (:id, :owner, :store, :status, :cart, :doc, :at, :at)",
        {"id": doc["id"], "owner": owner_id, "store": doc["storeId"], "status": doc["status"],
         "cart": doc.get("cartId"), "doc": document_text(doc), "at": doc["createdAt"]})
    for line in doc["items"]:
        await tx.defer(
            "INSERT INTO order_lines (order_id, line_id, owner_id, item_id, variant_id, "
            "quantity) VALUES (:order, :line, :owner, :item, :variant, :qty)",
            {"order": doc["id"], "line": line["id"], "owner": owner_id,
             "item": line["itemId"], "variant": line.get("variantId", ""),
             "qty": line["quantity"]})


async def insert_orders(tx: Transaction, owner_id: str, docs: Sequence[dict[str, Any]]) -> None:
    """Many orders at once, each as `insert_order` writes it (seeding data, benches): one
    batch of rows per statement."""
    await tx.execute_many(
        "INSERT INTO orders (id, owner_id, store_id, status, cart_id, doc, created_at, "
        "updated_at) VALUES (:id, :owner, :store, :status, :cart, :doc, :at, :at)",
        [{"id": doc["id"], "owner": owner_id, "store": doc["storeId"], "status": doc["status"],
          "cart": doc.get("cartId"), "doc": document_text(doc), "at": doc["createdAt"]}
         for doc in docs])
    await tx.execute_many(
        "INSERT INTO order_lines (order_id, line_id, owner_id, item_id, variant_id, quantity) "
        "VALUES (:order, :line, :owner, :item, :variant, :qty)",
        [{"order": doc["id"], "line": line["id"], "owner": owner_id, "item": line["itemId"],
          "variant": line.get("variantId", ""), "qty": line["quantity"]}
         for doc in docs for line in doc["items"]])


async def get_order(db: Database | Transaction, order_id: str, owner_id: str
                    ) -> Row | None:
    """The order; in a write its row stays locked until the write ends (see
    lifecycle.order_by_id)."""
    return await db.fetch_one(
        "SELECT id, owner_id, status, doc FROM orders WHERE id = :id AND owner_id = :owner"
        + locking(db), {"id": order_id, "owner": owner_id})


ORDER_KEY = ("created_at", "id")  # GET /orders: newest first


async def list_orders(db: Database, owner_id: str, status: str | None, limit: int, *,
                      offset: int = 0, key: Sequence[Any] | None = None,
                      backward: bool = False) -> list[Row]:
    """Up to `limit` of the owner's orders, newest first, after `key` (or before it:
    then oldest first), read in orders_by_owner or orders_by_owner_status."""
    condition, order, params = keyset.window(ORDER_KEY, key, backward, descending=True)
    where = "owner_id = :owner" + (" AND status = :status" if status is not None else "")
    return await db.fetch_all(
        f"SELECT id, status, created_at, doc FROM orders WHERE {where}{condition} "
        f"ORDER BY {order} LIMIT :limit OFFSET :offset",
        {"owner": owner_id, "status": status, "limit": limit, "offset": offset, **params})


async def count_orders(db: Database, owner_id: str, status: str | None, cap: int) -> int:
    """The owner's orders (of `status`), counted up to `cap`."""
    where = "owner_id = :owner" + (" AND status = :status" if status is not None else "")
    row = await db.fetch_one(
        f"SELECT COUNT(*) AS n FROM (SELECT 1 FROM orders WHERE {where} "
        "ORDER BY created_at, id LIMIT :cap) AS counted",
        {"owner": owner_id, "status": status, "cap": cap})
    return int(row["n"]) if row else 0


async def save_doc(tx: Transaction, doc: dict[str, Any]) -> None:
    await tx.defer(
        "UPDATE orders SET status = :status, doc = :doc, updated_at = :at WHERE id = :id",
        {"status": doc["status"], "doc": document_text(doc), "at": doc["updatedAt"],
         "id": doc["id"]})


# A customer's orders in a store (not cancelled) that used a promotion code, read from each
# order's applied promotions; the store's orders of one owner are read in orders_by_owner.
_CODE_USES = {
    "sqlite": "SELECT COUNT(*) AS n FROM orders, json_each(orders.doc, "
              "'$.metadata.\"dev.commerce.order.applied_promotions\".promotions') AS used "
              "WHERE orders.owner_id = :owner AND orders.store_id = :store "
              "AND orders.status <> 'cancelled' AND json_extract(used.value, '$.code') = :code",
    "postgresql": "SELECT COUNT(*) AS n FROM orders CROSS JOIN LATERAL jsonb_array_elements("
                  "COALESCE(orders.doc::jsonb #> "
                  "'{metadata,dev.commerce.order.applied_promotions,promotions}', "
                  "'[]'::jsonb)) AS used "
                  "WHERE orders.owner_id = :owner AND orders.store_id = :store "
                  "AND orders.status <> 'cancelled' AND used.value ->> 'code' = :code",
}


async def promotion_uses(db: Database | Transaction, owner_id: str, store_id: str, code: str
                         ) -> int:
    """How many of the owner's orders in the store (not cancelled) used the code.

    In a write on PostgreSQL the count is made under a transaction-scoped advisory lock of
    (owner, store, code), taken by the statement before it: concurrent writes of one
    customer with one code take turns from the count to their COMMIT, and under READ
    COMMITTED the second counts after the first committed, so a `perUserLimit` holds
    however many processes place orders. Other customers, and other codes, do not wait.
    (SQLite's writer already runs writes one at a time.)"""
    params = {"owner": owner_id, "store": store_id, "code": code}
    if isinstance(db, Transaction) and db.dialect == "postgresql":
        await db.defer("SELECT pg_advisory_xact_lock(hashtextextended("
                       "'promotion_uses:' || :owner || ':' || :store || ':' || :code, 0))",
                       params)
    row = await db.fetch_one(_CODE_USES[db.dialect], params)
    return int(row["n"]) if row else 0
