"""SQL for the merchant's view of orders and returns: those of its stores, filtered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce_agent.commerce.storage import keyset
from commerce_agent.db import Database, Row, Transaction
from commerce_agent.db.placeholders import named_list

ORDER_KEY = ("created_at", "id")  # newest first


async def orders(db: Database, store_ids: Sequence[str], status: str | None, limit: int, *,
                 offset: int = 0, key: Sequence[Any] | None = None,
                 backward: bool = False) -> list[Row]:
    """Up to `limit` orders of the stores, newest first, after `key` (or before it: then
    oldest first). Each store's are read in its own index range (orders_by_store or
    orders_by_store_status) and the ranges merged, so a page reads at most `limit + offset`
    rows per store, however many orders the stores have."""
    filtered = " AND status = :status" if status is not None else ""
    return await keyset.newest_of_stores(db, "id, store_id, created_at, doc FROM orders",
                                         store_ids, limit, columns=ORDER_KEY, offset=offset,
                                         key=key, backward=backward, filtered=filtered,
                                         params={"status": status})


async def count_orders(db: Database | Transaction, store_ids: Sequence[str], status: str | None,
                       cap: int) -> int:
    """Orders of the stores (of `status`), counted up to `cap`."""
    stores, params = named_list("s", store_ids)
    filtered = " AND status = :status" if status is not None else ""
    row = await db.fetch_one(
        f"SELECT COUNT(*) AS n FROM (SELECT 1 FROM orders WHERE store_id IN ({stores})"
        f"{filtered} LIMIT :cap) AS counted", {**params, "status": status, "cap": cap})
    return int(row["n"]) if row else 0


async def order_store(db: Database | Transaction, order_id: str) -> str | None:
    row = await db.fetch_one("SELECT store_id FROM orders WHERE id = :id", {"id": order_id})
    return None if row is None else str(row["store_id"])


async def returns(db: Database, store_ids: Sequence[str], status: str | None, limit: int,
                  offset: int) -> tuple[list[Row], int]:
    stores, params = named_list("s", store_ids)
    where = (f"orders.store_id IN ({stores}) AND "
             "(CAST(:status AS TEXT) IS NULL OR returns.status = :status)")
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
