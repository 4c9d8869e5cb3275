"""Accept-Commerce-Capabilities: parsing and choosing among served versions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.commerce.versions import VARIANTS, Version, negotiate, parse
from commerce_agent.errors import CommerceError


def chosen(header: str) -> str:
    return str(negotiate(header).served(VARIANTS).version)


@pytest.mark.parametrize(("header", "expected"), [
    ("", "1.1"),                                                  # default
    (f"{VARIANTS}@1.0", "1.0"),
    (f"{VARIANTS}@1.1", "1.1"),
    (f"{VARIANTS}@2.0", "2.0"),
    (f"  {VARIANTS.upper()}@2.0 ", "2.0"),                        # case and spaces
    (f"{VARIANTS}@1.7", "1.1"),                                   # newer minor: highest ≤
    (f"{VARIANTS}@2.4", "2.0"),
    (f"{VARIANTS}@1.00", "1.0"),
    (f"{VARIANTS}@3.0, {VARIANTS}@2.0", "2.0"),                   # alternatives in order
    (f"{VARIANTS}@1.5, {VARIANTS}@2.0", "2.0"),                   # exact beats nearest
    (f"{VARIANTS}@2.0, {VARIANTS}@1.0", "2.0"),
    (f"{VARIANTS}@2.0;q=0.5", "2.0"),                             # params ignored
    ("dev.commerce.cart@1.0, dev.unknown.thing@9.9", "1.1"),      # others ignored
    (f"{VARIANTS}, {VARIANTS}@, {VARIANTS}@2, {VARIANTS}@v2.0, @2.0, {VARIANTS}@2.0.1",
     "1.1"),                                                      # malformed ignored
    (f"{VARIANTS}@2.0," + "x" * 5000, "1.1"),                    # absurdly long: ignored
])
def test_resolution(header: str, expected: str) -> None:
    assert chosen(header) == expected


def test_missing_major_is_406_with_the_served_versions() -> None:
    with pytest.raises(CommerceError) as raised:
        negotiate(f"{VARIANTS}@3.0").served(VARIANTS)
    error = raised.value
    assert (error.status, error.code) == (406, "capability_version_unsupported")
    assert error.params == {"capability": VARIANTS, "requested": "3.0",
                            "served": "1.0, 1.1, 2.0"}


def test_only_explicit_deprecated_choices_are_announced() -> None:
    assert negotiate("").deprecation_headers() == []
    assert negotiate(f"{VARIANTS}@1.1").deprecation_headers() == []
    headers = dict(negotiate(f"{VARIANTS}@1.0").deprecation_headers())
    assert headers[b"deprecation"] == b"@1788220800"         # 2026-09-01T00:00:00Z
    assert headers[b"sunset"] == b"Wed, 01 Sep 2027 00:00:00 GMT"
    assert b'rel="deprecation"' in headers[b"link"]


def test_parse_keeps_order_per_capability() -> None:
    assert parse(f"{VARIANTS}@2.0, a.b@1.0, {VARIANTS}@1.1") == {
        VARIANTS: [Version(2, 0), Version(1, 1)], "a.b": [Version(1, 0)]}


@given(st.text(max_size=200))
def test_any_header_negotiates_without_crashing(header: str) -> None:
    negotiated = negotiate(header)
    try:
        negotiated.served(VARIANTS)
    except CommerceError as error:
        assert error.status == 406
