"""Who is calling: the bearer token on a Commerce API request, checked against the database."""

from __future__ import annotations

from starlette.requests import Request

from commerce_agent.auth import bearer
from commerce_agent.auth.tokens import Principal
from commerce_agent.errors import CommerceError


def _unauthorized(message: str, token_sent: bool) -> CommerceError:
    challenge = 'Bearer realm="commerce-agent"'
    if token_sent:
        challenge += ', error="invalid_token"'
    return CommerceError(401, "unauthorized", message,
                         headers={"WWW-Authenticate": challenge, "Cache-Control": "no-store"})


def invalid_token() -> CommerceError:
    return _unauthorized("The bearer token is invalid, expired or revoked.", True)


async def optional_principal(request: Request, *, confirmed: bool = True) -> Principal | None:
    """The caller if a valid token was sent; a bad token is still refused with 401."""
    token = bearer.token(request.scope)
    if token is None:
        return None
    owner = await bearer.remembered_owner(request.scope.setdefault("state", {}),
                                   request.app.state.db, token,
                                   confirmed=confirmed) if token else None
    principal = None if owner is None else owner.principal
    if principal is None:
        raise invalid_token()
    return principal


async def require_principal(request: Request, *, confirmed: bool = True) -> Principal:
    principal = await optional_principal(request, confirmed=confirmed)
    if principal is None:
        raise _unauthorized("This endpoint requires an Authorization: Bearer token.", False)
    return principal


async def writer_principal(request: Request) -> Principal:
    """require_principal for a route that hands the principal to `commerce.writes.write`
    before using it for anything else: a token this process keeps is taken without a read
    here, and `write` checks it is still live inside its transaction (a revoked token is
    refused there, before any of the write's statements). Any other use needs
    require_principal."""
    return await require_principal(request, confirmed=False)
