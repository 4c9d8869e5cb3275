"""SQL for the merchant's view of orders and returns: those of its stores, filtered."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from commerce_agent.db import Database, Transaction


def _in(name: str, values: Sequence[str]) -> tuple[str, dict[str, str]]:
    params = {f"{name}{index}": value for index, value in enumerate(values)}
    return ", ".join(f":{key}" for key in params) or "NULL", params


async def orders(db: Database, store_ids: Sequence[str], status: str | None, limit: int,
                 offset: int) -> tuple[list[sqlite3.Row], int]:
    """Orders of the stores, newest first, with the total matching."""
    stores, params = _in("s", store_ids)
    where = f"store_id IN ({stores}) AND (:status IS NULL OR status = :status)"
    query = {**params, "status": status, "limit": limit, "offset": offset}
    rows = await db.fetch_all(
        f"SELECT id, store_id, doc FROM orders WHERE {where} "
        "ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset", query)
    total = await db.fetch_one(f"SELECT COUNT(*) AS n FROM orders WHERE {where}", query)
    return rows, int(total["n"]) if total else 0


async def order_store(db: Database | Transaction, order_id: str) -> str | None:
    row = await db.fetch_one("SELECT store_id FROM orders WHERE id = :id", {"id": order_id})
    return None if row is None else str(row["store_id"])


async def returns(db: Database, store_ids: Sequence[str], status: str | None, limit: int,
                  offset: int) -> tuple[list[sqlite3.Row], int]:
    stores, params = _in("s", store_ids)
    where = (f"orders.store_id IN ({stores}) AND "
             "(:status IS NULL OR returns.status = :status)")
    query = {**params, "status": status, "limit": limit, "offset": offset}
    rows = await db.fetch_all(
        "SELECT returns.id, returns.doc, orders.store_id FROM returns "
        f"JOIN orders ON orders.id = returns.order_id WHERE {where} "
        "ORDER BY returns.created_at DESC, returns.id DESC LIMIT :limit OFFSET :offset", query)
    total = await db.fetch_one(
        "SELECT COUNT(*) AS n FROM returns JOIN orders ON orders.id = returns.order_id "
        f"WHERE {where}", query)
    return rows, int(total["n"]) if total else 0


async def return_store(db: Database | Transaction, return_id: str) -> str | None:
    row = await db.fetch_one(
        "SELECT orders.store_id FROM returns JOIN orders ON orders.id = returns.order_id "
        "WHERE returns.id = :id", {"id": return_id})
    return None if row is None else str(row["store_id"])
