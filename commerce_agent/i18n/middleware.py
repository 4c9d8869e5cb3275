"""Pure ASGI middleware: negotiate the locale once per request, answer with Content-Language.

It sets scope["state"]["locale"] (read by commerce_agent.http.request_locale) and adds
`Content-Language` and `Vary` to the response start, except below the `skip` prefixes (the
agent API, whose text is not localized).

- An `Accept-Language` naming a language always decides.
- Without one (absent, empty, unusable or only `*`), a request with a live bearer token gets
  the language the user saved in their profile (`preferences.language`), matched to a
  supported locale as the header would be. That costs one indexed read, only for such
  requests; any failure there falls back to the default locale, never fails the request.
- `Content-Language` says which language the text is in: an error's language when the error
  localizer put one in scope["state"]["content_language"]; else every language the response's
  text was recorded in (commerce_agent.i18n.content; the negotiated one first); else the
  source language, DEFAULT_LOCALE (nothing was translated).
"""

from __future__ import annotations

import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from commerce_agent.commerce.services.profile import locale_for_token
from commerce_agent.i18n import content
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, negotiate, states_preference

log = logging.getLogger(__name__)

_VARY_LANGUAGE = (b"vary", b"Accept-Language")
# Without an Accept-Language preference the answer also depends on who is signed in.
_VARY_AUTHORIZATION = (b"vary", b"Authorization")
_MAX_TOKEN = 200  # issued tokens are ~50 characters; anything longer is not worth hashing


def _bearer(scope: Scope) -> str | None:
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = bytes(value).decode("latin-1").partition(" ")
            token = token.strip()
            if scheme.lower() == "bearer" and 0 < len(token) <= _MAX_TOKEN:
                return token
            return None
    return None


async def _saved_locale(scope: Scope) -> str | None:
    token = _bearer(scope)
    if token is None:
        return None
    try:
        # A read (GET, HEAD) checks the token is still live, so a language saved elsewhere
        # shows at once. A write's token is checked inside its transaction
        # (auth.principal.writer_principal): its language may be one request late.
        locale: str | None = await locale_for_token(
            scope["app"].state.db, token, scope.setdefault("state", {}),
            confirmed=scope["method"] in ("GET", "HEAD"))
    except Exception:  # the locale is a nicety: a request must not fail because of it
        log.warning("could not read the saved language for a request", exc_info=True)
        return None
    return locale


class LocaleMiddleware:
    def __init__(self, app: ASGIApp, skip: tuple[str, ...] = ()) -> None:
        self.app = app
        self.skip = skip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        values = [value for name, value in scope["headers"] if name == b"accept-language"]
        header = b",".join(values)
        if self.skip and str(scope["path"]).startswith(self.skip):
            state["locale"] = negotiate(header) if values else DEFAULT_LOCALE
            await self.app(scope, receive, send)
            return
        explicit = bool(values) and states_preference(header)
        if explicit:
            locale = negotiate(header)
        else:
            locale = await _saved_locale(scope) or DEFAULT_LOCALE
        state["locale"] = locale
        vary = [_VARY_LANGUAGE] if explicit else [_VARY_LANGUAGE, _VARY_AUTHORIZATION]

        recorded, token = content.begin()

        def label() -> str:
            if state.get("content_language"):
                return str(state["content_language"])
            if recorded:
                return ", ".join(sorted(recorded, key=lambda language: language != locale))
            return DEFAULT_LOCALE

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"content-language" for name, _ in headers):
                    headers.append((b"content-language", label().encode()))
                headers.extend(vary)
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_language)
        finally:
            content.end(token)
