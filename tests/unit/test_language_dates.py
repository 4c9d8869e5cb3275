"""Days and times, read against a fixed `now` (Tuesday 10 March 2026, noon) and time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import dates, read

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


@pytest.mark.parametrize(("text", "expected"), [
    ("le 6 février", "2027-02-06"), ("16 janv.", "2027-01-16"), ("1er juillet", "2026-07-01"),
    ("le 3 juin", "2026-06-03"), ("le 2 août", "2026-08-02"), ("5 déc", "2026-12-05")])
def test_a_french_month_by_its_first_letters(text: str, expected: str) -> None:
    """Three letters name a month, but "juin" and "juil" four; the next such day."""
    found = read(text, now=NOW, default_language="fr").when
    assert found is not None and found.at.date().isoformat() == expected


def allowed(text: str) -> dates.TimesNamed:
    """The times a slot may be at, as the scripted model asks: with the day read from `text`."""
    return dates.times_named(text, read(text, now=NOW).when)


def test_a_weekday_and_a_clock_are_conditions_on_any_slot() -> None:
    named = allowed("saturday at 6:30")
    assert (named.weekday, named.clock, named.either_half, named.on) == (5, (6, 30), True, None)
    assert named.fits(datetime(2026, 3, 21, 18, 30)) and named.fits(datetime(2026, 3, 14, 6, 30))
    assert not named.fits(datetime(2026, 3, 15, 18, 30))


@pytest.mark.parametrize(("text", "weekday", "month", "day", "clock"), [
    ("the 14th of march at 2pm", None, 3, 14, (14, 0)),
    ("mar 14 at 10:00", None, 3, 14, (10, 0)),
    ("samedi à 14h", 5, None, None, (14, 0)),
    ("le 13 mars à 14h30", None, 3, 13, (14, 30)),
    ("3月13日の午後2時半", None, 3, 13, (14, 30)),
    ("土曜日の14時", 5, None, None, (14, 0))])
def test_days_dates_and_hours_in_three_languages(
        text: str, weekday: int | None, month: int | None, day: int | None,
        clock: tuple[int, int]) -> None:
    named = allowed(text)
    assert (named.weekday, named.month, named.day, named.clock) == (weekday, month, day, clock)


def test_a_day_counted_from_today_and_a_limit_come_from_find_when() -> None:
    named = allowed("next saturday after 6pm")
    assert named.on is not None and named.on.isoformat() == "2026-03-14"
    assert (named.weekday, named.clock, named.after) == (None, None, (18, 0))
    assert allowed("tomorrow morning").hours == range(0, 12)
    assert allowed("le plus tôt possible").earliest
    assert not dates.times_named("two mugs please").named()
    # without a reading of the day, a weekday stays a condition on any such day
    assert dates.times_named("next saturday").weekday == 5


@pytest.mark.parametrize(("said", "placed"), [
    ("cancel yesterday's order", dates.DayPlaced(days_ago=1)),
    ("my order from november 20", dates.DayPlaced(on_date=(11, 20))),
    ("la commande du 3 fevrier", dates.DayPlaced(on_date=(2, 3))),
    ("3月5日の注文", dates.DayPlaced(on_date=(3, 5))),
    ("tuesday's order", dates.DayPlaced(weekday=1)),
    ("la commande de samedi", dates.DayPlaced(weekday=5)),
    ("金曜の注文", dates.DayPlaced(weekday=4)),
    ("my last order", dates.DayPlaced())])
def test_the_day_an_order_was_placed(said: str, placed: dates.DayPlaced) -> None:
    assert dates.day_placed(said) == placed
