"""Timestamps: one place that knows the wire format (ISO 8601, UTC, `Z`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    if moment.tzinfo is not UTC:  # converting costs more than formatting: only when needed
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return iso(now())


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def later_iso(seconds: float) -> str:
    return iso(now() + timedelta(seconds=seconds))
