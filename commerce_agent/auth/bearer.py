"""The bearer token of a request, and who holds it: the one place either is worked out.

Reading: `token(scope)` is the token of `Authorization: Bearer <token>` (None without an
Authorization header, "" for one that carries no bearer token), `lookup_token(scope)` the same
for a caller that only picks a default from it (no token, a malformed one or one past
MAX_TOKEN characters: None, never an error).

Keeping: every authenticated request asks who holds its token. Each process keeps the live
tokens it has read, with their users, per database (`_Kept`), for as long as the
`auth_changes` counter stands still: triggers move it with every change or removal of a token
or user row, whichever process makes it (migration 0008). So a request costs one single-row
read of the counter, and a revocation or profile change is seen by the next request, as when
every request read the rows. A write checks that counter inside its own transaction instead
(`confirm_kept`, called by commerce/writes.py for routes that take
`auth.principal.writer_principal`), and is made again after a read of the token when it
moved.
"""

from __future__ import annotations

import weakref
from typing import Any

from starlette.types import Scope

from commerce_agent import clock
from commerce_agent.auth.tokens import (
    Principal,
    TokenOwner,
    auth_version,
    defer_version_check,
    hash_token,
    read_owner,
)
from commerce_agent.db import Database, Transaction

# Issued tokens are ~50 characters; a longer one is not worth hashing for a default.
MAX_TOKEN = 200


def parse(value: str | None) -> str | None:
    """The token of an Authorization header value: None for no header, "" for a header that
    is not `Bearer <token>`."""
    if value is None:
        return None
    scheme, _, token = value.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else ""


def token(scope: Scope) -> str | None:
    """The bearer token of a request (its ASGI scope): see `parse`."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return parse(bytes(value).decode("latin-1"))
    return None


def lookup_token(scope: Scope) -> str | None:
    """The bearer token, when there is one worth looking up (at most MAX_TOKEN characters)."""
    found = token(scope)
    return found if found and len(found) <= MAX_TOKEN else None


# Live tokens kept per database at most; past it the kept ones are dropped and read again.
MAX_KEPT = 10_000


class _Kept:
    """Token owners read while the auth_changes counter stood at `version`, by token hash."""

    __slots__ = ("version", "owners")

    def __init__(self, version: int) -> None:
        self.version = version
        self.owners: dict[str, TokenOwner] = {}


_kept: weakref.WeakKeyDictionary[Database, _Kept] = weakref.WeakKeyDictionary()


async def token_owner(db: Database, token: str) -> TokenOwner | None:
    """Who holds a live token, with their profile; None for unknown, expired or revoked."""
    token_hash = hash_token(token)
    # Read before the token: a change committed after this read moves the counter past it.
    version = await auth_version(db)
    kept = None if version is None else _kept_at(db, version)
    owner = None if kept is None else kept.owners.get(token_hash)
    if owner is None:
        owner = await read_owner(db, token_hash)
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
    transaction (confirm_kept, from commerce/writes.py), checks it."""
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


class TokenChanged(Exception):
    """The auth_changes counter moved since a kept token was taken without a read: the write
    that relied on it is rolled back, and made again once the token has been read anew
    (commerce/writes.py)."""


async def confirm_kept(tx: Transaction, kept_at: int) -> None:
    """Refuse the write `tx` (TokenChanged) unless the auth_changes counter still stands at
    `kept_at`, the version a token was kept at. Read inside the write before its own
    statements, so a change committed before it is seen and one after it comes after the
    write too; deferred with a check (Transaction.defer), so on PostgreSQL it travels with
    the write's first statement and no result of that statement is used before it passed."""
    def unchanged(rows: int) -> None:
        if rows != 1:
            raise TokenChanged

    await defer_version_check(tx, kept_at, unchanged)


async def reread_owner(db: Database, state: dict[str, Any], token: str) -> TokenOwner | None:
    """After TokenChanged: who holds `token` now, read (and kept at the new counter)."""
    state.pop("token_kept_at", None)
    owner = await token_owner(db, token)
    state["token_owner"] = (token, owner)
    return owner


async def principal_for(db: Database, token: str) -> Principal | None:
    """The user a live token belongs to, or None for unknown, expired or revoked tokens."""
    owner = await token_owner(db, token)
    return None if owner is None else owner.principal
