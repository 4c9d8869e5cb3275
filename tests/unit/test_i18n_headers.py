"""Content-Language and Vary on a response's start, from what the request recorded, and the
per-request record of the languages text was written in."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.i18n import content
from commerce_agent.i18n.middleware import add_language_headers, header_locale


def _headers(*, state: dict[str, Any] | None = None, recorded: list[str] | None = None,
             locale: str = "fr", explicit: bool = True,
             start: list[tuple[bytes, bytes]] | None = None) -> list[tuple[bytes, bytes]]:
    headers = list(start or [])
    add_language_headers(headers, state or {}, recorded or [], locale, explicit)
    return headers


def _language(headers: list[tuple[bytes, bytes]]) -> str:
    return next(value for name, value in headers if name == b"content-language").decode()


def test_nothing_translated_is_the_source_language() -> None:
    assert _language(_headers()) == "en"


def test_the_negotiated_language_comes_first_among_those_recorded() -> None:
    assert _language(_headers(recorded=["en", "ja", "fr"])) == "fr, en, ja"
    assert _language(_headers(recorded=["en"])) == "en"  # nothing of it was in French


def test_an_errors_language_decides() -> None:
    assert _language(_headers(state={"content_language": "en"}, recorded=["fr"])) == "en"


def test_a_response_that_says_its_language_keeps_it() -> None:
    headers = _headers(start=[(b"Content-Language", b"ja")], recorded=["fr"])
    assert [value for name, value in headers if name.lower() == b"content-language"] \
        == [b"ja"]


def test_vary_names_authorization_only_when_the_header_did_not_decide() -> None:
    assert [value for name, value in _headers() if name == b"vary"] == [b"Accept-Language"]
    assert [value for name, value in _headers(explicit=False) if name == b"vary"] \
        == [b"Accept-Language", b"Authorization"]


@pytest.mark.parametrize(("values", "locale"), [
    ([], "en"), ([b"fr-CA"], "fr"), ([b"de", b"ja;q=0.5"], "ja"), ([b""], "en"),
    ([b"*"], "en"), ([b"xx, ar"], "ar")])
def test_the_header_locale_joins_repeated_fields(values: list[bytes], locale: str) -> None:
    scope = {"headers": [(b"accept-language", value) for value in values]}
    assert header_locale(scope) == locale


def test_languages_are_recorded_once_each_within_a_request_only() -> None:
    content.record("fr")  # outside a request: nowhere to go
    assert content.recorded() == []
    languages, token = content.begin()
    try:
        for language in ("fr", "en", "fr"):
            content.record(language)
        assert languages == ["fr", "en"] and content.recorded() == ["fr", "en"]
        content.recorded().append("ja")  # a copy
        assert languages == ["fr", "en"]
    finally:
        content.end(token)
    assert content.recorded() == []
