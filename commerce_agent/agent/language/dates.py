"""Days and times: "tomorrow at 7pm", "vendredi soir", "明日の19時".

The time of day is read here (hours with am/pm, "19h30", "19時", noon, and the parts of a day:
morning 9:00, afternoon 15:00, evening 18:00, tonight 20:00); the day is read by `dateparser`
(imported on first use, restricted to the message's language, relative to the given `now` in
the given time zone), and only when a day word is present, so most messages never load it.
A time without a day is today's, or tomorrow's once it has passed.

`times_named` reads the same words as conditions a time slot must meet ("saturday" is any
Saturday, "6:30" either half of the day, "after 6" a limit), with `find_when`'s reading for
the days counted from today.
"""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from commerce_agent.agent.language.folding import fold
from commerce_agent.agent.language.spans import Span, overlaps


@dataclass(frozen=True, slots=True)
class When:
    """The moment the shopper named; `has_time` is False when only a day was said.
    `relative_day` is True when the day was counted from today ("tomorrow", "next Saturday",
    "来週の土曜"), so only today's date places it; `part_of_day` when the time is a part of
    the day's ("morning" reads 9:00) rather than a clock's; `bound` says whether the time is the one
    meant ("at") or a limit ("after 6", "avant 10h", "18時以降")."""

    at: datetime
    has_time: bool
    span: Span
    relative_day: bool = False
    bound: str = "at"
    part_of_day: bool = False  # the time is a part of the day's ("morning"), not a clock's
    either_half: bool = False  # said without am/pm nor a part of the day: "half six"
    approximate: bool = False  # "around 3", "vers 14h", "7ish": the nearest time will do
    # Where the day and the time were said, when words lie between them ("2月8日の証明写真を
    # 13時から"): `span` covers them all, these only the words of time.
    parts: tuple[Span, ...] = ()


_PARTS_OF_DAY = [
    (r"tonight|ce soir|今夜|今晩", time(20, 0), 0),
    (r"evening|soir(?:ée)?|夜|夕方|晩", time(18, 0), None),
    (r"afternoon|après-midi|apres-midi|午後", time(15, 0), None),
    (r"morning|matin(?:ée)?|朝|午前", time(9, 0), None),
    (r"noon|midday|midi|正午|お昼|昼", time(12, 0), None),
    (r"midnight|minuit", time(0, 0), None),
]
_PART_OF_DAY = [(re.compile(rf"(?<![a-z]){pattern}(?![a-z])"), at, days)
                for pattern, at, days in _PARTS_OF_DAY]
_CLOCK = re.compile(
    r"(?<![\d:.,])(?:(?P<at>(?<![a-z])(?:at|à|vers)\s+|@\s*)|"
    r"(?<![a-z])(?P<near>for|by|after|from|before|après|avant|à partir de)\s+)?"
    r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2})|\s?(?P<h>h)\s?(?P<h_minute>\d{2})?(?![a-z])|"
    r"(?P<ji>時)(?:(?P<ji_minute>\d{1,2})分|(?P<half>半))?)?"
    r"(?:\s?(?:-|to|and|à|~|〜)\s?(?P<until>\d{1,2})(?=\s?[ap]\.?m))?"
    r"\s?(?P<meridiem>a\.?m\.?|p\.?m\.?)?(?![\d])"
)
_RELATIVE_DAYS = [
    (r"day after tomorrow|après-demain|apres-demain|明後日|あさって", 2),
    (r"tomorrow|tmrw|tmr|2moro|demain|明日|あした|あす", 1),
    (r"today|tonight|aujourd'hui|ce soir|今日|本日|今夜|今晩", 0),
]
_RELATIVE_DAY = [(re.compile(rf"(?<![a-z-]){pattern}(?![a-z])"), days)
                 for pattern, days in _RELATIVE_DAYS]


def days_from_today(folded: str) -> int | None:
    """How many days from today a (folded) message's relative day is: "today", "tonight", «
    aujourd'hui », 「今日」 are 0, "tomorrow" 1; None when it names none."""
    return next((days for pattern, days in _RELATIVE_DAY if pattern.search(folded)), None)


_DAY_WORDS = {
    "en": r"(?:on|by|until|before|after|for)\s+the\s+\d{1,2}(?:st|nd|rd|th)|\d{1,2}/\d{1,2}|"
          r"monday|tuesday|wednesday|thursday|friday|"
          r"saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|january|february|march|"
          r"april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|"
          r"aug|sep|sept|oct|nov|dec|next week|weekend",
    "fr": r"lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|"
          r"janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|"
          r"novembre|décembre|decembre|semaine prochaine|week-end",
    "ja": r"月曜|火曜|水曜|木曜|金曜|土曜|日曜|\d{1,2}月\d{1,2}日|"
          r"来週|週末",
}
_DAY = {language: re.compile(rf"(?<![a-z])(?:{words})(?![a-z])")
        for language, words in _DAY_WORDS.items()}
_ENGLISH_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july",
                        "august", "september", "october", "november", "december")
_ENGLISH_MONTHS = tuple(name[:3] for name in _ENGLISH_MONTH_NAMES)  # "jan", "feb", …
_ENGLISH_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                          "sunday")
_ENGLISH_WEEKDAYS = tuple(name[:3] for name in _ENGLISH_WEEKDAY_NAMES)  # "mon", "tue", …
# English day words read in a message judged French or Japanese: not those that are French
# words too ("mon", "mar", "dec").
_DAY["en-loose"] = re.compile(
    r"(?<![a-z])(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tue|tues|wed|thu|"
    r"thur|thurs|fri|sat|sun|next week|weekend)(?![a-z])")


def find_when(text: str, language: str, now: datetime, tz: str, taken: list[Span]) -> When | None:
    """The day and time named in `text` (lowercased), relative to `now` in zone `tz`."""
    zone = _zone(tz)
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    local_now = now.astimezone(zone).replace(tzinfo=None)
    masked = _masked(text, taken)
    spoken = _spoken_clock(masked)
    clock, clock_span, bound = (spoken.at, spoken.span, "at") if spoken else _clock(masked)
    part, part_days, part_span = _part_of_day(masked)
    day, day_span, relative = _day(masked, language, local_now,
                                   [span for span in (clock_span,) if span])
    if clock is None and part is None and day is None:
        return None
    at_time = clock or part
    if clock is not None and part is not None and clock.hour < 12 and part.hour >= 15:
        at_time = clock.replace(hour=clock.hour + 12)
    either_half = spoken is not None and spoken.either_half and part is None
    if day is None:
        day = local_now.date() + timedelta(days=part_days or 0)
        if at_time is not None and datetime.combine(day, at_time) < local_now:
            day += timedelta(days=1)
    spans = [span for span in (clock_span, part_span, day_span) if span]
    span = (min(start for start, _ in spans), max(end for _, end in spans))
    if any(span[0] < end and start < span[1] for start, end in taken):
        # The parts lie apart around another reading ("demain : 0 % ; at 0"): claim one part
        # only, so no two readings claim the same characters.
        span = next(span for span in (day_span, clock_span, part_span) if span)
        spans = [span]
    moment = datetime.combine(day, at_time or time(0, 0)).replace(tzinfo=zone)
    return When(moment, at_time is not None, span, relative,
                bound if clock else "at", clock is None and part is not None, either_half,
                _APPROXIMATE.search(masked[max(0, span[0] - 24):span[1] + 4]) is not None,
                tuple(_parts_apart(masked, spans)))


# A Japanese name between a day and its time ("2月8日の証明写真を13時から"): two kana or
# kanji, particles aside. Only Japanese parts are kept apart: an English or French day and
# time claim what lies between them ("jan 11 the 630 pm": the 11 is the day's, no count).
_NAME_BETWEEN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]{2,}")
_PARTICLES = re.compile(r"[のにはでを、,\s]")


def _parts_apart(text: str, spans: list[Span]) -> list[Span]:
    """The day's, the time's and the part of the day's spans, joined unless a Japanese name
    lies between them: "2月8日の証明写真を13時から" is two parts with the thing between."""
    joined: list[Span] = []
    for start, end in sorted(spans):
        if joined and (start <= joined[-1][1] or _NAME_BETWEEN.search(
                _PARTICLES.sub("", text[joined[-1][1]:start])) is None):
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined



@lru_cache(maxsize=64)
def _zone(tz: str) -> ZoneInfo:
    """The time zone named `tz`; UTC when the name is unknown (a shopper's setting, not ours)."""
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _masked(text: str, taken: list[Span]) -> str:
    characters = list(text)
    for start, end in taken:
        characters[start:end] = " " * (end - start)
    return "".join(characters)


# A limit on the time: "after 6", "before 10am", "avant 10h", "18時以降", "10時まで".
_AFTER_WORDS = frozenset({"after", "from", "après", "à partir de"})
_BEFORE_WORDS = frozenset({"before", "by", "avant"})
_BARE_LIMITS = frozenset({"after", "before", "après", "avant", "à partir de"})
_JAPANESE_BOUND = re.compile(r"\s*(?:(?P<after>以降|以後|から|過ぎ)|(?P<before>まで|より前|前))")


def _clock(text: str) -> tuple[time | None, Span | None, str]:
    """The first time of day said: "7pm", "19h30", "19時半", "at 8", the start of "6-8pm",
    "after 6" (a bare hour after a word of limit, when no word follows it: "after 6 months"
    is no time), and whether it is the time meant or a limit."""
    for match in _CLOCK.finditer(text):
        said = match.groupdict()
        meridiem = said["meridiem"]
        near = said["near"] if said["near"] != "for" else None
        # A bare hour only after a word that limits time alone ("reduce it by 2", "pick
        # from 3" are amounts)
        bare_limit = near in _BARE_LIMITS and re.match(r"\s*(?:$|[^\w\s]|(?:and|or|et|ou)\b)",
                                                   text[match.end():]) is not None
        if not (said["minute"] or meridiem or said["h"] or said["ji"] or said["at"]
                or bare_limit):
            continue
        hour = int(said["hour"])
        minute = int(said["minute"] or said["h_minute"] or said["ji_minute"]
                     or (30 if said["half"] else 0))
        if meridiem and meridiem.startswith("p") and hour < 12:
            hour += 12
        if meridiem and meridiem.startswith("a") and hour == 12:
            hour = 0
        if not meridiem and 1 <= hour <= 7 and not (said["minute"] or said["h"] or said["ji"]):
            hour += 12  # "at 3": shops and tables are booked in the afternoon
        if hour > 23 or minute > 59:
            continue
        bound = "after" if near in _AFTER_WORDS else "before" if near in _BEFORE_WORDS else "at"
        span = match.span()
        if said["ji"] and (limit := _JAPANESE_BOUND.match(text, match.end())):
            # the limit's word is the time's: "13時から予約" searches no "から予約"
            bound, span = "after" if limit.group("after") else "before", (span[0], limit.end())
        return time(hour, minute), span, bound
    return None, None, "at"


@dataclass(frozen=True, slots=True)
class _Spoken:
    at: time
    span: Span
    either_half: bool  # no am/pm said: 6:30 or 18:30


# Times said as people say them, which the clock pattern above does not read: "630pm",
# "6.30pm", "at 6 30", "at 1300", "half six", "quarter past 7", "twenty to 8", "7h moins le
# quart", "14 heures et demie" (number words are digits by now, but for "one").
_HOUR = r"(?:\d{1,2}|one|noon|midnight|midi|minuit)"
_SPOKEN_CLOCK = re.compile(
    r"(?<![\w:.,/])(?:"
    r"(?:(?P<before>half|quarter|(?:5|10|20|25))\s+(?:minutes?\s+)?(?P<way>past|after|to|till|til)"
    r"|(?P<half>half))\s+(?P<to_hour>" + _HOUR + r")(?:\s?(?P<to_meridiem>[ap])\.?m\b\.?)?(?![\w:])"
    r"|(?:around|about|roughly)\s+(?P<about_hour>\d{1,2})(?:\s?(?P<about_meridiem>[ap])\.?m\b\.?)?"
    r"(?![\d:]|[.,]\d)(?!\s*(?:people|persons?|places?|seats?|guests?|minutes?|mins?|hours?|"
    r"days?|weeks?))"
    r"|(?P<glued_hour>\d{1,2})(?P<glued_minute>[0-5]\d)\s?(?P<glued_meridiem>[ap])\.?m\b\.?"
    r"|(?P<dot_hour>\d{1,2})\.(?P<dot_minute>[0-5]\d)\s?(?P<dot_meridiem>[ap])\.?m\b\.?"
    r"|(?:at|around|about|@|vers|à)\s+(?:(?P<said_hour>\d{1,2})[.\s](?P<said_minute>[0-5]\d)"
    r"|(?P<army_hour>[01]\d|2[0-3])(?P<army_minute>[0-5]\d))(?!\d)"
    r"(?:\s?(?P<said_meridiem>[ap])\.?m\b\.?)?(?!\s*(?:people|persons?|"
    r"personnes?|places?|seats?|guests?|minutes?|min|mins|hours?|[a-z]{3,}\s+(?:of|for)))"
    r"|(?P<army_said>[01]\d|2[0-3])(?P<army_said_minute>[0-5]\d)\s?(?:hours|hrs|h)(?!\w)"
    r"|(?P<fr_hour>\d{1,2})\s?h(?:eures?)?\s+(?P<fr_way>et demie?|et quart|moins le quart|"
    r"moins (?P<fr_less>\d{1,2}))(?!\w))"
)
_HOUR_WORDS = {"one": 1, "noon": 12, "midi": 12, "midnight": 0, "minuit": 0}
_MINUTES_BEFORE = {"half": 30, "quarter": 15}
_APPROXIMATE = re.compile(r"(?<![a-z])(?:around|about|approximately|roughly|-?ish|vers|"
                          r"environ|autour de|aux alentours de|dans les)(?![a-z])")


def _spoken_clock(text: str) -> _Spoken | None:
    """The first time of day said in words the clock pattern does not read, or None."""
    match = _SPOKEN_CLOCK.search(text)
    if match is None:
        return None
    said = match.groupdict()
    meridiem = said["glued_meridiem"] or said["dot_meridiem"] or said["to_meridiem"] or \
        said["about_meridiem"] or said["said_meridiem"]
    if said["to_hour"]:
        word = said["to_hour"]
        hour = _HOUR_WORDS[word] if word in _HOUR_WORDS else int(word)
        minutes = 30 if said["half"] else _MINUTES_BEFORE.get(said["before"] or "") or int(
            said["before"] or 0)
        if said["way"] in ("to", "till", "til"):
            hour, minutes = (hour - 1) % 24, 60 - minutes
        hour_minute = (hour, minutes)
    elif said["fr_hour"]:
        hour, way = int(said["fr_hour"]), said["fr_way"]
        less = 15 if way == "moins le quart" else int(said["fr_less"] or 0)
        hour_minute = (hour, 30 if "demi" in way else 15) if way.startswith("et") else (
            (hour - 1) % 24, 60 - less)
    elif said["about_hour"]:
        hour_minute = (int(said["about_hour"]), 0)
    else:
        hour_minute = next((int(said[hour]), int(said[minute])) for hour, minute in (
            ("glued_hour", "glued_minute"), ("dot_hour", "dot_minute"),
            ("said_hour", "said_minute"), ("army_hour", "army_minute"),
            ("army_said", "army_said_minute")) if said[hour])
    hour, minute = hour_minute
    if meridiem == "p" and hour < 12:
        hour += 12
    if meridiem == "a" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return None
    twelve_hour = meridiem is None and not (said["army_hour"] or said["army_said"]) and \
        1 <= hour <= 12 and not said["fr_hour"]
    return _Spoken(time(hour, minute), match.span(), twelve_hour)


def _part_of_day(text: str) -> tuple[time | None, int | None, Span | None]:
    for pattern, at, days in _PART_OF_DAY:
        match = pattern.search(text)
        if match:
            return at, days, match.span()
    return None, None, None


_JAPANESE_WEEKDAYS = "月火水木金土日"
_JAPANESE_WEEK = re.compile(rf"(今週|来週|再来週)?の?([{_JAPANESE_WEEKDAYS}])曜日?")
_WEEKS_AHEAD = {"今週": 0, "来週": 1, "再来週": 2}
_JAPANESE_DATE = re.compile(r"(?<!\d)(\d{1,2})月(\d{1,2})日")
# A day of the month said alone ("13日の朝", "4日に"): never a length ("3日間", "2日後", "5日以内")
# nor a count of days ("1日2回").
_JAPANESE_DAY_OF_MONTH = re.compile(
    r"(?<![\d月])(\d{1,2})日(?!間|目|後|前|以内|以上|ほど|程|ぐらい|くらい|分|\d|[0-9]+回)(?=[のにはで、\s]|$)")
# A French day of the month with its month ("le 6 février", "1er mars", "16 janv."): read
# here, as the Japanese one is, because dateparser's search loses it among other words ("une
# le 6 fevrier a" came back as the 26th).
_FRENCH_MONTHS = ("janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout",
                  "septembre", "octobre", "novembre", "decembre")
_FRENCH_DATE = re.compile(r"(?<![\d,.])(\d{1,2})(?:er)?\s+(janv(?:ier)?|f[ée]vr?(?:ier)?|mars|"
                          r"avr(?:il)?|mai|juin|juil(?:let)?|ao[uû]t|sept(?:embre)?|"
                          r"oct(?:obre)?|nov(?:embre)?|d[ée]c(?:embre)?)\.?(?![a-z])")


# Words that count a day from today: "next Saturday", "this Friday", "samedi prochain".
_COUNTED = re.compile(r"(?<![a-z])(?:next|this|coming|prochain\w*|ce)(?![a-z])")


def _day(text: str, language: str, now: datetime, clock: list[Span]
         ) -> tuple[date | None, Span | None, bool]:
    """The day named, where it was said, and whether it was counted from today."""
    week = _JAPANESE_WEEK.search(text)
    if week:  # dateparser reads neither "来週の月曜日" nor "金曜の"
        weekday = _JAPANESE_WEEKDAYS.index(week.group(2))
        if week.group(1) is None:  # the coming one, today included
            return (now.date() + timedelta(days=(weekday - now.weekday()) % 7), week.span(),
                    False)
        monday = now.date() - timedelta(days=now.weekday())
        offset = 7 * _WEEKS_AHEAD[week.group(1)] + weekday
        return monday + timedelta(days=offset), week.span(), True
    written = _JAPANESE_DATE.search(text)
    french = _FRENCH_DATE.search(text) if language == "fr" else None
    if french:
        month_word = french.group(2).replace("é", "e").replace("û", "u")
        # by its first three letters, but "juin" and "juil" by four
        month = next(index for index, name in enumerate(_FRENCH_MONTHS, 1)
                     if month_word.startswith(name[:3]) and (name[:3] != "jui" or
                                                             month_word.startswith(name[:4])))
        return _next_date(now.date(), month, int(french.group(1))), french.span(), False
    if written:  # dateparser's search misses "3月13日の午後": the next such day
        month, day = int(written.group(1)), int(written.group(2))
        for year in (now.year, now.year + 1):
            try:
                found = date(year, month, day)
            except ValueError:
                return None, None, False
            if found >= now.date():
                return found, written.span(), False
    if (alone := _JAPANESE_DAY_OF_MONTH.search(text)) and 1 <= int(alone.group(1)) <= 31:
        return _next_day_of_month(now.date(), int(alone.group(1))), alone.span(), False
    for pattern, days in _RELATIVE_DAY:
        relative = pattern.search(text)
        if relative:
            return now.date() + timedelta(days=days), relative.span(), True
    masked = _masked(text, clock)
    # English day words are read in any message: short ones ("sat 2pm") are often misjudged.
    for words in dict.fromkeys((language, "en" if language == "en" else "en-loose")):
        trigger = _DAY.get(words, _DAY["en"])
        if not trigger.search(masked):
            continue
        for said, moment in _search(masked, words[:2], now.date()):
            span = _found_span(masked, said)
            start = span[0]
            if clock and start >= 0 and overlaps(span, clock) and start < clock[0][0]:
                span = (start, clock[0][0])  # the day said before the time, not the time
            if start >= 0 and trigger.search(said) and not overlaps(span, clock):
                counted = _COUNTED.search(said) or _COUNTED.search(masked[span[1]:span[1] + 10])
                return moment.date(), span, counted is not None
    return None, None, False


def _found_span(text: str, said: str) -> Span:
    """Where dateparser's `said` lies in `text`; it folds runs of spaces (a masked time)."""
    start = text.find(said)
    if start >= 0:
        return start, start + len(said)
    spaced = re.search(r"\s+".join(re.escape(word) for word in said.split()), text)
    return spaced.span() if spaced else (-1, -1)


def _next_day_of_month(today: date, day: int) -> date | None:
    """The next `day` of a month from `today` on (this month's, else the next month that has
    one)."""
    year, month = today.year, today.month
    for _ in range(3):  # the 31st may skip a month
        with suppress(ValueError):
            if (found := date(year, month, day)) >= today:
                return found
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def _next_date(today: date, month: int, day: int) -> date | None:
    """The next `day` of `month` from `today` on (this year's, else next year's)."""
    for year in (today.year, today.year + 1):
        try:
            found = date(year, month, day)
        except ValueError:
            return None
        if found >= today:
            return found
    return None


@lru_cache(maxsize=1024)
def _search(text: str, language: str, today: date) -> tuple[tuple[str, datetime], ...]:
    """dateparser's days in `text`; only the day is used, so it is cached by the day."""
    search_dates = _search_dates()
    settings = {"RELATIVE_BASE": datetime.combine(today, time(12, 0)),
                "PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False}
    found = search_dates(text, languages=[language], settings=settings)
    return tuple(found or ())


@lru_cache(maxsize=1)
def _search_dates() -> Any:
    from dateparser.search import search_dates

    return search_dates


# -- the times a slot may be at ----------------------------------------------------------

@dataclass
class TimesNamed:
    """The dates and times the person named; a slot fits when it meets every one."""

    weekday: int | None = None
    month: int | None = None
    day: int | None = None
    clock: tuple[int, int] | None = None
    either_half: bool = False  # "6:30" without am/pm: 06:30 or 18:30
    hours: range | None = None
    weekend: bool = False
    on: date | None = None  # a day counted from today ("tomorrow", "来週の土曜")
    after: tuple[int, int] | None = None  # "any evening after 6", "18時以降"
    before: tuple[int, int] | None = None  # "before 10am", "avant 10h"
    earliest: bool = False  # "the earliest you have", "le plus tôt", "一番早い枠"
    approximate: bool = False  # "around 3", "vers 14h": the nearest time will do

    def named(self) -> bool:
        return any(value is not None for value in (
            self.weekday, self.month, self.day, self.clock, self.hours, self.on, self.after,
            self.before)) or self.weekend or self.earliest

    def fits(self, moment: datetime) -> bool:
        checks = [
            self.weekday is None or moment.weekday() == self.weekday,
            self.month is None or moment.month == self.month,
            self.day is None or moment.day == self.day,
            self.hours is None or moment.hour in self.hours,
            not self.weekend or moment.weekday() >= 5,
            self.on is None or moment.date() == self.on,
            self.after is None or (moment.hour, moment.minute) >= self.after,
            self.before is None or (moment.hour, moment.minute) < self.before,
        ]
        if self.clock is not None:
            hour, minute = self.clock
            times = {(hour, minute), (hour + 12, minute)} if self.either_half else {
                (hour, minute)}
            checks.append((moment.hour, moment.minute) in times)
        return all(checks)


_ENGLISH_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"


# The first open time, whenever it is: not a time named, a choice among those offered.
_EARLIEST = re.compile(
    r"\b(?:earliest|soonest|first (?:available|free|open)|next (?:available|free|open)|"
    r"as soon as (?:possible|you can)|asap|le plus tot|au plus tot|des que possible|"
    r"(?:le )?premier (?:creneau|horaire) (?:libre|disponible))\b|一番早い|いちばん早い|"
    r"最も早い|最短|早い(?:時間|枠|日)")


def times_named(text: str, when: When | None = None) -> TimesNamed:
    """The times a slot may be at by the words of `text`: days, dates, hours and parts of the
    day in English, French and Japanese, each read as a condition ("saturday" is any Saturday,
    "6:30" either half of the day). `when`, the day and time `find_when` read in the latest
    message that names one, sets the day counted from today and the limits on the time."""
    text = fold(text)
    found = TimesNamed()
    found.earliest = _EARLIEST.search(text) is not None
    for index, name in enumerate(_ENGLISH_WEEKDAYS):
        if re.search(rf"\b{name}[a-z]*\b", text):
            found.weekday = index
    if match := re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_ENGLISH_MONTH}", text):
        found.day, found.month = int(match.group(1)), _ENGLISH_MONTHS.index(match.group(2)) + 1
    elif match := re.search(rf"\b{_ENGLISH_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", text):
        found.month, found.day = _ENGLISH_MONTHS.index(match.group(1)) + 1, int(match.group(2))
    elif match := re.search(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b(?!\s+one)", text):
        found.day = int(match.group(1))
    clock = re.search(r"\b(\d{1,2})[:.h](\d{2})\s*(am|pm)?\b", text) or \
        re.search(r"\b(\d{1,2})()\s*(am|pm)\b", text) or \
        re.search(r"\b(\d{1,2})()\s*o'?\s?clock\b()", text)
    if clock:
        hour, minute, suffix = int(clock.group(1)), int(clock.group(2) or 0), clock.group(3) or None
        if suffix == "pm" and hour < 12:
            hour += 12
        if suffix == "am" and hour == 12:
            hour = 0
        found.clock, found.either_half = (hour, minute), suffix is None and hour < 12
    if found.clock is None and re.search(r"\b(?:noon|midday)\b|(?<![\w-])midi\b|正午", text):
        found.clock = (12, 0)
    for part, hours in (("morning", range(0, 12)), ("afternoon", range(12, 17)),
                        ("evening", range(17, 24)), ("tonight", range(17, 24))):
        if part in text:
            found.hours = hours
    found.weekend = "weekend" in text
    _french_when(text, found)
    _japanese_when(text, found)
    _counted_when(when, found)
    return found


# The hours of a part of the day, by the time `find_when` gives it.
_PARTS = ((11, range(0, 12)), (12, range(12, 13)), (16, range(12, 17)), (23, range(17, 24)))


def _counted_when(when: When | None, found: TimesNamed) -> None:
    """The day counted from today and the limits on the time: they replace the weekday and
    clock read above ("next Saturday" is one Saturday; "after 6pm" is no slot at 18:00 only)."""
    if when is None:
        return
    if when.relative_day:
        found.on, found.weekday, found.month, found.day = when.at.date(), None, None, None
    found.approximate = when.approximate
    if when.has_time and found.clock is None and found.hours is None:
        if when.part_of_day:  # "午前", "le matin": any time in that part of the day
            found.hours = next(hours for last, hours in _PARTS if when.at.hour <= last)
        elif when.bound == "at":
            found.clock = (when.at.hour, when.at.minute)  # "tomorrow at 5": 17:00, as read
            found.either_half = when.either_half
    elif when.has_time and not when.part_of_day and when.bound == "at" and (
            found.clock is None or found.clock[1] != when.at.minute or
            found.clock[0] % 12 != when.at.hour % 12):
        # A time said in words ("630pm", "half six", "quarter past one") that the patterns
        # above misread or missed: `find_when`'s reading wins.
        found.clock, found.either_half = (when.at.hour, when.at.minute), when.either_half
    if when.has_time and when.bound != "at":
        limit = (when.at.hour, when.at.minute)
        found.clock, found.either_half = None, False
        if when.bound == "after":
            found.after = limit
        else:
            found.before = limit


_FRENCH_WEEKDAYS = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")


def _french_when(text: str, found: TimesNamed) -> None:
    """French days, dates and hours ("samedi", "le 13 mars", "à 14h", "14h30", "le matin"):
    a 24-hour clock."""
    for index, name in enumerate(_FRENCH_WEEKDAYS):
        if re.search(rf"\b{name}\b", text):
            found.weekday = index
    months = "|".join(_FRENCH_MONTHS)
    if match := re.search(rf"\b(\d{{1,2}})(?:er)?\s+({months})\b", text):
        found.day, found.month = int(match.group(1)), _FRENCH_MONTHS.index(match.group(2)) + 1
    if match := re.search(r"\b(\d{1,2})\s*h(?:eures?)?\s*(\d{2})?(?![\w:])", text):
        found.clock, found.either_half = (int(match.group(1)), int(match.group(2) or 0)), False
    for part, hours in (("matin", range(0, 12)), ("apres-midi", range(12, 17)),
                        ("soir", range(17, 24))):
        if part in text:
            found.hours = hours
    found.weekend = found.weekend or "week-end" in text


def _japanese_when(text: str, found: TimesNamed) -> None:
    """Japanese dates and hours ("3月13日", "土曜日", "14時", "午後2時半", "朝")."""
    if match := re.search(r"(\d{1,2})月(\d{1,2})日", text):
        found.month, found.day = int(match.group(1)), int(match.group(2))
    elif match := _JAPANESE_DAY_OF_MONTH.search(text):
        found.day = int(match.group(1))
    if match := re.search(rf"([{_JAPANESE_WEEKDAYS}])曜", text):
        found.weekday = _JAPANESE_WEEKDAYS.index(match.group(1))
    if match := re.search(r"(午前|午後)?\s*(\d{1,2})時(?:(\d{1,2})分|(半))?", text):
        hour = int(match.group(2))
        if match.group(1) == "午後" and hour < 12:
            hour += 12
        minute = int(match.group(3)) if match.group(3) else (30 if match.group(4) else 0)
        found.clock, found.either_half = (hour, minute), match.group(1) is None and hour < 12
    for part, hours in (("朝", range(0, 12)), ("午前中", range(0, 12)),
                        ("午後", range(12, 17)), ("夕方", range(17, 24)), ("夜", range(17, 24))):
        if part in text and found.clock is None:
            found.hours = hours
    found.weekend = found.weekend or "週末" in text


# -- the day an order was placed -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DayPlaced:
    """The day said of a past order: counted back from today ("yesterday's order": 1), a date
    ("my order from November 20": (11, 20)) or a weekday ("Tuesday's order": 1)."""

    days_ago: int | None = None
    on_date: tuple[int, int] | None = None
    weekday: int | None = None


_DAYS_AGO = [(re.compile(r"\bday before yesterday\b|\bavant-hier\b|一昨日|おととい"), 2),
             (re.compile(r"\byesterday\b|\bhier\b|昨日|きのう"), 1),
             (re.compile(r"\btoday\b|\baujourd'hui\b|\bce matin\b|\bthis morning\b|今日|今朝"),
              0)]
_MONTH_NUMBERS = {name: number for number, names in enumerate(
    zip(_ENGLISH_MONTH_NAMES, _FRENCH_MONTHS, strict=True), start=1) for name in names}
_MONTH_NAME = "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True))
_ON_DATE = re.compile(rf"\b(?:(?P<m1>{_MONTH_NAME})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?|"
                      rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th|er)?\s+(?:of\s+)?(?P<m2>{_MONTH_NAME}))\b|"
                      r"(?P<m3>\d{1,2})月(?P<d3>\d{1,2})日")
_WEEKDAY_NUMBERS = {name: number for number, names in enumerate(zip(
    _ENGLISH_WEEKDAY_NAMES, _FRENCH_WEEKDAYS, (f"{day}曜" for day in _JAPANESE_WEEKDAYS),
    strict=True)) for name in names}
_WEEKDAY = re.compile(rf"\b(?:{'|'.join(_ENGLISH_WEEKDAY_NAMES + _FRENCH_WEEKDAYS)})\b|"
                      rf"[{_JAPANESE_WEEKDAYS}]曜")
# Every name of a month or a weekday: words that name no item.
DAY_NAMES = frozenset(_MONTH_NUMBERS) | frozenset(_WEEKDAY_NUMBERS)


def day_placed(folded: str) -> DayPlaced:
    """The day `folded` (as `folding.fold` makes it) says an order was placed on."""
    days_ago = next((days for pattern, days in _DAYS_AGO if pattern.search(folded)), None)
    dated = _ON_DATE.search(folded)
    on_date = None
    if dated:
        month = dated.group("m1") or dated.group("m2")
        on_date = (_MONTH_NUMBERS[month] if month else int(dated.group("m3")),
                   int(dated.group("d1") or dated.group("d2") or dated.group("d3")))
    weekday = _WEEKDAY.search(folded)
    return DayPlaced(days_ago, on_date, _WEEKDAY_NUMBERS[weekday.group(0)] if weekday else None)
