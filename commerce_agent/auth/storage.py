"""SQL for accounts: users, token grants, refresh tokens, browser sessions, signing keys,
and the sign-in throttle."""

from __future__ import annotations

import secrets

from commerce_agent import clock
from commerce_agent.db import Database, Row, Transaction


async def user_by_email(db: Database, email: str) -> Row | None:
    return await db.fetch_one(
        "SELECT id, email, name, password_hash FROM users WHERE email = :email",
        {"email": email})


async def user_by_id(db: Database, user_id: str) -> Row | None:
    return await db.fetch_one("SELECT id, email, name FROM users WHERE id = :id",
                              {"id": user_id})


async def insert_user(tx: Transaction, user_id: str, email: str, name: str,
                      password_hash: str) -> bool:
    """False when the email is taken: by the unique index, so two sign-ups of one address at
    the same moment (PostgreSQL runs them at once) make one account."""
    created = await tx.execute(
        "INSERT INTO users (id, email, name, password_hash, created_at) "
        "VALUES (:id, :email, :name, :hash, :at) ON CONFLICT (email) DO NOTHING",
        {"id": user_id, "email": email, "name": name, "hash": password_hash,
         "at": clock.now_iso()})
    return created == 1


# --- token grants and refresh tokens ------------------------------------------------------

async def insert_grant(tx: Transaction, grant_id: str, user_id: str) -> None:
    await tx.execute(
        "INSERT INTO auth_grants (id, user_id, created_at) VALUES (:id, :user, :at)",
        {"id": grant_id, "user": user_id, "at": clock.now_iso()})


async def _insert_token(tx: Transaction, table: str, owner_column: str, token_hash: str,
                        owner: str, lifetime_seconds: float) -> None:
    """A token (by its hash) of `table`, owned by `owner_column` = `owner`, living
    `lifetime_seconds` from now. Both names are written in this module, never taken from
    input."""
    await tx.execute(
        f"INSERT INTO {table} (token_hash, {owner_column}, created_at, expires_at) "  # noqa: S608
        "VALUES (:hash, :owner, :at, :expires)",
        {"hash": token_hash, "owner": owner, "at": clock.now_iso(),
         "expires": clock.later_iso(lifetime_seconds)})


async def insert_refresh_token(tx: Transaction, token_hash: str, grant_id: str,
                               lifetime_seconds: float) -> None:
    await _insert_token(tx, "refresh_tokens", "grant_id", token_hash, grant_id,
                        lifetime_seconds)


async def refresh_token(tx: Transaction, token_hash: str) -> Row | None:
    """The refresh token with its grant's state and user (None when unknown)."""
    return await tx.fetch_one(
        "SELECT refresh_tokens.grant_id, refresh_tokens.expires_at, refresh_tokens.used_at, "
        "auth_grants.user_id, auth_grants.revoked_at "
        "FROM refresh_tokens JOIN auth_grants ON auth_grants.id = refresh_tokens.grant_id "
        "WHERE refresh_tokens.token_hash = :hash", {"hash": token_hash})


async def mark_refresh_used(tx: Transaction, token_hash: str) -> bool:
    changed = await tx.execute(
        "UPDATE refresh_tokens SET used_at = :at WHERE token_hash = :hash AND used_at IS NULL",
        {"at": clock.now_iso(), "hash": token_hash})
    return changed > 0


async def access_token_grant(tx: Transaction, token_hash: str) -> str | None:
    row = await tx.fetch_one("SELECT grant_id FROM tokens WHERE token_hash = :hash",
                             {"hash": token_hash})
    return None if row is None or row["grant_id"] is None else str(row["grant_id"])


async def revoke_grant(tx: Transaction, grant_id: str, reason: str) -> None:
    """Revoke a grant, every access token it issued, and (by the grant check) its refreshes."""
    now = clock.now_iso()
    await tx.execute(
        "UPDATE auth_grants SET revoked_at = :at, revoked_reason = :reason "
        "WHERE id = :id AND revoked_at IS NULL", {"at": now, "reason": reason, "id": grant_id})
    await tx.execute(
        "UPDATE tokens SET revoked_at = :at WHERE grant_id = :id AND revoked_at IS NULL",
        {"at": now, "id": grant_id})
    await tx.execute(
        "UPDATE refresh_tokens SET used_at = :at WHERE grant_id = :id AND used_at IS NULL",
        {"at": now, "id": grant_id})


# --- browser sessions ---------------------------------------------------------------------

async def insert_web_session(tx: Transaction, token_hash: str, user_id: str,
                             lifetime_seconds: float) -> None:
    await _insert_token(tx, "web_sessions", "user_id", token_hash, user_id, lifetime_seconds)


async def web_session_user(db: Database, token_hash: str) -> Row | None:
    """The user of a live (unexpired, unrevoked) browser session."""
    return await db.fetch_one(
        "SELECT users.id, users.email, users.name FROM web_sessions "
        "JOIN users ON users.id = web_sessions.user_id "
        "WHERE web_sessions.token_hash = :hash AND web_sessions.revoked_at IS NULL "
        "AND web_sessions.expires_at > :now", {"hash": token_hash, "now": clock.now_iso()})


def web_session_grant(token_hash: str) -> str:
    """The grant id of the API tokens a browser session's pages were given
    (commerce_agent/web/api_token.py); they are revoked with the session."""
    return "web:" + token_hash


async def revoke_web_session(tx: Transaction, token_hash: str) -> None:
    """End a browser session and the API tokens its pages were given."""
    now = clock.now_iso()
    await tx.execute(
        "UPDATE web_sessions SET revoked_at = :at WHERE token_hash = :hash "
        "AND revoked_at IS NULL", {"at": now, "hash": token_hash})
    await tx.execute(
        "UPDATE tokens SET revoked_at = :at WHERE grant_id = :grant AND revoked_at IS NULL",
        {"at": now, "grant": web_session_grant(token_hash)})


# --- sign-in throttle ----------------------------------------------------------------------

async def forget_ended_windows(tx: Transaction, now: str) -> None:
    await tx.execute("DELETE FROM sign_in_failures WHERE window_ends_at <= :now",
                     {"now": now})


async def count_sign_in_failure(tx: Transaction, email_hash: str, window_ends_at: str
                                ) -> Row:
    """One more failure; `window_ends_at` applies only to a new window (the first failure).
    Returns the count and window after it: one statement, so attempts made at the same moment
    (PostgreSQL runs them at once) are counted one after the other on the row's lock."""
    row = await tx.fetch_one(
        "INSERT INTO sign_in_failures (email_hash, failures, window_ends_at) "
        "VALUES (:hash, 1, :ends) "
        "ON CONFLICT (email_hash) DO UPDATE SET failures = sign_in_failures.failures + 1 "
        "RETURNING failures, window_ends_at",
        {"hash": email_hash, "ends": window_ends_at})
    assert row is not None
    return row


async def clear_sign_in_failures(tx: Transaction, email_hash: str) -> None:
    await tx.execute("DELETE FROM sign_in_failures WHERE email_hash = :hash",
                     {"hash": email_hash})


# --- signing keys -------------------------------------------------------------------------

async def signing_key(db: Database, name: str) -> str:
    """The named server secret, created (once, race-free) on first use."""
    row = await db.fetch_one("SELECT secret FROM signing_keys WHERE name = :name",
                             {"name": name})
    if row is not None:
        return str(row["secret"])
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO signing_keys (name, secret, created_at) "
            "VALUES (:name, :secret, :at) ON CONFLICT DO NOTHING",
            {"name": name, "secret": secrets.token_hex(32), "at": clock.now_iso()})
        created = await tx.fetch_one("SELECT secret FROM signing_keys WHERE name = :name",
                                     {"name": name})
    assert created is not None
    return str(created["secret"])
