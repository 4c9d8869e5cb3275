"""Accept-Language negotiation: q-values, wildcards, fallbacks, and headers that never 500."""

from __future__ import annotations

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, SUPPORTED_LOCALES, choose, parse


@pytest.mark.parametrize(("header", "expected"), [
    ("fr", "fr"),
    ("FR", "fr"),
    ("fr-CA", "fr"),                              # language-only fallback
    ("fr_CA", "fr"),                              # underscore tolerated
    ("zh-Hant-TW, ja;q=0.8", "ja"),               # unsupported first choice skipped
    ("de, ar;q=0.5", "ar"),
    ("fr;q=0.4, ja;q=0.9", "ja"),                 # q orders, not position
    ("ja, fr", "ja"),                             # equal q: position
    ("fr;q=0, ja;q=0.1", "ja"),                   # q=0 excludes
    ("fr-CA, fr;q=0, ar;q=0.2", "ar"),            # exclusion of fr also blocks the fallback
    ("fr-CA;q=0, fr", "fr"),                      # excluding fr-CA does not exclude fr
    ("*", DEFAULT_LOCALE),
    ("de, *;q=0.5", DEFAULT_LOCALE),
    ("en;q=0, *", "fr"),                          # wildcard: first supported not excluded
    ("en;q=0.1, *;q=0.5", "fr"),                  # wildcard outranks a low explicit q
    ("*;q=0", DEFAULT_LOCALE),                    # nothing acceptable: default, never 406
    ("de", DEFAULT_LOCALE),
    ("en;q=0, de", DEFAULT_LOCALE),
    ("", DEFAULT_LOCALE),
    ("fr;q=2, ja", "ja"),                         # invalid q: entry skipped
    ("fr;q=abc", DEFAULT_LOCALE),
    ("fr;q=0.5;level=1", "fr"),                   # extra params ignored
    ("fr;Q=0.5", "fr"),
    ("@@@, ;;;, ,,, fr", "fr"),                   # garbage entries skipped
    ("ja-JP-u-ca-japanese", "ja"),
    ("x-klingon, ar", "ar"),
    ("fr" + ", de" * 600, DEFAULT_LOCALE),       # absurdly long: no preference
])
def test_choose(header: str, expected: str) -> None:
    assert choose(header) == expected


def test_parse_orders_by_quality_keeping_position() -> None:
    assert parse("a;q=0.5, b, c;q=0.5, d;q=1.0") == [("b", 1.0), ("d", 1.0), ("a", 0.5),
                                                      ("c", 0.5)]


def test_more_specific_supported_locale_matches_a_broader_range() -> None:
    assert choose("zh", supported=("en", "zh-Hant"), default="en") == "zh-Hant"


@given(st.text(max_size=300))
def test_any_text_gives_a_supported_locale(header: str) -> None:
    assert choose(header) in SUPPORTED_LOCALES


NASTY = [b"", b",", b";q=1", b"fr;q=", b"fr;q=0.5.5", b"\xff\xfe\xfa", b"fr;q=1e3",
         b"*;q=-1", b"-", b"fr--ca", b"a" * 9, b"fr;" + b"q=0.1;" * 100, b"ja" + b"-x" * 500]


@pytest.mark.parametrize("value", NASTY)
async def test_malformed_headers_never_fail(client: httpx.AsyncClient, value: bytes) -> None:
    for path in ("/capabilities", "/stores/store_ceramics", "/stores/nope"):
        response = await client.get(path, headers=[(b"Accept-Language", value)])
        assert response.status_code < 500
        assert response.headers["content-language"] in SUPPORTED_LOCALES


async def test_content_language_on_every_kind_of_response(client: httpx.AsyncClient,
                                                          alice: dict[str, str]) -> None:
    """Every answer is labelled with the language its text is in (see docs/i18n.md)."""
    # Arabic: one sample store (Ceramics) is translated into it, the others are not.
    arabic = {"Accept-Language": "ar-EG,ar;q=0.9,en;q=0.5"}
    responses = [
        (await client.get("/capabilities", headers=arabic), "en"),    # nothing translated
        (await client.get("/stores/store_ceramics", headers=arabic), "ar"),
        (await client.get("/stores/store_trattoria", headers=arabic), "en"),
        (await client.get("/stores", headers=arabic), "ar, en"),     # one store translated
        (await client.get("/catalogs", headers=arabic), "ar, en"),
        (await client.get("/search?q=mug&storeId=store_ceramics", headers=arabic), "ar"),
        (await client.get("/nowhere", headers=arabic), "ar"),                # 404 route
        (await client.delete("/capabilities", headers=arabic), "ar"),        # 405
        (await client.post("/carts", json={}, headers=arabic), "ar"),        # 401
        (await client.post("/carts", json={"storeId": 5}, headers={**arabic, **alice}), "ar"),
        (await client.post("/carts", json={"storeId": "store_ceramics"},
                           headers={**arabic, **alice}), "en"),             # 201, no text
    ]
    for response, language in responses:
        assert response.headers["content-language"] == language, response.request.url
        assert "Accept-Language" in ",".join(
            response.headers.get_list("vary")).replace(" ", "").split(",")


async def test_default_locale_without_header(client: httpx.AsyncClient) -> None:
    response = await client.get("/stores")
    assert response.headers["content-language"] == DEFAULT_LOCALE


async def test_repeated_header_fields_are_combined(client: httpx.AsyncClient) -> None:
    headers = [(b"Accept-Language", b"de"), (b"Accept-Language", b"ja;q=0.5")]
    response = await client.get("/stores/store_midori", headers=headers)
    assert response.headers["content-language"] == "ja"
