"""Guest cart tokens: how a shopper who has not signed in holds carts.

A guest token (`cgt_` + 32 random bytes) is a bearer credential for the cart routes only. The
server stores nothing for it: the carts it creates are owned by `guest_` + the first 32 hex
digits of its SHA-256, so only the holder of the token can name that owner, and a token
unknown to the server simply holds no carts yet. Every other route refuses it as an invalid
token (401): a guest signs in to place an order, and signing in adopts the guest's open carts
(`commerce.services.carts.guests.adopt`). See docs/decisions.md, "Carts belong to the shopper".
"""

from __future__ import annotations

import hashlib
import secrets

from commerce_agent.auth.tokens import Principal

GUEST_TOKEN_PREFIX = "cgt_"  # noqa: S105 - a public prefix, not a secret
GUEST_OWNER_PREFIX = "guest_"
GUEST_NAME = "Guest"
_TOKEN_LENGTH = len(GUEST_TOKEN_PREFIX) + 43  # token_urlsafe(32) is 43 characters


def mint_guest_token() -> str:
    return GUEST_TOKEN_PREFIX + secrets.token_urlsafe(32)


def is_guest_token(token: str) -> bool:
    return token.startswith(GUEST_TOKEN_PREFIX)


def well_formed(token: str) -> bool:
    """A token this server could have minted (the prefix, then 43 URL-safe characters)."""
    body = token[len(GUEST_TOKEN_PREFIX):]
    return (is_guest_token(token) and len(token) == _TOKEN_LENGTH
            and all(c.isascii() and (c.isalnum() or c in "-_") for c in body))


def guest_principal(token: str) -> Principal:
    """The owner of the carts a well-formed guest token holds."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:32]
    return Principal(GUEST_OWNER_PREFIX + digest, "", GUEST_NAME)


def is_guest(principal: Principal) -> bool:
    return principal.user_id.startswith(GUEST_OWNER_PREFIX)
