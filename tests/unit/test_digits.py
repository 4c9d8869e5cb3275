"""Whole numbers from people and headers (digits.py): ASCII digits only, never an exception."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.digits import whole_number


@given(st.integers(min_value=0, max_value=10**30))
def test_a_written_number_reads_back(number: int) -> None:
    assert whole_number(str(number)) == number


@given(st.text(max_size=12))
def test_any_text_is_a_number_or_none_and_never_raises(text: str) -> None:
    value = whole_number(text)
    assert value is None or (text.isascii() and text.isdigit() and value == int(text))


def test_digits_int_refuses_or_signs_are_not_whole_numbers() -> None:
    for text in ("\u00b2", "1\u00b2", "\u0663", "-1", "+1", " 1", "1.0", "", "1_000"):
        assert whole_number(text) is None, text
