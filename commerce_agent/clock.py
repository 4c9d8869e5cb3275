"""Timestamps: one place that knows the wire format (ISO 8601, UTC, milliseconds, `Z`).

`seconds()` is the one source of the current time (tests move it); the rest derive from it.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

seconds = time.time

# A request stamps several times (now, an expiry, a retention cut-off): formatting each
# minute once and the seconds from tables costs a quarter of datetime.isoformat.
_minutes: dict[int, str] = {}
_SECONDS = [f"{second:02d}" for second in range(60)]
_MILLISECONDS = [f"{millisecond:03d}" for millisecond in range(1000)]


def now() -> datetime:
    return datetime.fromtimestamp(seconds(), UTC)


def iso(moment: datetime) -> str:
    if moment.tzinfo is not UTC:  # converting costs more than formatting: only when needed
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def stamp(epoch: float) -> str:
    """`iso` of a POSIX time (seconds since 1970, UTC)."""
    whole = int(epoch // 1)
    minute, second = divmod(whole, 60)
    prefix = _minutes.get(minute)
    if prefix is None:
        if len(_minutes) > 1024:
            _minutes.clear()
        prefix = _minutes[minute] = time.strftime("%Y-%m-%dT%H:%M:", time.gmtime(minute * 60))
    return f"{prefix}{_SECONDS[second]}.{_MILLISECONDS[int((epoch - whole) * 1000)]}Z"


def now_iso() -> str:
    return stamp(seconds())


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def later_iso(delay: float) -> str:
    return stamp(seconds() + delay)

