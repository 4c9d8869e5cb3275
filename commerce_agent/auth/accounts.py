"""Accounts: password sign-in, registration, and the token grants of the JSON token API.

Reusable from other areas (the agent's consent page, for one):

- ``await authenticate_password(db, email, password) -> str | None`` — the user id for these
  credentials, or None. The password is checked with scrypt and a constant-time compare, and an
  unknown email costs the same scrypt run, so timing does not tell which emails exist.
  Throttled (``commerce_agent.auth.throttle``): after 5 failures for one email within 15
  minutes it raises ``CommerceError`` 429 ``too_many_attempts`` (with ``Retry-After``) until
  the window ends; callers rendering HTML catch it.
- ``await authenticate(db, email, password) -> Principal | None`` — the same, as a Principal.
- The HTML side (a sign-in form renderer with a same-origin ``next`` URL) is in
  ``commerce_agent.auth.pages``: ``sign_in_form(...)`` and ``safe_next(...)``.

Token API grants. A password sign-in (``issue_grant``) creates a grant holding one access token
(``ACCESS_TOKEN_LIFETIME`` seconds, a row of ``tokens`` with kind ``access``) and one refresh
token (``REFRESH_TOKEN_LIFETIME`` seconds). A refresh uses the refresh token up and returns a
new pair in the same grant (rotation); presenting a used refresh token again means it leaked, so
the whole grant is revoked. Signing out with an access token revokes its grant; tokens minted
outside the API (``commerce-agent token create``, demo tokens) have no grant and are revoked
alone. See docs/accounts.md.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import re
import secrets

import msgspec

from commerce_agent import clock
from commerce_agent.auth import storage, throttle
from commerce_agent.auth.passwords import hash_password, verify_password
from commerce_agent.auth.tokens import Principal, hash_token, mint_token, revoke_token
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError
from commerce_agent.ids import new_id

ACCESS_TOKEN_LIFETIME = 3600
REFRESH_TOKEN_LIFETIME = 30 * 24 * 3600
REFRESH_PREFIX = "car_"  # noqa: S105 - a public prefix, not a secret
PASSWORD_MIN, PASSWORD_MAX = 8, 256
EMAIL_MAX, NAME_MAX = 254, 100

_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$")


@functools.cache
def _dummy_hash() -> str:
    """Verified against when the email is unknown, so both paths cost one scrypt run."""
    return hash_password(secrets.token_urlsafe(16))


class TokenPair(msgspec.Struct, kw_only=True):
    """The JSON token API's answer (POST /auth/token and POST /auth/refresh)."""

    accessToken: str
    tokenType: str = "Bearer"  # noqa: S105 - the token scheme, not a secret
    expiresIn: int
    refreshToken: str
    refreshExpiresIn: int


def normalize_email(email: str) -> str:
    return email.strip().lower()


async def authenticate_password(db: Database, email: str, password: str) -> str | None:
    """The id of the user with these credentials, or None (same cost either way)."""
    principal = await authenticate(db, email, password)
    return None if principal is None else principal.user_id


async def authenticate(db: Database, email: str, password: str) -> Principal | None:
    attempt = await throttle.admit(db, email)  # 429 once the email has failed too often
    row = None
    if len(email) <= EMAIL_MAX and len(password) <= PASSWORD_MAX:
        row = await storage.user_by_email(db, normalize_email(email))
    known = row is not None and bool(row["password_hash"])
    stored = row["password_hash"] if row is not None and known else _dummy_hash()
    # scrypt is CPU-bound: keep it off the event loop.
    matches = await asyncio.to_thread(verify_password, password[:PASSWORD_MAX], stored)
    if row is None or not known or not matches:
        return None
    await throttle.succeeded(db, attempt)
    return Principal(row["id"], row["email"], row["name"])


def check_registration(email: str, password: str, name: str) -> dict[str, str]:
    """Problems with a registration, by field name (empty when it is acceptable)."""
    problems: dict[str, str] = {}
    email = normalize_email(email)
    if not email or len(email) > EMAIL_MAX or not _EMAIL_RE.match(email):
        problems["email"] = "must be a valid email address"
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        problems["password"] = f"must be {PASSWORD_MIN} to {PASSWORD_MAX} characters"
    if not name.strip() or len(name.strip()) > NAME_MAX or not name.isprintable():
        problems["name"] = f"must be 1 to {NAME_MAX} printable characters"
    return problems


async def register(db: Database, email: str, password: str, name: str) -> Principal:
    """Create an account (fields already checked); 409 account_exists for a taken email."""
    email = normalize_email(email)
    password_hash = await asyncio.to_thread(hash_password, password)
    user_id = new_id("user")
    async with db.transaction() as tx:
        if not await storage.insert_user(tx, user_id, email, name.strip(), password_hash):
            raise CommerceError(409, "account_exists",
                                "An account with this email address already exists.")
    return Principal(user_id, email, name.strip())


def _invalid_token(message: str) -> CommerceError:
    return CommerceError(401, "unauthorized", message, headers={
        "WWW-Authenticate": 'Bearer realm="commerce-agent", error="invalid_token"',
        "Cache-Control": "no-store"})


def bad_credentials() -> CommerceError:
    return CommerceError(401, "unauthorized", "The email or password is not correct.",
                         headers={"WWW-Authenticate": 'Bearer realm="commerce-agent"',
                                  "Cache-Control": "no-store"})


async def _new_pair(tx: Transaction, user_id: str, grant_id: str) -> TokenPair:
    access = await mint_token(tx, user_id, "access", ACCESS_TOKEN_LIFETIME, grant_id=grant_id)
    refresh = REFRESH_PREFIX + secrets.token_urlsafe(32)
    await storage.insert_refresh_token(tx, hash_token(refresh), grant_id,
                                       REFRESH_TOKEN_LIFETIME)
    return TokenPair(accessToken=access, expiresIn=ACCESS_TOKEN_LIFETIME, refreshToken=refresh,
                     refreshExpiresIn=REFRESH_TOKEN_LIFETIME)


async def issue_grant(db: Database, user_id: str) -> TokenPair:
    async with db.transaction() as tx:
        grant_id = new_id("grant")
        await storage.insert_grant(tx, grant_id, user_id)
        return await _new_pair(tx, user_id, grant_id)


async def refresh(db: Database, refresh_token: str) -> TokenPair:
    """Rotate: use up `refresh_token`, answer a new pair; a reused token revokes its grant."""
    token_hash = hash_token(refresh_token)
    reused = False
    async with db.transaction() as tx:
        row = await storage.refresh_token(tx, token_hash)
        if row is None or row["revoked_at"] is not None:
            raise _invalid_token("The refresh token is invalid or revoked.")
        if row["used_at"] is not None:
            await storage.revoke_grant(tx, row["grant_id"], "refresh token reused")
            reused = True
        elif row["expires_at"] <= clock.now_iso():
            raise _invalid_token("The refresh token has expired; sign in again.")
        else:
            await storage.mark_refresh_used(tx, token_hash)
            return await _new_pair(tx, row["user_id"], row["grant_id"])
    assert reused  # committed the revocation; now refuse
    raise _invalid_token("The refresh token was already used; every token of this sign-in "
                         "has been revoked. Sign in again.")


async def revoke(db: Database, token: str) -> None:
    """Revoke an access or refresh token and the grant it belongs to (unknown: no-op)."""
    token_hash = hash_token(token)
    async with db.transaction() as tx:
        grant_id = await storage.access_token_grant(tx, token_hash)
        if grant_id is None:
            row = await storage.refresh_token(tx, token_hash)
            grant_id = None if row is None else str(row["grant_id"])
        if grant_id is not None:
            await storage.revoke_grant(tx, grant_id, "revoked")
        await revoke_token(tx, token)


# --- browser sessions ---------------------------------------------------------------------

WEB_SESSION_LIFETIME = 12 * 3600


def session_hash(cookie_value: str) -> str:
    return hashlib.sha256(cookie_value.encode()).hexdigest()


async def start_web_session(db: Database, user_id: str) -> str:
    """A new browser session for `user_id`; returns the cookie value (stored hashed)."""
    value = secrets.token_urlsafe(32)
    async with db.transaction() as tx:
        await storage.insert_web_session(tx, session_hash(value), user_id, WEB_SESSION_LIFETIME)
    return value


async def web_session_principal(db: Database, cookie_value: str | None) -> Principal | None:
    if not cookie_value or len(cookie_value) > 200:
        return None
    row = await storage.web_session_user(db, session_hash(cookie_value))
    return None if row is None else Principal(row["id"], row["email"], row["name"])


async def end_web_session(db: Database, cookie_value: str) -> None:
    async with db.transaction() as tx:
        await storage.revoke_web_session(tx, session_hash(cookie_value))
