"""POST /shop/api-token: a short-lived bearer token for the signed-in browser's own scripts.

The pages' scripts call the public Commerce API, which reads only `Authorization: Bearer`
(cookies never authenticate it, so it needs no CSRF defence). The browser session cookie is
HttpOnly, so a script cannot read it; instead it trades the session for an access token here:

- only for a live browser session, and only with the page's CSRF token in `X-CSRF-Token`
  (a cross-site page can neither send the cookie on a cross-site POST — SameSite=Lax — nor
  compute the token; the answer carries no CORS headers, so no other origin could read it);
- a browser not signed in gets its guest cart token instead (auth.guests): the cart routes
  take it, and signing in hands its carts to the account;
- the token lives 15 minutes (the scripts ask again when it runs out) and is tied to the
  browser session: signing out revokes every token the session was given.
"""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import accounts, storage
from commerce_agent.auth.guests import mint_guest_token
from commerce_agent.auth.tokens import mint_token
from commerce_agent.auth.web import (
    CSRF_FIELD,
    GUEST_COOKIE_LIFETIME,
    Browser,
    guest_token,
    set_guest_cookie,
)
from commerce_agent.errors import CommerceError
from commerce_agent.http import json_response

TOKEN_LIFETIME = 15 * 60
TOKEN_KIND = "web"  # noqa: S105 - the kind of token, not a secret
CSRF_HEADER = "x-csrf-token"


class ApiTokenUser(msgspec.Struct):
    name: str
    email: str


class ApiToken(msgspec.Struct):
    """The answer: a bearer token for the Commerce API, and whose it is."""

    accessToken: str
    expiresIn: int
    user: ApiTokenUser | None  # None: a guest cart token (auth.guests) for a guest browser
    tokenType: str = "Bearer"


def _guest_token(request: Request, browser: Browser) -> Response:
    """A guest browser's cart token: the one its cookie holds, or a new one it keeps from now
    on (signing in adopts its carts, auth.pages)."""
    token = guest_token(request) or mint_guest_token()
    response = json_response(ApiToken(token, GUEST_COOKIE_LIFETIME, None),
                             media_type="application/json",
                             headers={"Cache-Control": "no-store", "Pragma": "no-cache"})
    set_guest_cookie(request, response, token)
    return browser.respond(response)


async def api_token(request: Request) -> Response:
    """Trade the browser session (cookie + CSRF token) for a short-lived bearer token."""
    browser = await Browser.of(request)
    if not browser.csrf_ok({CSRF_FIELD: request.headers.get(CSRF_HEADER, "")}):
        raise CommerceError(403, "forbidden", "The X-CSRF-Token header is missing or stale; "
                                              "reload the page.",
                            headers={"Cache-Control": "no-store"})
    if browser.principal is None or browser.session is None:
        return _guest_token(request, browser)
    async with request.app.state.db.transaction() as tx:
        token = await mint_token(tx, browser.principal.user_id, TOKEN_KIND, TOKEN_LIFETIME,
                                 grant_id=storage.web_session_grant(
                                     accounts.session_hash(browser.session)))
    body = ApiToken(token, TOKEN_LIFETIME,
                    ApiTokenUser(browser.principal.name, browser.principal.email))
    return json_response(body, media_type="application/json",
                         headers={"Cache-Control": "no-store", "Pragma": "no-cache"})
