"""Times of day said as people say them ("630pm", "half six", "quarter past one", "at 1300",
"7h moins le quart"), read by the one date reader; and the party a booking is for."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import read
from commerce_agent.agent.language.party import party_size

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "expected", "either_half"), [
    ("the 630 pm class on 11 january", "2027-01-11T18:30", False),
    ("jan 11 at 6.30pm", "2027-01-11T18:30", False),
    ("on 11 january at 6 30 in the evening", "2027-01-11T18:30", False),
    ("jan 11 at half six pm", "2027-01-11T18:30", False),
    ("8 feb at quarter past one", "2026-02-08T01:15", True),
    ("8 feb at quarter to seven in the evening", "2027-02-08T18:45", False),
    ("feb 8 at 1300", "2027-02-08T13:00", False),
    ("feb 8 around 3", "2027-02-08T03:00", True),
    ("le 13 mars à 7h et demie", "2026-03-13T07:30", False),
    ("tomorrow at 6.30pm", "2026-03-11T18:30", False),
])
def test_times_said_in_words(text: str, expected: str, either_half: bool) -> None:
    found = read(text, now=NOW).when
    assert found is not None and found.has_time
    assert found.at.strftime("%m-%dT%H:%M") == expected[5:]
    assert found.either_half is either_half


def test_around_is_approximate() -> None:
    found = read("feb 8 around 3", now=NOW).when
    assert found is not None and found.approximate
    exact = read("feb 8 at 3pm", now=NOW).when
    assert exact is not None and not exact.approximate


@pytest.mark.parametrize("text", ["2 to 4 people", "add 2.50 worth", "about 2 weeks",
                                  "at 1200 grams"])
def test_no_time_in_amounts(text: str) -> None:
    found = read(text, now=NOW).when
    assert found is None or not found.has_time


@pytest.mark.parametrize(("text", "size"), [
    ("can you book two places on the sound bath for me and my partner", 2),
    ("book the sound bath for two on 23 january", 2),
    ("for me and my wife please", 2),
    ("réservez pour nous deux", 2),
    ("le 11 janvier à 18h30 pour deux personnes", 2),
    ("book me and 2 friends in", 3),
    ("for the three of us", 3),
    ("2名で予約したい", 2),
    ("book vinyasa for 2pm", None),
    ("book it for 23 january", None),
    ("a 5-seat licence", None),
    ("book the class for tomorrow", None),
])
def test_party_size(text: str, size: int | None) -> None:
    assert party_size(text) == size


@given(st.integers(min_value=1, max_value=30))
def test_a_counted_party_is_its_count(count: int) -> None:
    assert party_size(f"book {count} places please") == count
