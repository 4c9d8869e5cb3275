"""SQL for orders and their lines."""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec

from commerce_agent.db import Database, Transaction, locking


def _dumps(doc: dict[str, Any]) -> str:
    return msgspec.json.encode(doc).decode()


async def insert_order(tx: Transaction, owner_id: str, doc: dict[str, Any]) -> None:
    # Deferred: on PostgreSQL they travel with the write's next statement.
    await tx.defer(
        "INSERT INTO orders (id, owner_id, store_id, status, cart_id, doc, created_at, "
        "updated_at) VALUES (:id, :owner, :store, :status, :cart, :doc, :at, :at)",
        {"id": doc["id"], "owner": owner_id, "store": doc["storeId"], "status": doc["status"],
         "cart": doc.get("cartId"), "doc": _dumps(doc), "at": doc["createdAt"]})
    for line in doc["items"]:
        await tx.defer(
            "INSERT INTO order_lines (order_id, line_id, owner_id, item_id, variant_id, "
            "quantity) VALUES (:order, :line, :owner, :item, :variant, :qty)",
            {"order": doc["id"], "line": line["id"], "owner": owner_id,
             "item": line["itemId"], "variant": line.get("variantId", ""),
             "qty": line["quantity"]})


async def get_order(db: Database | Transaction, order_id: str, owner_id: str
                    ) -> sqlite3.Row | None:
    """The order; in a write its row stays locked until the write ends (see
    lifecycle.order_by_id)."""
    return await db.fetch_one(
        "SELECT id, owner_id, status, doc FROM orders WHERE id = :id AND owner_id = :owner"
        + locking(db), {"id": order_id, "owner": owner_id})


async def list_orders(db: Database, owner_id: str, status: str | None, limit: int,
                      offset: int) -> tuple[list[sqlite3.Row], int]:
    params: dict[str, Any] = {"owner": owner_id, "limit": limit, "offset": offset,
                              "status": status}
    where = "owner_id = :owner AND (:status IS NULL OR status = :status)"
    rows = await db.fetch_all(
        f"SELECT id, status, doc FROM orders WHERE {where} "
        "ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset", params)
    total = await db.fetch_one(f"SELECT COUNT(*) AS n FROM orders WHERE {where}",
                               params)
    return rows, int(total["n"]) if total else 0


async def save_doc(tx: Transaction, doc: dict[str, Any]) -> None:
    await tx.defer(
        "UPDATE orders SET status = :status, doc = :doc, updated_at = :at WHERE id = :id",
        {"status": doc["status"], "doc": _dumps(doc), "at": doc["updatedAt"], "id": doc["id"]})
