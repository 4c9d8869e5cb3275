"""Days and times, read against a fixed `now` (Tuesday 10 March 2026, noon) and time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import read

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def when(text: str, tz: str = "UTC") -> tuple[str, bool] | None:
    found = read(text, now=NOW, tz=tz).when
    if found is None:
        return None
    shown = found.at.strftime("%Y-%m-%dT%H:%M") if found.has_time else found.at.date().isoformat()
    return shown, found.has_time


@pytest.mark.parametrize(("text", "expected"), [
    ("tomorrow at 7pm", "2026-03-11T19:00"),
    ("next friday evening", "2026-03-13T18:00"),
    ("demain à 19h", "2026-03-11T19:00"),
    ("明日の19時", "2026-03-11T19:00"),
    ("tonight at 8", "2026-03-10T20:00"),
    ("sat 2pm", "2026-03-14T14:00"),
    ("at 3", "2026-03-10T15:00"),
    ("at 11am", "2026-03-11T11:00"),
    ("lundi à 12h30", "2026-03-16T12:30"),
    ("明後日の午後3時", "2026-03-12T15:00"),
    ("deliver tomorrow", "2026-03-11"),
    ("le 20 mars", "2026-03-20"),
    ("on the 15th", "2026-03-15"),
    ("来週の月曜日", "2026-03-16"),
    ("今週の金曜の夜", "2026-03-13T18:00"),
    ("金曜の18時半", "2026-03-13T18:30"),
    ("jeudi 19h", "2026-03-12T19:00"),
    ("friday between 6 and 8pm", "2026-03-13T18:00"),
    ("table for two at 8pm", "2026-03-10T20:00"),
])
def test_days_and_times(text: str, expected: str) -> None:
    found = when(text)
    assert found is not None and found[0] == expected
    assert found[1] == ("T" in expected)


@pytest.mark.parametrize("text", ["add 2 mugs", "mugs under $20", "may I have a mug",
                                  "a second one", "the first mug", "what time is it"])
def test_no_day_or_time(text: str) -> None:
    assert when(text) is None


def test_the_time_zone_decides_which_day_is_tomorrow() -> None:
    # At 12:00 UTC it is already 21:00 in Tokyo: "tomorrow" is the 11th there, at 19:00 local.
    found = read("tomorrow at 7pm", now=NOW, tz="Asia/Tokyo").when
    assert found is not None
    assert found.at == datetime(2026, 3, 11, 19, 0, tzinfo=ZoneInfo("Asia/Tokyo"))


@pytest.mark.parametrize("tz", ["Not/AZone", "", "../etc/passwd"])
def test_an_unknown_time_zone_reads_as_utc(tz: str) -> None:
    found = read("tomorrow at 7pm", now=NOW, tz=tz).when
    assert found is not None and found.at == datetime(2026, 3, 11, 19, 0, tzinfo=ZoneInfo("UTC"))


def test_a_naive_now_is_utc() -> None:
    found = read("tomorrow at 7pm", now=NOW.replace(tzinfo=None), tz="Asia/Tokyo").when
    assert found is not None and found.at.date().isoformat() == "2026-03-11"


def test_the_time_is_removed_from_the_rest_and_is_no_count() -> None:
    reading = read("table for 4 tonight at 8", now=NOW)
    assert [count.value for count in reading.counts] == [4]
    assert reading.rest == "table for"


WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=6), st.integers(min_value=1, max_value=12),
       st.sampled_from(["am", "pm"]), st.sampled_from(["{d} at {h}{m}", "{d} {h}{m}",
                                                       "on {d} at {h} {m}"]))
def test_weekday_and_hour_property(weekday: int, hour: int, meridiem: str, form: str) -> None:
    text = form.format(d=WEEKDAYS[weekday], h=hour, m=meridiem)
    found = read(text, now=NOW).when
    assert found is not None and found.has_time
    assert found.at.weekday() == weekday
    assert NOW < found.at <= NOW + timedelta(days=8)
    assert found.at.hour == hour % 12 + (12 if meridiem == "pm" else 0)
