"""Timestamps on the wire: ISO 8601 in UTC with milliseconds and `Z`, from one patchable clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent import clock

# Milliseconds from 1970 to 2100; half a millisecond more keeps float rounding out of the way.
MILLISECONDS = st.integers(min_value=0, max_value=4_102_444_800_000)


@given(MILLISECONDS)
def test_stamp_writes_what_isoformat_writes(milliseconds: int) -> None:
    epoch = milliseconds / 1000 + 0.0004
    assert clock.stamp(epoch) == clock.iso(datetime.fromtimestamp(epoch, UTC))


@given(st.lists(MILLISECONDS, min_size=2, max_size=40))
def test_stamps_of_many_moments_in_turn_stay_right(moments: list[int]) -> None:
    # The per-minute cache must never answer one moment with another's minute.
    for milliseconds in moments * 2:
        epoch = milliseconds / 1000 + 0.0004
        assert clock.stamp(epoch) == clock.iso(datetime.fromtimestamp(epoch, UTC))


def test_stamp_shape_and_the_moment_it_names() -> None:
    assert clock.stamp(0.0) == "1970-01-01T00:00:00.000Z"
    assert clock.stamp(1_700_000_000.9999) == "2023-11-14T22:13:20.999Z"
    assert clock.parse(clock.stamp(1_700_000_000.25)).timestamp() == 1_700_000_000.25


def test_every_reading_follows_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "seconds", lambda: 1_800_000_000.5)
    assert clock.now() == datetime.fromtimestamp(1_800_000_000.5, UTC)
    assert clock.now_iso() == "2027-01-15T08:00:00.500Z"
    assert clock.later_iso(60) == "2027-01-15T08:01:00.500Z"
    assert clock.later_iso(-86400) == "2027-01-14T08:00:00.500Z"


def test_iso_converts_other_zones() -> None:
    moment = datetime.fromisoformat("2026-03-01T12:00:00.123456+02:00")
    assert clock.iso(moment) == "2026-03-01T10:00:00.123Z"
