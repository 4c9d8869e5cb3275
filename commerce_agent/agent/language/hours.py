"""Opening hours as a store writes them (schema.org `openingHours`: "Tu-Sa 10:00-18:00",
"Su 11:00-16:00") shown in the shopper's language: « mar.–sam. 10:00–18:00 »,
「火〜土 10:00〜18:00」.

The day names are Babel's (CLDR), the project's locale library, so no table of ours grows with
languages; a part that is not a day range and a time range stays as the store wrote it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import get_day_names

from commerce_agent.agent.language.dates import days_from_today

# schema.org's two-letter days, Monday first (Babel numbers days 0 = Monday).
_DAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")
_SPEC = re.compile(r"^\s*(?P<days>(?:Mo|Tu|We|Th|Fr|Sa|Su)(?:\s*[-,]\s*(?:Mo|Tu|We|Th|Fr|Sa|Su))*)"
                   r"(?:\s+(?P<open>\d{1,2}:\d{2})\s*-\s*(?P<close>\d{1,2}:\d{2}))?\s*$")
_DASH = {"ja": "〜"}


def _day(code: str, language: str) -> str:
    names = get_day_names("abbreviated", locale=language)
    return str(names[_DAYS.index(code)])


def opening_hours(spec: str, language: str) -> str:
    """One `openingHours` entry in `language` (English keeps schema.org's own form)."""
    found = _SPEC.match(spec)
    if language == "en" or found is None:
        return spec
    dash = _DASH.get(language, "–")
    days = re.sub(r"(Mo|Tu|We|Th|Fr|Sa|Su)", lambda day: _day(day.group(1), language),
                  found.group("days"))
    days = re.sub(r"\s*-\s*", dash, days)
    days = re.sub(r"\s*,\s*", "、" if language == "ja" else ", ", days)
    if found.group("open") is None:
        return days
    return f"{days} {found.group('open')}{dash}{found.group('close')}"


# A day of the week named in a question, Monday first: "on sundays", « le mardi », 「火曜日」.
_ASKED_DAYS = (
    (r"\bmondays?\b|\blundis?\b", "月曜"),  # ("mon" is French for "my")
    (r"\btue(?:s|sday)?s?\b|\bmardis?\b", "火曜"),
    (r"\bwed(?:nesday)?s?\b|\bmercredis?\b", "水曜"),
    (r"\bthu(?:rs?|rsday)?s?\b|\bjeudis?\b", "木曜"),
    (r"\bfri(?:day)?s?\b|\bvendredis?\b", "金曜"),
    (r"\bsat(?:urday)?s?\b|\bsamedis?\b", "土曜"),
    (r"\bsun(?:day)?s?\b|\bdimanches?\b", "日曜"),
)


def day_asked(folded: str) -> int | None:
    """The one weekday a (folded) question names (0 = Monday), else None: "open on sundays?",
    « vous êtes ouverts le mardi ? », 「火曜日は何時から」. Two days named ask no one day."""
    named = [day for day, (latin, kanji) in enumerate(_ASKED_DAYS)
             if re.search(latin, folded) or kanji in folded]
    return named[0] if len(named) == 1 else None


# Now, which is today: "are you open now?", « ouverts en ce moment ? », 「今開いてますか」.
_NOW = re.compile(r"\b(?:right now|now|at the moment|currently|maintenant|en ce moment|"
                  r"actuellement)\b|^今|今(?:は|って|から|すぐ)?(?:開|営業|やって)|現在")


def days_ahead_meant(folded: str) -> int | None:
    """How many days from today a question about the hours means when it names no weekday:
    "right now" and "today" 0, "tomorrow" 1; None when it says neither."""
    return 0 if _NOW.search(folded) else days_from_today(folded)


def day_meant(folded: str, now: datetime, tz: str = "UTC") -> int | None:
    """The weekday a question means (0 = Monday): the one it names, else today or tomorrow
    said ("are you open today?", « ouvert ce soir ? », 「今日は何時まで」) as the shopper's
    calendar in `tz` counts them; None when it means no one day."""
    named = day_asked(folded)
    if named is not None:
        return named
    ahead = days_ahead_meant(folded)
    if ahead is None:
        return None
    try:
        zone: tzinfo = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        zone = UTC
    return (now.astimezone(zone).weekday() + ahead) % 7


def _days_of(days: str) -> set[int]:
    """The weekdays of a schema.org day part ("Tu-Sa", "Mo,We", "We-Mo" wrapping round)."""
    found: set[int] = set()
    for part in re.split(r"\s*,\s*", days):
        ends = [_DAYS.index(code) for code in re.split(r"\s*-\s*", part)]
        first, last = ends[0], ends[-1]
        span = (last - first) % 7
        found.update((first + step) % 7 for step in range(span + 1))
    return found


def hours_on(specs: list[str], day: int) -> tuple[str, str] | None | bool:
    """(opening, closing) on `day` from a store's `openingHours`; None when it is closed that
    day; False when an entry is not in the form read here (the hours are then shown whole)."""
    for spec in specs:
        found = _SPEC.match(spec)
        if found is None or found.group("open") is None:
            return False
        if day in _days_of(found.group("days")):
            return found.group("open"), found.group("close")
    return None


def day_name(day: int, language: str) -> str:
    """A weekday's name in `language` (Babel's): "Tuesday", « mardi », 「火曜日」."""
    return str(get_day_names("wide", locale=language)[day])
