"""SQL for the mail outbox (table mail_messages, migration 0014)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce_agent.commerce.storage import keyset, leases
from commerce_agent.db import Database, Row, Transaction
from commerce_agent.db.placeholders import named_list

_COLUMNS = ("id, kind, order_id, store_id, recipient_id, to_address, locale, subject, body, "
            "status, attempts, next_attempt_at, created_at, updated_at")
_LISTED = ("id, kind, order_id, store_id, recipient_id, to_address, locale, subject, body, "
           "status, attempts, last_error, created_at, sent_at")


async def recipient(tx: Transaction, user_id: str) -> Row | None:
    """The user's address and stored profile (for the saved language)."""
    return await tx.fetch_one("SELECT email, profile FROM users WHERE id = :id",
                              {"id": user_id})


async def add(tx: Transaction, message: dict[str, Any]) -> None:
    """Queue one message, in the caller's transaction (deferred: Transaction.defer)."""
    await tx.defer(
        f"INSERT INTO mail_messages ({_COLUMNS}) VALUES (:id, :kind, :order_id, :store_id, "
        ":recipient_id, :to_address, :locale, :subject, :body, 'pending', 0, :at, :at, :at)",
        message)


async def for_order(db: Database, order_id: str) -> list[Row]:
    """The messages about one order, oldest first."""
    return await db.fetch_all(
        "SELECT id, kind, store_id, recipient_id, to_address, locale, subject, body, status "
        "FROM mail_messages WHERE order_id = :order ORDER BY created_at, id",
        {"order": order_id})


MAIL_KEY = ("created_at", "id")  # newest first


async def for_stores(db: Database, store_ids: Sequence[str], limit: int, *,
                     offset: int = 0, key: Sequence[Any] | None = None,
                     backward: bool = False) -> list[Row]:
    """Up to `limit` messages about the stores' orders, newest first, after `key` (or before
    it: then oldest first); each store's read in its index range (mail_messages_by_store)."""
    return await keyset.newest_of_stores(db, f"{_LISTED} FROM mail_messages", store_ids, limit,
                                         columns=MAIL_KEY, offset=offset, key=key,
                                         backward=backward)


async def count_for_stores(db: Database, store_ids: Sequence[str], cap: int) -> int:
    if not store_ids:
        return 0
    stores, params = named_list("s", store_ids)
    row = await db.fetch_one(
        f"SELECT COUNT(*) AS n FROM (SELECT 1 FROM mail_messages WHERE store_id IN ({stores}) "
        "LIMIT :cap) AS counted", {**params, "cap": cap})
    return int(row["n"]) if row else 0


async def claim(tx: Transaction, now: str, lease_until: str, limit: int) -> list[Row]:
    """Lease up to `limit` due pending messages to this sender. PostgreSQL: rows another
    sender is claiming are skipped (FOR UPDATE SKIP LOCKED); SQLite's writer runs one claim
    at a time anyway."""
    skip_claimed = " FOR UPDATE SKIP LOCKED" if tx.dialect == "postgresql" else ""
    rows = await tx.fetch_all(
        "SELECT id, to_address, subject, body, attempts FROM mail_messages "
        "WHERE status = 'pending' AND next_attempt_at <= :now "
        "AND (locked_until IS NULL OR locked_until <= :now) "
        "ORDER BY next_attempt_at LIMIT :limit" + skip_claimed, {"now": now, "limit": limit})
    await leases.lease(tx, "mail_messages", rows, lease_until)
    return rows


async def record(tx: Transaction, outcome: dict[str, Any]) -> None:
    """The outcome of attempt `attempt` of a message: sent, pending (retry at `next`), or
    failed (no retry left)."""
    await tx.execute(
        "UPDATE mail_messages SET attempts = :attempt, status = :status, last_error = :error, "
        "next_attempt_at = :next, locked_until = NULL, updated_at = :at, "
        "sent_at = CASE WHEN :status = 'sent' THEN :at ELSE sent_at END "
        "WHERE id = :id AND attempts = :attempt - 1", outcome)


async def message(db: Database, message_id: str) -> Row | None:
    """One message, as listed."""
    return await db.fetch_one(f"SELECT {_LISTED} FROM mail_messages WHERE id = :id",
                              {"id": message_id})
