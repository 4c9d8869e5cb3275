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


async def profile_for_token(db: Database, token_hash: str, now: str) -> bytes | None:
    """The profile of the user a live (unrevoked, unexpired) token belongs to, else None.

    One primary-key lookup on `tokens` joined to `users` by primary key: it runs for every
    signed-in request that sends no Accept-Language, so it must stay this cheap.
    """
    row = await db.fetch_one(
        "SELECT users.profile FROM tokens JOIN users ON users.id = tokens.user_id "
        "WHERE tokens.token_hash = :hash AND tokens.revoked_at IS NULL "
        "AND (tokens.expires_at IS NULL OR tokens.expires_at > :now)",
        {"hash": token_hash, "now": now})
    return None if row is None else str(row["profile"] or "{}").encode()
