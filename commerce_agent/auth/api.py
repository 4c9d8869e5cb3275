"""The JSON token API for programs: sign in with a password, refresh, revoke, sign out.

- POST /auth/token {email, password} → 200 {accessToken, tokenType: "Bearer", expiresIn,
  refreshToken, refreshExpiresIn}; wrong credentials → 401 unauthorized (commerce error shape).
- POST /auth/refresh {refreshToken} → 200 with a new pair; the old refresh token is used up.
- POST /auth/revoke {token} → 204 for any token, known or not (RFC 7009); revokes its grant.
- POST /auth/sign-out with `Authorization: Bearer` → 204; revokes that token and its grant.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import accounts, bearer, flows
from commerce_agent.auth.principal import require_principal
from commerce_agent.http import decode_body, json_response
from commerce_agent.routing import Route

Secret = Annotated[str, Meta(min_length=1, max_length=200)]
_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


class PasswordGrant(msgspec.Struct, forbid_unknown_fields=True):
    email: Annotated[str, Meta(min_length=1, max_length=accounts.EMAIL_MAX)]
    password: Annotated[str, Meta(min_length=1, max_length=accounts.PASSWORD_MAX)]


class RefreshRequest(msgspec.Struct, forbid_unknown_fields=True):
    refreshToken: Secret


class RevokeRequest(msgspec.Struct, forbid_unknown_fields=True):
    token: Secret


_password = msgspec.json.Decoder(PasswordGrant)
_refresh = msgspec.json.Decoder(RefreshRequest)
_revoke = msgspec.json.Decoder(RevokeRequest)


async def token(request: Request) -> Response:
    """Sign in with email and password: an access token and a refresh token."""
    body = await decode_body(request, _password)
    db = request.app.state.db
    user_id = await accounts.authenticate_password(db, body.email, body.password)
    if user_id is None:
        raise accounts.bad_credentials()
    return json_response(await accounts.issue_grant(db, user_id), headers=dict(_NO_STORE))


async def refresh(request: Request) -> Response:
    """Trade a refresh token for a new pair (rotation: each refresh token works once)."""
    body = await decode_body(request, _refresh)
    pair = await accounts.refresh(request.app.state.db, body.refreshToken)
    return json_response(pair, headers=dict(_NO_STORE))


async def revoke(request: Request) -> Response:
    """Revoke an access or refresh token, and every token of the same sign-in."""
    body = await decode_body(request, _revoke)
    await accounts.revoke(request.app.state.db, body.token)
    return Response(status_code=204, headers=dict(_NO_STORE))


async def sign_out(request: Request) -> Response:
    """Revoke the bearer token of this request (and the rest of its sign-in)."""
    await require_principal(request)
    token = bearer.token(request.scope)
    assert token  # require_principal found its holder
    await accounts.revoke(request.app.state.db, token)
    return Response(status_code=204, headers=dict(_NO_STORE))


routes = [
    Route(flows.TOKEN_PATH, token, methods=["POST"]),
    Route(flows.REFRESH_PATH, refresh, methods=["POST"]),
    Route(flows.REVOKE_PATH, revoke, methods=["POST"]),
    Route(flows.TOKEN_SIGN_OUT_PATH, sign_out, methods=["POST"]),
]
