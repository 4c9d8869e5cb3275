"""SQL for the order-updates journal (table order_events)."""

from __future__ import annotations

import sqlite3
from typing import Any

from commerce_agent.db import Database, Transaction


async def append(tx: Transaction, event: dict[str, Any], *, first: bool = False) -> int:
    """Store the order's next event (`first`: of a new order, so number 1); returns its
    per-order sequence number (1, 2, …)."""
    seq = 1
    if not first:
        row = await tx.fetch_one("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM order_events "
                                 "WHERE order_id = :order_id", event)
        assert row is not None
        seq = int(row["seq"])
    await tx.execute(
        "INSERT INTO order_events (order_id, seq, owner_id, status, patch, created_at) "
        "VALUES (:order_id, :seq, :owner_id, :status, :patch, :at)", {**event, "seq": seq})
    return seq


async def snapshot(db: Database, order_id: str, owner_id: str) -> sqlite3.Row | None:
    """The order's document and its latest event's seq, read in one statement (consistent)."""
    return await db.fetch_one(
        "SELECT o.doc, o.status, (SELECT COALESCE(MAX(e.seq), 0) FROM order_events e "
        "WHERE e.order_id = o.id) AS seq FROM orders o WHERE o.id = :id AND o.owner_id = :owner",
        {"id": order_id, "owner": owner_id})


async def after(db: Database, order_id: str, seq: int, limit: int) -> list[sqlite3.Row]:
    """The order's events after `seq`, oldest first."""
    return await db.fetch_all(
        "SELECT seq, status, patch FROM order_events WHERE order_id = :order_id "
        "AND seq > :seq ORDER BY seq LIMIT :limit",
        {"order_id": order_id, "seq": seq, "limit": limit})


async def last_id(db: Database) -> int:
    row = await db.fetch_one("SELECT COALESCE(MAX(id), 0) AS id FROM order_events")
    return int(row["id"]) if row else 0


async def since(db: Database, last: int, limit: int) -> list[sqlite3.Row]:
    """Every order's events committed after the global id `last`, in commit order."""
    return await db.fetch_all(
        "SELECT id, order_id, seq, status, patch FROM order_events WHERE id > :last "
        "ORDER BY id LIMIT :limit", {"last": last, "limit": limit})
