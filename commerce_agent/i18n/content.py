"""Which languages a response's text ended up in, for its Content-Language (RFC 9110 §8.5).

The locale middleware opens one record per request. Code that puts natural-language text in a
response reports the language that text is in with `record(...)`: the catalog's translation
lookup reports the negotiated locale when it found a translation and the source language when
it did not. It is a context variable rather than request state because that lookup renders
without the request. Outside a request, `record` does nothing.
"""

from __future__ import annotations

from contextvars import ContextVar, Token

_languages: ContextVar[list[str] | None] = ContextVar("content_languages", default=None)


def begin() -> tuple[list[str], Token[list[str] | None]]:
    """A fresh record for one request: the list that fills up, and the token to end it."""
    languages: list[str] = []
    return languages, _languages.set(languages)


def end(token: Token[list[str] | None]) -> None:
    _languages.reset(token)


def record(language: str) -> None:
    languages = _languages.get()
    if languages is not None and language not in languages:
        languages.append(language)


def recorded() -> list[str]:
    """The languages recorded so far in this request (a copy)."""
    return list(_languages.get() or [])
