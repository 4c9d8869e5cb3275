"""The locale of a request, negotiated once (by request_stack), and its Content-Language.

The request stack sets scope["state"]["locale"] (read by commerce_agent.http.request_locale)
and adds `Content-Language` and `Vary` to the response start, except below the agent API's
prefix, whose text is not localized.

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
from typing import Any

from starlette.types import Scope

from commerce_agent.auth import bearer
from commerce_agent.commerce.services.profile import locale_for_token
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, negotiate, states_preference

log = logging.getLogger(__name__)

_VARY_LANGUAGE = (b"vary", b"Accept-Language")
# Without an Accept-Language preference the answer also depends on who is signed in.
_VARY_AUTHORIZATION = (b"vary", b"Authorization")


async def _saved_locale(scope: Scope) -> str | None:
    token = bearer.lookup_token(scope)
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


def _accept_language(scope: Scope) -> tuple[bytes, bool]:
    values = [value for name, value in scope["headers"] if name == b"accept-language"]
    return b",".join(values), bool(values)


def header_locale(scope: Scope) -> str:
    """The locale Accept-Language asks for, else the default (no saved language: the agent
    API's text is not localized)."""
    header, present = _accept_language(scope)
    return negotiate(header) if present else DEFAULT_LOCALE


async def request_locale(scope: Scope) -> tuple[str, bool]:
    """The request's locale, and whether its Accept-Language decided it (the answer then
    does not depend on who is signed in)."""
    header, present = _accept_language(scope)
    if present and states_preference(header):
        return negotiate(header), True
    return await _saved_locale(scope) or DEFAULT_LOCALE, False


def add_language_headers(headers: list[tuple[bytes, bytes]], state: dict[str, Any],
                         recorded: list[str], locale: str, explicit: bool) -> None:
    """Content-Language (unless the response set one) and Vary, on a response's start."""
    if not any(name.lower() == b"content-language" for name, _ in headers):
        if state.get("content_language"):
            label = str(state["content_language"])
        elif recorded:
            label = ", ".join(sorted(recorded, key=lambda language: language != locale))
        else:
            label = DEFAULT_LOCALE
        headers.append((b"content-language", label.encode()))
    headers.append(_VARY_LANGUAGE)
    if not explicit:
        headers.append(_VARY_AUTHORIZATION)
