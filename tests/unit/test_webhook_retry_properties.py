"""When a failed webhook delivery is tried again, as properties (hypothesis): the back-off
doubles from the base and never passes the 6-hour cap, whatever the attempt count; a receiver's
Retry-After — seconds or an HTTP date, or anything else a server may send — is read as a delay
from 0 to the cap, or ignored, never an error."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.commerce.services.webhooks.sender import retry_after_seconds, retry_delay
from commerce_agent.commerce.services.webhooks.subscriptions import MAX_DELAY_SECONDS

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
CAP = float(MAX_DELAY_SECONDS)


@given(attempts=st.integers(1, 10**9), base=st.floats(0.001, 3600))
def test_the_back_off_doubles_up_to_the_cap(attempts: int, base: float) -> None:
    delay = retry_delay(attempts, base)
    assert 0 < delay <= CAP
    assert retry_delay(attempts + 1, base) >= delay
    if attempts < 30:
        assert delay == min(base * 2 ** (attempts - 1), CAP)


@given(attempts=st.integers(1, 100), base=st.floats(0.001, 3600), retry_after=st.floats(0, 10**12))
def test_a_retry_after_replaces_the_back_off_within_the_cap(
    attempts: int, base: float, retry_after: float
) -> None:
    assert retry_delay(attempts, base, retry_after) == min(retry_after, CAP)


@given(seconds=st.integers(0, 10**12), padding=st.sampled_from(["", " ", "\t", "  "]))
def test_seconds_are_read_and_capped(seconds: int, padding: str) -> None:
    assert retry_after_seconds(f"{padding}{seconds}{padding}", NOW) == min(seconds, CAP)


@given(offset=st.integers(-(10**7), 10**7))
def test_an_http_date_is_its_distance_from_now_within_zero_and_the_cap(offset: int) -> None:
    moment = NOW + timedelta(seconds=offset)
    header = format_datetime(moment, usegmt=True)
    assert retry_after_seconds(header, NOW) == min(max(float(offset), 0.0), CAP)


@given(text=st.text(max_size=40))
def test_any_other_text_is_a_delay_in_bounds_or_ignored(text: str) -> None:
    found = retry_after_seconds(text, NOW)
    assert found is None or 0.0 <= found <= CAP
    if not text.strip():
        assert found is None


def test_digits_that_are_not_ascii_are_ignored() -> None:
    # "²" and "٣" are digits to str.isdigit, not to float(): never read as a delay.
    for text in ("²", "٣", "1²", "１２"):
        assert retry_after_seconds(text, NOW) is None
    assert retry_after_seconds("-5", NOW) is None
    assert retry_after_seconds("1.5", NOW) is None
