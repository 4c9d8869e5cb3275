"""What a registration must satisfy (auth/accounts.check_registration), at each bound."""

from __future__ import annotations

import pytest

from commerce_agent.auth import accounts

GOOD = {"email": "dana@example.com", "password": "p" * 8, "name": "Dana"}


def test_a_good_registration_has_no_problem() -> None:
    assert accounts.check_registration(**GOOD) == {}
    assert accounts.check_registration("  Dana@Example.COM ", "p" * 256, "D" * 100) == {}
    assert accounts.normalize_email("  Dana@Example.COM ") == "dana@example.com"


@pytest.mark.parametrize("email", [
    "", "   ", "dana", "dana@", "@example.com", "dana@example", "dana@@example.com",
    "da na@example.com", "dana@example..com", "dana@.example.com",
    "d" * 243 + "@example.com",  # 255 characters
])
def test_an_email_that_is_not_an_address(email: str) -> None:
    assert accounts.check_registration(**{**GOOD, "email": email}) == {
        "email": "must be a valid email address"}


@pytest.mark.parametrize(("password", "ok"), [
    ("p" * 7, False), ("p" * 8, True), ("p" * 256, True), ("p" * 257, False), ("", False)])
def test_a_password_of_8_to_256_characters(password: str, ok: bool) -> None:
    problems = accounts.check_registration(**{**GOOD, "password": password})
    assert problems == ({} if ok else {"password": "must be 8 to 256 characters"})


@pytest.mark.parametrize("name", ["", "   ", "N" * 101, "Dana\x00", "Dana\nSmith", "\u200b"])
def test_a_name_of_1_to_100_printable_characters(name: str) -> None:
    assert accounts.check_registration(**{**GOOD, "name": name}) == {
        "name": "must be 1 to 100 printable characters"}


def test_every_problem_is_named_at_once() -> None:
    assert set(accounts.check_registration("x", "short", "")) == {"email", "password", "name"}
