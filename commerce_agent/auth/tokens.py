"""Opaque bearer tokens: random strings handed out once, stored only as SHA-256 hashes.

This module is their storage (mint, revoke, read the holder); reading a token off a request
and keeping the holders read is auth/bearer.py's.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

import msgspec

from commerce_agent import clock
from commerce_agent.db import Database, Transaction

TOKEN_PREFIX = "cat_"  # noqa: S105 - a public prefix, not a secret


class Principal(msgspec.Struct, frozen=True):
    user_id: str
    email: str
    name: str


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def mint_token(tx: Transaction, user_id: str, kind: str,
                     lifetime_seconds: float | None = None, *,
                     grant_id: str | None = None) -> str:
    """Create a token for `user_id`; the caller sees it once, the database only its hash.

    `grant_id` ties an access token to a token-API sign-in (revoked together, see accounts).
    """
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    await tx.execute(
        "INSERT INTO tokens (token_hash, user_id, kind, created_at, expires_at, grant_id) "
        "VALUES (:hash, :user, :kind, :at, :expires, :grant)",
        {"hash": hash_token(token), "user": user_id, "kind": kind, "at": clock.now_iso(),
         "expires": clock.later_iso(lifetime_seconds) if lifetime_seconds else None,
         "grant": grant_id},
    )
    return token


async def revoke_token(tx: Transaction, token: str) -> bool:
    changed = await tx.execute(
        "UPDATE tokens SET revoked_at = :at WHERE token_hash = :hash AND revoked_at IS NULL",
        {"at": clock.now_iso(), "hash": hash_token(token)},
    )
    return changed > 0


class TokenOwner(msgspec.Struct, frozen=True):
    principal: Principal
    profile: bytes  # the user's stored profile document (JSON)
    expires_at: str | None = None


async def read_owner(db: Database | Transaction, token_hash: str) -> TokenOwner | None:
    """The user holding the token with this hash, read now (None: unknown or revoked; expiry
    is for the caller to check). auth/bearer.py keeps what it reads."""
    row = await db.fetch_one(
        "SELECT users.id, users.email, users.name, users.profile, tokens.expires_at, "
        "tokens.revoked_at FROM tokens JOIN users ON users.id = tokens.user_id "
        "WHERE token_hash = :hash", {"hash": token_hash},
    )
    if row is None or row["revoked_at"] is not None:
        return None
    return TokenOwner(Principal(row["id"], row["email"], row["name"]),
                      str(row["profile"] or "{}").encode(), row["expires_at"])


async def auth_version(db: Database | Transaction) -> int | None:
    """The auth_changes counter: moved by every change or removal of a token or user row
    (migration 0008); None without its row."""
    counter = await db.fetch_one("SELECT version FROM auth_changes WHERE id = 1")
    return None if counter is None else int(counter[0])


async def defer_version_check(tx: Transaction, version: int,
                              check: Callable[[int], None]) -> None:
    """Send, with the write's next statement, a read of the auth_changes counter that
    `check` is given the row count of: 1 while it still stands at `version`."""
    await tx.defer("SELECT 1 FROM auth_changes WHERE id = 1 AND version = :version",
                   {"version": version}, check=check)


async def find_user_id(db: Database, email: str) -> str | None:
    row = await db.fetch_one("SELECT id FROM users WHERE email = :email",
                             {"email": email.strip().lower()})
    return None if row is None else str(row["id"])
