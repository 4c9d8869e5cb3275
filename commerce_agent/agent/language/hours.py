"""Opening hours as a store writes them (schema.org `openingHours`: "Tu-Sa 10:00-18:00",
"Su 11:00-16:00") shown in the shopper's language: « mar.–sam. 10:00–18:00 »,
「火〜土 10:00〜18:00」.

The day names are Babel's (CLDR), the project's locale library, so no table of ours grows with
languages; a part that is not a day range and a time range stays as the store wrote it.
"""

from __future__ import annotations

import re

from babel.dates import get_day_names

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
