"""SQL for the order-updates journal (table order_events)."""

from __future__ import annotations

from typing import Any

from commerce_agent.db import Database, Row, Transaction


async def append(tx: Transaction, event: dict[str, Any], *, first: bool = False) -> int:
    """Store the order's next event (`first`: of a new order, so number 1); returns its
    per-order sequence number (1, 2, …). The caller holds the order's row lock (it read the
    order in this write: lifecycle.order_by_id), so the numbers of one order are given out
    one at a time, in commit order, without gaps."""
    if first:
        await tx.defer(
            "INSERT INTO order_events (order_id, seq, owner_id, status, patch, created_at) "
            "VALUES (:order_id, 1, :owner_id, :status, :patch, :at)", event)
        return 1
    row = await tx.fetch_one(
        "INSERT INTO order_events (order_id, seq, owner_id, status, patch, created_at) "
        "SELECT :order_id, COALESCE(MAX(seq), 0) + 1, :owner_id, :status, :patch, :at "
        "FROM order_events WHERE order_id = :order_id RETURNING seq", event)
    assert row is not None
    return int(row["seq"])


async def snapshot(db: Database, order_id: str, owner_id: str) -> Row | None:
    """The order's document and its latest event's seq, read in one statement (consistent)."""
    return await db.fetch_one(
        "SELECT o.doc, o.status, (SELECT COALESCE(MAX(e.seq), 0) FROM order_events e "
        "WHERE e.order_id = o.id) AS seq FROM orders o WHERE o.id = :id AND o.owner_id = :owner",
        {"id": order_id, "owner": owner_id})


async def after(db: Database, order_id: str, seq: int, limit: int) -> list[Row]:
    """The order's events after `seq`, oldest first."""
    return await db.fetch_all(
        "SELECT seq, status, patch FROM order_events WHERE order_id = :order_id "
        "AND seq > :seq ORDER BY seq LIMIT :limit",
        {"order_id": order_id, "seq": seq, "limit": limit})


async def latest_seq(db: Database, order_id: str) -> int:
    row = await db.fetch_one("SELECT COALESCE(MAX(seq), 0) AS seq FROM order_events "
                             "WHERE order_id = :order_id", {"order_id": order_id})
    return int(row["seq"]) if row else 0


async def after_each(db: Database, seen: dict[str, int], limit: int) -> list[Row]:
    """The events of each order in `seen` after the seq given for it, by order then seq.
    Per order, not by a global id: on PostgreSQL writes to different orders commit in any
    order, so a global cursor could step over an event that commits late."""
    clauses: list[str] = []
    params: dict[str, Any] = {"limit": limit}
    for index, (order_id, seq) in enumerate(seen.items()):
        clauses.append(f"(order_id = :o{index} AND seq > :s{index})")
        params[f"o{index}"], params[f"s{index}"] = order_id, seq
    if not clauses:
        return []
    return await db.fetch_all(
        "SELECT order_id, seq, status, patch FROM order_events WHERE "
        + " OR ".join(clauses) + " ORDER BY order_id, seq LIMIT :limit", params)


# The store's merchants (a bare None store has none).
_MERCHANTS = "SELECT user_id FROM store_merchants WHERE store_id = :store"


async def audience(tx: Transaction, owner_id: str, store_id: str | None, *, people: bool
                   ) -> tuple[list[Row], list[Row]]:
    """Who hears of a change of the customer's order in the store, read in one round trip on
    PostgreSQL: the active webhook subscriptions of the customer and of the store's
    merchants (id, owner_id, events; by owner), and, when `people`, those users' addresses
    and profiles (id, email, profile, merchant: whether a merchant of the store; by id)."""
    params = {"owner": owner_id, "store": store_id}
    statements: list[tuple[str, dict[str, Any]]] = [(
        "SELECT id, owner_id, events FROM webhook_subscriptions WHERE active = 1 "
        "AND deleted_at IS NULL AND (owner_id = :owner OR owner_id IN (" + _MERCHANTS + ")) "
        "ORDER BY owner_id, created_at, id", params)]
    if people:
        statements.append((
            "SELECT users.id, users.email, users.profile, EXISTS (SELECT 1 FROM store_merchants "
            "WHERE store_merchants.user_id = users.id AND store_merchants.store_id = :store) "
            "AS merchant FROM users WHERE users.id = :owner OR users.id IN (" + _MERCHANTS
            + ") ORDER BY users.id", params))
    found = await tx.fetch_each(statements)
    return found[0], (found[1] if people else [])

