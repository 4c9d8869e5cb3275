"""What the account pages know about a browser: its session, its CSRF token, its form posts.

- Session: the `commerce_session` cookie (HttpOnly, SameSite=Lax, Secure on https), a random
  value stored only as its SHA-256 hash in `web_sessions`. It is not a bearer token: the JSON
  API never reads cookies, so a cookie cannot be replayed against it.
- Pages: Jinja2 templates in commerce_agent/auth/templates (autoescaped), served with
  `page(request, template, …)` (or `Browser.page`) and the headers below, drawn in the site's
  layout: the shop's header and footer, which the app installs as `app.state.site_page`
  (web/site_layout.py; this package cannot import the web app). No JavaScript.
- CSRF: the `commerce_csrf` cookie holds a random nonce; every form carries
  HMAC-SHA256(server key, nonce | session hash) in a hidden field. The key lives in the database
  (`signing_keys`), so it survives restarts and is shared by every server process on the file.
  A cross-site page can neither read the nonce nor compute the HMAC.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from commerce_agent.auth import accounts, guests, storage
from commerce_agent.auth.tokens import Principal

SESSION_COOKIE = "commerce_session"
CSRF_COOKIE = "commerce_csrf"
# The guest cart token (auth.guests) of a browser not signed in: HttpOnly, so only the server
# and the answer of POST /shop/api-token hand it to the page's scripts.
GUEST_COOKIE = "commerce_guest_cart"
GUEST_COOKIE_LIFETIME = 30 * 24 * 3600
CSRF_FIELD = "csrf_token"
FORM_LIMIT = 16 * 1024

_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    # The site's stylesheet and pictures; never a script.
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
}


PACKAGES = ("commerce_agent.auth",)  # the account pages' templates

# How the app draws a page in the site's layout: (request, template packages, template,
# status, headers, signed-in user, context) -> the page.
SitePage = Callable[[Request, tuple[str, ...], str, int, Mapping[str, str], Principal | None,
                     dict[str, Any]], HTMLResponse]


def page(request: Request, template: str, status: int = 200, /, *,
         packages: tuple[str, ...] = PACKAGES, user: Principal | None = None,
         **context: Any) -> HTMLResponse:
    """A whole HTML page from a template of `packages` (autoescaped; the account pages'
    security headers) in the site's layout, for `user` (None: nobody signed in)."""
    site_page: SitePage = request.app.state.site_page
    return site_page(request, packages, template, status, _HEADERS, user, context)


def message(request: Request, title: str, text: str, status: int = 200, *,
            error: bool = False, retry: str | None = None,
            user: Principal | None = None) -> HTMLResponse:
    """A page that only says something (an error with a link to retry, or an outcome)."""
    return page(request, "message.html", status, title=title, message=text, error=error,
                retry=retry, user=user)


def redirect(location: str) -> RedirectResponse:
    return RedirectResponse(location, status_code=303, headers={"Cache-Control": "no-store"})


def secure_cookies(request: Request) -> bool:
    """Whether cookies are sent over https only: when the server's public URL is https."""
    base: str = request.app.state.settings.base_url
    return base.startswith("https://")


def set_session_cookie(request: Request, response: Response, value: str) -> None:
    response.set_cookie(SESSION_COOKIE, value, max_age=accounts.WEB_SESSION_LIFETIME, path="/",
                        httponly=True, samesite="lax", secure=secure_cookies(request))


def guest_token(request: Request) -> str | None:
    """The browser's guest cart token, when it holds a well-formed one."""
    token = request.cookies.get(GUEST_COOKIE)
    return token if token and guests.well_formed(token) else None


def set_guest_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(GUEST_COOKIE, token, max_age=GUEST_COOKIE_LIFETIME, path="/",
                        httponly=True, samesite="lax", secure=secure_cookies(request))


def clear_guest_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(GUEST_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=secure_cookies(request))


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=secure_cookies(request))


class Browser:
    """The signed-in user (if any) and the CSRF token for one page request."""

    def __init__(self, request: Request, key: str, principal: Principal | None,
                 nonce: str, fresh_nonce: bool) -> None:
        self.request = request
        self.principal = principal
        self.session = request.cookies.get(SESSION_COOKIE) if principal else None
        self._key = key
        self._nonce = nonce
        self._fresh_nonce = fresh_nonce

    @classmethod
    async def of(cls, request: Request) -> Browser:
        db = request.app.state.db
        key = await storage.signing_key(db, "csrf")
        principal = await accounts.web_session_principal(db, request.cookies.get(SESSION_COOKIE))
        nonce = request.cookies.get(CSRF_COOKIE, "")
        fresh = not (16 <= len(nonce) <= 100 and nonce.isascii() and nonce.isprintable())
        if fresh:
            nonce = secrets.token_urlsafe(24)
        return cls(request, key, principal, nonce, fresh)

    def csrf_token(self, session: str | None = None) -> str:
        """The form token, bound to the nonce and to the (given or current) session."""
        bound = session if session is not None else (self.session or "")
        message = f"{self._nonce}|{accounts.session_hash(bound) if bound else ''}"
        return hmac.new(self._key.encode(), message.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, form: dict[str, str]) -> bool:
        if self._fresh_nonce:
            return False
        return hmac.compare_digest(form.get(CSRF_FIELD, "").encode(),
                                   self.csrf_token().encode())

    def page(self, template: str, status: int = 200, /, **context: Any) -> Response:
        """`page` for this browser's user, with its CSRF cookie."""
        return self.respond(page(self.request, template, status, user=self.principal,
                                 **context))

    def message(self, title: str, text: str, status: int = 200, **options: Any) -> Response:
        """`message` for this browser's user, with its CSRF cookie."""
        return self.respond(message(self.request, title, text, status, user=self.principal,
                                    **options))

    def respond(self, response: Response) -> Response:
        """Attach the CSRF nonce cookie when this browser did not have one yet."""
        if self._fresh_nonce:
            response.set_cookie(CSRF_COOKIE, self._nonce, path="/", httponly=True,
                                samesite="lax", secure=secure_cookies(self.request))
        return response


def form_expired(browser: Browser, retry: str) -> Response:
    return browser.message("Form expired", "This form expired or did not come from this "
                           "site. Nothing was changed.", 403, error=True, retry=retry)


async def read_form(request: Request) -> dict[str, str] | None:
    """The urlencoded form fields (first value of each), or None for another body type."""
    fields = await read_form_fields(request)
    return None if fields is None else {key: values[0] for key, values in fields.items()}


async def read_form_fields(request: Request) -> dict[str, list[str]] | None:
    """Every value of each urlencoded form field (a group of checkboxes sends several), or
    None for another body type, a form past FORM_LIMIT or one that cannot be read."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/x-www-form-urlencoded":
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > FORM_LIMIT:  # never kept: body_limit drains the rest before the answer
            request.state.form_too_large = True
            return None
        chunks.append(chunk)
    try:
        # errors="strict": a percent-escape that is not UTF-8 (`%FF`) is refused like a raw
        # byte that is not, rather than stored as U+FFFD.
        parsed = parse_qs(b"".join(chunks).decode("utf-8"), keep_blank_values=True,
                          max_num_fields=100, errors="strict")
    except (UnicodeDecodeError, ValueError):
        return None
    if any("\x00" in key or any("\x00" in value for value in values)
           for key, values in parsed.items()):
        return None  # U+0000 cannot be stored (PostgreSQL refuses it in text)
    return parsed


def bad_form(request: Request) -> HTMLResponse:
    """400 for a body that is not a form; 413 for a form past FORM_LIMIT."""
    status = 413 if getattr(request.state, "form_too_large", False) else 400
    return message(request, "Cannot read this form", "Send the form as "
                   "application/x-www-form-urlencoded, up to 16 KiB.", status, error=True)
