"""The consent page behind `authorization.required`'s authUrl: sign in, then approve or decline.

It reuses the account pages' sign-in (commerce_agent.auth): the same form, the same password
check, the same browser session and CSRF protection. A browser already signed in only has to
approve; otherwise the form asks for email and password, and signing in here also signs the
browser in to the site. Approving binds that user to the agent session (its commerce tools act
for them), emits `authorization.granted` and resumes the parked turn; declining resumes it with
a failed tool result. The link carries a one-time secret, stored hashed. The page is
templates/consent.html, on the account pages' layout and sign-in form macro.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.agent.sessions import Sessions
from commerce_agent.auth import accounts, pages, web
from commerce_agent.auth.tokens import Principal
from commerce_agent.auth.web import Browser
from commerce_agent.errors import CommerceError
from commerce_agent.routing import Route

PACKAGES = ("commerce_agent.agent", *web.PACKAGES)  # consent.html, on the account layout


def _form(browser: Browser, connection: str, *, email: str = "", error: str = "",
          status: int = 200) -> Response:
    signed_in = browser.principal.email if browser.principal is not None else None
    return browser.page(
        "consent.html", status, packages=PACKAGES, title="Connect your account",
        connection=connection, email_signed_in=signed_in, csrf_token=browser.csrf_token(),
        email=email, error=error, **pages.LIMITS)


def _done(browser: Browser, title: str, message: str, status: int = 200) -> Response:
    return browser.message(title, message, status)


def _gone(browser: Browser) -> Response:
    return _done(browser, "Link expired", "This authorization link was already used or is no "
                 "longer valid. Return to your chat.", 404)


async def show(request: Request) -> Response:
    sessions: Sessions = request.app.state.agent
    browser = await Browser.of(request)
    record = await sessions.pending_authorization(request.path_params["session_id"],
                                                  request.path_params["secret"])
    if record is None or record.pending_authorization is None:
        return _gone(browser)
    return _form(browser, record.pending_authorization.connection)


async def submit(request: Request) -> Response:
    sessions: Sessions = request.app.state.agent
    session_id, secret = request.path_params["session_id"], request.path_params["secret"]
    browser = await Browser.of(request)
    record = await sessions.pending_authorization(session_id, secret)
    if record is None or record.pending_authorization is None:
        return _gone(browser)
    form = await web.read_form(request)
    if form is None:
        return web.bad_form(request)
    if not browser.csrf_ok(form):
        return web.form_expired(browser, request.url.path)
    if form.get("decision") == "decline":
        await sessions.authorize(session_id, secret, None)
        return _done(browser, "Declined", "The agent will not use your account. You can "
                     "return to your chat.")
    principal: Principal | None = browser.principal
    response_cookie = None
    if principal is None or "email" in form:
        email = form.get("email", "")
        try:
            principal = await accounts.authenticate(sessions.db, email,
                                                    form.get("password", ""))
        except CommerceError as exc:  # the sign-in throttle: 429 too_many_attempts
            response = _form(browser, record.pending_authorization.connection,
                             email=email[:accounts.EMAIL_MAX], error=exc.message,
                             status=exc.status)
            response.headers.update(exc.headers)
            return response
        if principal is None:
            return _form(browser, record.pending_authorization.connection,
                         email=email[:accounts.EMAIL_MAX], error="Wrong email or password.",
                         status=401)
        response_cookie = await accounts.start_web_session(sessions.db, principal.user_id)
    if not await sessions.authorize(session_id, secret, principal.user_id):
        return _gone(browser)
    response = _done(browser, "Approved", f"Signed in as {principal.email}. The agent carries "
                     "on; you can return to your chat.")
    if response_cookie is not None:
        web.set_session_cookie(request, response, response_cookie)
    return response


routes = [
    Route("/consent/{session_id}/{secret}", show, methods=["GET"]),
    Route("/consent/{session_id}/{secret}", submit, methods=["POST"]),
]
