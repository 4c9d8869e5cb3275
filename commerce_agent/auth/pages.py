"""Account pages: sign in, register, sign out (plain HTML forms, CSRF-protected, no JavaScript),
each a Jinja2 template in commerce_agent/auth/templates.

Reusable pieces for other pages that need a sign-in (the agent's consent page):

- the ``sign_in_form`` macro of ``templates/forms.html`` (the email + password form), for
  templates; ``sign_in_form(action=..., csrf_token=..., next_url=..., email=..., error=...)``
  renders it as an HTML fragment; ``extra`` adds fields or buttons inside the form.
- ``safe_next(url)`` keeps a ``next`` URL only when it is a same-origin relative path
  (``/orders``), never ``//host``, ``https://…``, backslashes or control characters.
- ``accounts.authenticate_password(db, email, password)`` checks the credentials; it raises
  ``CommerceError`` 429 ``too_many_attempts`` while the email is locked out (see
  ``commerce_agent.auth.throttle``), which a page shows as its message, status and
  ``Retry-After``.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent import templating
from commerce_agent.auth import accounts, flows, web
from commerce_agent.auth.web import Browser
from commerce_agent.commerce.services.carts import shopper
from commerce_agent.errors import CommerceError
from commerce_agent.routing import Route

DEFAULT_NEXT = flows.PROFILE_PAGE_PATH


def safe_next(url: str | None) -> str | None:
    """`url` if it is a relative path on this server, else None."""
    if not url or len(url) > 2000 or not url.startswith("/") or url.startswith("//"):
        return None
    if "\\" in url or not url.isprintable() or any(ch.isspace() for ch in url):
        return None
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    return url


LIMITS: dict[str, Any] = {"email_max": accounts.EMAIL_MAX, "password_max": accounts.PASSWORD_MAX,
          "password_min": accounts.PASSWORD_MIN, "name_max": accounts.NAME_MAX}


def sign_in_form(*, action: str, csrf_token: str = "", next_url: str | None = None,
                 email: str = "", error: str = "", submit_label: str = "Sign in",
                 extra: str = "") -> str:
    """The sign-in form (an HTML fragment, from the `sign_in_form` macro of
    templates/forms.html, which pages include directly); `extra` is trusted markup."""
    from markupsafe import Markup

    template = templating.environment(*web.PACKAGES).get_template("sign_in_form.html")
    return template.render(action=action, csrf_token=csrf_token, next_url=safe_next(next_url),
                           email=email, error=error, submit_label=submit_label,
                           extra=Markup(extra), **LIMITS)  # noqa: S704 - the caller's markup


def _with_next(path: str, next_url: str | None) -> str:
    return f"{path}?next={quote(next_url, safe='/')}" if next_url else path


def _sign_in_page(browser: Browser, next_url: str | None, email: str = "", error: str = "",
                  status: int = 200) -> Response:
    return browser.page(
        "sign_in.html", status, title="Sign in", action=flows.SIGN_IN_PATH,
        csrf_token=browser.csrf_token(), next_url=next_url, email=email, error=error,
        register_url=_with_next(flows.REGISTRATION_PATH, next_url), **LIMITS)


async def _signed_in(request: Request, browser: Browser, user_id: str,
                     next_url: str | None) -> Response:
    db = request.app.state.db
    if browser.session:
        await accounts.end_web_session(db, browser.session)
    session = await accounts.start_web_session(db, user_id)
    response = web.redirect(next_url or DEFAULT_NEXT)
    web.set_session_cookie(request, response, session)
    guest = web.guest_token(request)
    if guest is not None:  # the carts the browser filled as a guest are now the user's
        principal = await accounts.web_session_principal(db, session)
        if principal is not None:
            async with db.transaction() as tx:
                await shopper.adopt(tx, guest, principal)
        web.clear_guest_cookie(request, response)
    return browser.respond(response)


async def sign_in_page(request: Request) -> Response:
    """The sign-in form; a signed-in browser goes straight on to `next`."""
    browser = await Browser.of(request)
    next_url = safe_next(request.query_params.get("next"))
    if browser.principal is not None:
        return browser.respond(web.redirect(next_url or DEFAULT_NEXT))
    return _sign_in_page(browser, next_url)


class _Post(NamedTuple):
    browser: Browser
    form: dict[str, str]
    next_url: str | None


async def _posted(request: Request, path: str) -> _Post | Response:
    """The browser, form and `next` of a post to the form at `path`; or the answer to a post
    that is not a form (400, 413) or does not carry this browser's CSRF token (403)."""
    browser = await Browser.of(request)
    form = await web.read_form(request)
    if form is None:
        return web.bad_form(request)
    next_url = safe_next(form.get("next"))
    if not browser.csrf_ok(form):
        return web.form_expired(browser, _with_next(path, next_url))
    return _Post(browser, form, next_url)


async def sign_in(request: Request) -> Response:
    """Check the credentials, start a browser session, and redirect (303) to `next`."""
    posted = await _posted(request, flows.SIGN_IN_PATH)
    if isinstance(posted, Response):
        return posted
    browser, form, next_url = posted
    email = form.get("email", "")
    try:
        user_id = await accounts.authenticate_password(request.app.state.db, email,
                                                       form.get("password", ""))
    except CommerceError as exc:  # the throttle: 429 too_many_attempts
        response = _sign_in_page(browser, next_url, email[:accounts.EMAIL_MAX],
                                 exc.message, exc.status)
        response.headers.update(exc.headers)
        return response
    if user_id is None:
        return _sign_in_page(browser, next_url, email[:accounts.EMAIL_MAX],
                             "Wrong email or password.", 401)
    return await _signed_in(request, browser, user_id, next_url)


def _register_page(browser: Browser, next_url: str | None, fields: dict[str, str],
                   problems: dict[str, str], status: int = 200) -> Response:
    return browser.page(
        "register.html", status, title="Create an account", action=flows.REGISTRATION_PATH,
        csrf_token=browser.csrf_token(), next_url=next_url,
        problems=[f"{name.capitalize()} {reason}." for name, reason in problems.items()],
        name=fields.get("name", ""), email=fields.get("email", ""),
        sign_in_url=_with_next(flows.SIGN_IN_PATH, next_url), **LIMITS)


async def register_page(request: Request) -> Response:
    """The registration form."""
    browser = await Browser.of(request)
    return _register_page(browser, safe_next(request.query_params.get("next")), {}, {})


async def register(request: Request) -> Response:
    """Create the account (scrypt-hashed password), sign it in, redirect (303) to `next`."""
    posted = await _posted(request, flows.REGISTRATION_PATH)
    if isinstance(posted, Response):
        return posted
    browser, form, next_url = posted
    email, password, name = form.get("email", ""), form.get("password", ""), form.get("name", "")
    shown = {"email": email[:accounts.EMAIL_MAX], "name": name[:accounts.NAME_MAX]}
    problems = accounts.check_registration(email, password, name)
    if problems:
        return _register_page(browser, next_url, shown, problems, 400)
    try:
        principal = await accounts.register(request.app.state.db, email, password, name)
    except CommerceError as exc:
        return _register_page(browser, next_url, shown, {"email": "is already registered"},
                              exc.status)
    return await _signed_in(request, browser, principal.user_id, next_url)


async def sign_out_page(request: Request) -> Response:
    """A one-button form (signing out changes state, so it is a POST)."""
    browser = await Browser.of(request)
    signed_in = browser.principal is not None
    return browser.page(
        "sign_out.html", title="Sign out" if signed_in else "Signed out",
        email=browser.principal.email if browser.principal is not None else None,
        action=flows.SIGN_OUT_PATH, csrf_token=browser.csrf_token(),
        sign_in_url=flows.SIGN_IN_PATH)


async def sign_out(request: Request) -> Response:
    """End the browser session and clear its cookie; redirect (303) to the sign-in page."""
    browser = await Browser.of(request)
    form = await web.read_form(request)
    if form is None:
        return web.bad_form(request)
    if not browser.csrf_ok(form):
        return web.form_expired(browser, flows.SIGN_OUT_PATH)
    if browser.session:
        await accounts.end_web_session(request.app.state.db, browser.session)
    response = web.redirect(flows.SIGN_IN_PATH)
    web.clear_session_cookie(request, response)
    return browser.respond(response)


routes = [
    Route(flows.SIGN_IN_PATH, sign_in_page, methods=["GET"]),
    Route(flows.SIGN_IN_PATH, sign_in, methods=["POST"]),
    Route(flows.REGISTRATION_PATH, register_page, methods=["GET"]),
    Route(flows.REGISTRATION_PATH, register, methods=["POST"]),
    Route(flows.SIGN_OUT_PATH, sign_out_page, methods=["GET"]),
    Route(flows.SIGN_OUT_PATH, sign_out, methods=["POST"]),
]
