"""Timestamps: one place that knows the wire format (ISO 8601, UTC, `Z`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    # The hottest timestamp: `now` is already UTC, so it skips iso()'s conversion.
    moment = now()
    text = moment.isoformat(timespec="milliseconds")
    return text[:-6] + "Z" if text.endswith("+00:00") else iso(moment)


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def later_iso(seconds: float) -> str:
    return iso(now() + timedelta(seconds=seconds))
