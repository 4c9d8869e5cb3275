"""Opaque bearer tokens: random strings handed out once, stored only as SHA-256 hashes.

Every authenticated request asks who holds its token. Each process keeps the live tokens it
has read, with their users, per database (`_Kept`), for as long as the `auth_changes` counter
stands still: triggers move it with every change or removal of a token or user row, whichever
process makes it (migration 0008). So a request costs one single-row read of the counter, and a
revocation or profile change is seen by the next request, as when every request read the rows.
A write reads that counter inside its own transaction instead (`still_live`, called by
commerce/writes.py for routes that take `auth.principal.writer_principal`).
"""

from __future__ import annotations

import hashlib
import secrets
import weakref
from typing import Any

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


# Live tokens kept per database at most; past it the kept ones are dropped and read again.
MAX_KEPT = 10_000


class _Kept:
    """Token owners read while the auth_changes counter stood at `version`, by token hash."""

    __slots__ = ("version", "owners")

    def __init__(self, version: int) -> None:
        self.version = version
        self.owners: dict[str, TokenOwner] = {}


_kept: weakref.WeakKeyDictionary[Database, _Kept] = weakref.WeakKeyDictionary()


async def _read_owner(db: Database | Transaction, token_hash: str) -> TokenOwner | None:
    row = await db.fetch_one(
        "SELECT users.id, users.email, users.name, users.profile, tokens.expires_at, "
        "tokens.revoked_at FROM tokens JOIN users ON users.id = tokens.user_id "
        "WHERE token_hash = :hash", {"hash": token_hash},
    )
    if row is None or row["revoked_at"] is not None:
        return None
    return TokenOwner(Principal(row["id"], row["email"], row["name"]),
                      str(row["profile"] or "{}").encode(), row["expires_at"])


async def token_owner(db: Database, token: str) -> TokenOwner | None:
    """Who holds a live token, with their profile; None for unknown, expired or revoked."""
    token_hash = hash_token(token)
    # Read before the token: a change committed after this read moves the counter past it.
    counter = await db.fetch_one("SELECT version FROM auth_changes WHERE id = 1")
    kept = None if counter is None else _kept_at(db, counter[0])
    owner = None if kept is None else kept.owners.get(token_hash)
    if owner is None:
        owner = await _read_owner(db, token_hash)
        if owner is None:
            return None  # unknown tokens are not kept: one minted later must be found
        if kept is not None:
            _keep(kept, token_hash, owner)
    return owner if _live(owner) else None


def _kept_at(db: Database, version: int) -> _Kept:
    """What is kept for `db`, emptied first when the counter has moved from its version."""
    kept = _kept.get(db)
    if kept is None or kept.version != version:
        kept = _kept[db] = _Kept(version)
    return kept


def _keep(kept: _Kept, token_hash: str, owner: TokenOwner) -> None:
    if len(kept.owners) >= MAX_KEPT:
        kept.owners.clear()
    kept.owners[token_hash] = owner


def _live(owner: TokenOwner) -> bool:
    return owner.expires_at is None or owner.expires_at > clock.now_iso()


async def remembered_owner(state: dict[str, Any], db: Database, token: str, *,
                           confirmed: bool = True) -> TokenOwner | None:
    """token_owner, read once per request (`state` is the ASGI scope's) however many parts of
    it ask: the request layer (for the locale) and the route's authentication read the same
    row.

    With confirmed=False a kept owner is taken as it was kept, with no read at all; its
    counter version stays in state["token_kept_at"] until a confirmed call, or the write
    transaction (still_live, from commerce/writes.py), checks it."""
    remembered = state.get("token_owner")
    if remembered is not None and remembered[0] == token \
            and not (confirmed and "token_kept_at" in state):
        owner: TokenOwner | None = remembered[1]
        return owner
    kept = None if confirmed else _kept.get(db)
    if kept is not None:
        owner = kept.owners.get(hash_token(token))
        if owner is not None and _live(owner):
            state["token_owner"], state["token_kept_at"] = (token, owner), kept.version
            return owner
    owner = await token_owner(db, token)
    state["token_owner"] = (token, owner)
    state.pop("token_kept_at", None)
    return owner


async def still_live(db: Database, tx: Transaction, token: str, kept_at: int,
                     user_id: str) -> bool:
    """Whether a token kept while the counter stood at `kept_at` is still live and still
    `user_id`'s, read inside `db`'s write transaction `tx` before the write's own statements:
    a change committed before it is seen, and one after it comes after the write too. When
    nothing changed that is one read of a page the writer has at hand; otherwise the token is
    read again, and kept at the new version."""
    counter = await tx.fetch_one("SELECT version FROM auth_changes WHERE id = 1")
    if counter is not None and counter[0] == kept_at:
        return True
    token_hash = hash_token(token)
    owner = await _read_owner(tx, token_hash)
    if owner is None or not _live(owner) or owner.principal.user_id != user_id:
        return False
    if counter is not None:
        _keep(_kept_at(db, counter[0]), token_hash, owner)
    return True


async def principal_for(db: Database, token: str) -> Principal | None:
    """The user a live token belongs to, or None for unknown, expired or revoked tokens."""
    owner = await token_owner(db, token)
    return None if owner is None else owner.principal


async def find_user_id(db: Database, email: str) -> str | None:
    row = await db.fetch_one("SELECT id FROM users WHERE email = :email",
                             {"email": email.strip().lower()})
    return None if row is None else str(row["id"])
