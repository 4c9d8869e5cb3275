"""SQL of the `idempotency_keys` table: claim a key, keep or give back its result, read it.

The rules are commerce/idempotency.py's; this module only states them in SQL.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from commerce_agent import clock
from commerce_agent.db import Database, Row, Transaction


async def claim(tx: Transaction, scope: Mapping[str, str], fingerprint: str,
                retention_seconds: float) -> Row | None:
    """Take the key (`scope`: principal, method, route, key) for this write; a key whose
    earlier result expired is taken over. Returns the stored result when the key is already
    another write's (after waiting for that write to commit), else None."""
    claimed = await tx.execute(
        "INSERT INTO idempotency_keys (principal, method, route, key, fingerprint, "
        "status, headers, body, created_at) VALUES (:principal, :method, :route, :key, "
        ":fingerprint, 0, '{}', :body, :at) "
        "ON CONFLICT (principal, method, route, key) "
        "DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, headers = '{}', "
        "body = excluded.body, created_at = excluded.created_at "
        "WHERE idempotency_keys.created_at <= :since",
        {**scope, "fingerprint": fingerprint, "body": b"", "at": clock.now_iso(),
         "since": clock.later_iso(-retention_seconds)})
    if claimed:
        return None
    return await tx.fetch_one(
        "SELECT fingerprint, status, headers, body FROM idempotency_keys "
        "WHERE principal = :principal AND method = :method AND route = :route "
        "AND key = :key", scope)


async def keep(tx: Transaction, scope: Mapping[str, str], status: int,
               headers: Mapping[str, str], body: bytes) -> None:
    """Store the result under the key this write claimed."""
    await tx.execute(
        "UPDATE idempotency_keys SET status = :status, headers = :headers, body = :body "
        "WHERE principal = :principal AND method = :method AND route = :route "
        "AND key = :key",
        {**scope, "status": status, "headers": json.dumps(dict(headers)), "body": body})


async def release(tx: Transaction, scope: Mapping[str, str]) -> None:
    """Give the key back (a write that committed without a 2xx)."""
    await tx.execute("DELETE FROM idempotency_keys WHERE principal = :principal "
                     "AND method = :method AND route = :route AND key = :key", scope)


async def stored(db: Database | Transaction, scope: Mapping[str, str],
                 retention_seconds: float) -> Row | None:
    """The unexpired result kept under the key, if any (no claim)."""
    return await db.fetch_one(
        "SELECT fingerprint, status, headers, body FROM idempotency_keys "
        "WHERE principal = :principal AND method = :method AND route = :route "
        "AND key = :key AND created_at > :since",
        {**scope, "since": clock.later_iso(-retention_seconds)})
