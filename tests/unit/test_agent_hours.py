"""Opening hours in the shopper's language (agent/language/hours.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from commerce_agent.agent.language.hours import day_meant, opening_hours


def test_day_ranges_and_times_in_french_and_japanese() -> None:
    assert opening_hours("Tu-Th 16:00-22:00", "fr") == "mar.–jeu. 16:00–22:00"
    assert opening_hours("We-Mo 10:30-18:30", "ja") == "水〜月 10:30〜18:30"
    assert opening_hours("Su 11:00-16:00", "fr") == "dim. 11:00–16:00"


def test_a_list_of_days_and_days_without_times() -> None:
    assert opening_hours("Mo,We 09:00-10:00", "ja") == "月、水 09:00〜10:00"
    assert opening_hours("Sa-Su", "fr") == "sam.–dim."


def test_english_and_unknown_forms_stay_as_written() -> None:
    assert opening_hours("Tu-Sa 10:00-18:00", "en") == "Tu-Sa 10:00-18:00"
    assert opening_hours("24/7", "fr") == "24/7"


FRIDAY_NIGHT_UTC = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


@pytest.mark.parametrize(("said", "tz", "day"), [
    ("are you open today", "UTC", 4),
    ("open tonight?", "UTC", 4),
    ("what time do you open tomorrow", "UTC", 5),
    ("vous etes ouverts aujourd'hui ?", "UTC", 4),
    ("今日は何時まで開いてますか", "UTC", 4),
    ("are you open today", "Asia/Tokyo", 5),  # already Saturday in Tokyo
    ("what time do you open on sunday, not today", "UTC", 6),  # the day named wins
    ("what are your hours", "UTC", None),
    ("are you open today", "Not/AZone", 4),
    ("are you open now?", "UTC", 4),
    ("vous etes ouverts en ce moment ?", "UTC", 4),
    ("今開いてますか", "UTC", 4),
])
def test_the_day_a_question_about_hours_means(said: str, tz: str, day: int | None) -> None:
    assert day_meant(said, FRIDAY_NIGHT_UTC, tz) == day
