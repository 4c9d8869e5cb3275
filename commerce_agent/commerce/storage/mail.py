"""SQL for the mail outbox (table mail_messages, migration 0014)."""

from __future__ import annotations

from typing import Any

from commerce_agent.db import Database, Row, Transaction

_COLUMNS = ("id, kind, order_id, store_id, recipient_id, to_address, locale, subject, body, "
            "status, attempts, next_attempt_at, created_at, updated_at")


async def recipient(tx: Transaction, user_id: str) -> Row | None:
    """The user's address and stored profile (for the saved language)."""
    return await tx.fetch_one("SELECT email, profile FROM users WHERE id = :id",
                              {"id": user_id})


async def add(tx: Transaction, message: dict[str, Any]) -> None:
    """Queue one message, in the caller's transaction."""
    await tx.execute(
        f"INSERT INTO mail_messages ({_COLUMNS}) VALUES (:id, :kind, :order_id, :store_id, "
        ":recipient_id, :to_address, :locale, :subject, :body, 'pending', 0, :at, :at, :at)",
        message)


async def for_order(db: Database, order_id: str) -> list[Row]:
    """The messages about one order, oldest first."""
    return await db.fetch_all(
        "SELECT id, kind, store_id, recipient_id, to_address, locale, subject, body, status "
        "FROM mail_messages WHERE order_id = :order ORDER BY created_at, id",
        {"order": order_id})
