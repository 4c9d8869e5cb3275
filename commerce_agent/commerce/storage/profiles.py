"""SQL for user profiles (the `profile` JSON column of `users`)."""

from __future__ import annotations

from commerce_agent.db import Database, Transaction


async def read_profile(db: Database | Transaction, user_id: str) -> bytes | None:
    """The stored profile document (JSON), or None when the user does not exist."""
    row = await db.fetch_one("SELECT profile FROM users WHERE id = :id", {"id": user_id})
    return None if row is None else str(row["profile"] or "{}").encode()


async def write_profile(tx: Transaction, user_id: str, document: bytes) -> bool:
    changed = await tx.execute("UPDATE users SET profile = :doc WHERE id = :id",
                               {"doc": document.decode(), "id": user_id})
    return changed > 0
