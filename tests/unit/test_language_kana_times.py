"""Kana words of time read in kanji (`language/kana_calendar.py`, run by `tidy`), and the date
reader reading them, Japanese days of the month said alone, and a day and a time said apart."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from commerce_agent.agent.language import read
from commerce_agent.agent.language.dates import times_named
from commerce_agent.agent.language.kana_calendar import in_kanji
from commerce_agent.agent.language.reading import without_when
from commerce_agent.agent.language.tidy import tidy

NOW = datetime(2027, 1, 10, 9, 0, tzinfo=UTC)  # a Sunday


@pytest.mark.parametrize(("typed", "kanji"), [
    ("あしたの あさ7じ", "明日の 朝7時"),
    ("1がつ11にちの ごご6じはん", "1月11日の 午後6時半"),
    ("らいしゅうの どようびの よる", "来週の 土曜日の 夜"),
    ("7じ30ぷん", "7時30分"),
    ("あさっての ゆうがた", "明後日の 夕方"),
])
def test_kana_words_of_time_are_read_in_kanji(typed: str, kanji: str) -> None:
    assert in_kanji(typed) == kanji


@pytest.mark.parametrize("typed", [
    "あさひもの ぷらんたー",  # 麻ひも: no morning
    "きょうとの おちゃ",  # 京都: no today
    "送料は地域による",  # "depends on": no night
    "3じかん",  # three hours long: no 3 o'clock
    "ぎょくろを ふたつ",
])
def test_kana_that_is_no_word_of_time_stays(typed: str) -> None:
    assert in_kanji(typed) == typed


def _when(text: str, now: datetime = NOW) -> str | None:
    found = read(tidy(text), now=now, tz="UTC").when
    return found.at.strftime("%Y-%m-%dT%H:%M") if found else None


@pytest.mark.parametrize(("text", "expected"), [
    ("あしたの あさ7じの ヴィンヤサ", "2027-01-11T07:00"),
    ("あさっての あさ10じに", "2027-01-12T10:00"),
    ("13日の朝の茶道体験", "2027-01-13T09:00"),
    ("4日の午前に", "2027-02-04T09:00"),  # the 4th has passed this month: next month's
    ("らいしゅうの どようびの ごご", "2027-01-16T15:00"),
])
def test_the_date_reader_reads_kana_and_days_of_the_month(text: str, expected: str) -> None:
    assert _when(text) == expected


@pytest.mark.parametrize("text", ["3日間で届きますか", "1日2回"])
def test_a_length_or_a_rate_in_days_is_no_day(text: str) -> None:
    assert _when(text) is None


def test_a_day_of_the_month_is_no_count() -> None:
    assert read("4日の午前に茶道体験を予約したいです", now=NOW).counts == ()


def test_the_limit_word_after_a_time_is_the_times() -> None:
    found = read("13時から予約したいです", now=NOW)
    assert found.when is not None and found.when.bound == "after"
    assert "から" not in found.rest


def test_a_day_and_a_time_said_apart_leave_the_thing_between_them() -> None:
    text = "2月8日の証明写真ミニ撮影を13時から予約したいです"
    found = read(text, now=NOW)
    assert found.when is not None and len(found.when.parts) == 2
    assert "証明写真ミニ撮影" in found.rest
    assert "証明写真ミニ撮影" in without_when(text)


def test_a_day_and_a_time_said_together_are_one_part() -> None:
    found = read("明日の14時の茶道体験", now=NOW)
    assert found.when is not None and found.when.parts == (found.when.span,)


def test_slot_conditions_read_kana_and_days_of_the_month() -> None:
    named = times_named(tidy("13日の あさ"))
    assert named.day == 13 and named.hours == range(0, 12)
    assert times_named(tidy("ごご2じはん")).clock == (14, 30)
