"""Credentials without a database: the bearer token read off a request, the sign-in
throttle's key and its 429, and password hashes."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.auth import bearer, passwords, throttle


@pytest.mark.parametrize(("header", "token"), [
    (None, None), ("Bearer cat_abc", "cat_abc"), ("bearer cat_abc", "cat_abc"),
    ("BEARER  cat_abc ", "cat_abc"), ("Bearer", ""), ("Bearer ", ""), ("Basic dXNlcjpw", ""),
    ("Bearertoken", ""), ("Token cat_abc", ""), ("", "")])
def test_the_token_of_an_authorization_header(header: str | None, token: str | None) -> None:
    assert bearer.parse(header) == token


def _scope(*headers: tuple[bytes, bytes]) -> dict[str, Any]:
    return {"type": "http", "headers": list(headers)}


def test_the_first_authorization_header_counts() -> None:
    scope = _scope((b"accept", b"*/*"), (b"authorization", b"Bearer one"),
                   (b"authorization", b"Bearer two"))
    assert bearer.token(scope) == "one"
    assert bearer.token(_scope((b"accept", b"*/*"))) is None
    assert bearer.token(_scope((b"authorization", "Bearer é".encode("latin-1")))) == "é"


def test_only_a_token_worth_looking_up_is_looked_up() -> None:
    longest = "t" * bearer.MAX_TOKEN
    assert bearer.lookup_token(_scope((b"authorization", f"Bearer {longest}".encode()))) \
        == longest
    for value in (b"Bearer " + b"t" * (bearer.MAX_TOKEN + 1), b"Basic x", b"Bearer "):
        assert bearer.lookup_token(_scope((b"authorization", value))) is None
    assert bearer.lookup_token(_scope()) is None


def test_the_throttle_key_is_the_normalized_email_hashed() -> None:
    key = throttle.email_key("alice@example.com")
    assert throttle.email_key("  Alice@Example.COM\n") == key
    assert throttle.email_key("alice@example.org") != key
    assert len(key) == 64 and "alice" not in key


@pytest.mark.parametrize(("seconds", "minutes"), [(1, 1), (59, 1), (60, 1), (61, 2),
                                                  (900, 15)])
def test_the_429_says_the_minutes_left_rounded_up(seconds: int, minutes: int) -> None:
    error = throttle.too_many_attempts(seconds)
    assert (error.status, error.code, error.params) == (429, "too_many_attempts",
                                                        {"minutes": minutes})
    assert error.headers == {"Retry-After": str(seconds), "Cache-Control": "no-store"}
    unit = "minute." if minutes == 1 else "minutes."
    assert error.message.endswith(f"Try again in {minutes} {unit}")


def test_a_password_hash_verifies_only_its_password() -> None:
    stored = passwords.hash_password("correct horse 🔑")
    assert stored.startswith("scrypt$16384$8$1$")
    assert passwords.verify_password("correct horse 🔑", stored)
    assert not passwords.verify_password("correct horse", stored)
    assert passwords.hash_password("correct horse") != stored  # a salt of its own each time


@pytest.mark.parametrize("stored", [None, "", "bcrypt$2b$12$abc", "plain text"])
def test_no_hash_or_another_scheme_never_verifies(stored: str | None) -> None:
    assert not passwords.verify_password("anything", stored)

