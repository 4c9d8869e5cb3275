"""Any count said is reported as said (zero, negative, huge), and an add never uses a count
the shopper did not say."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import quantities
from commerce_agent.agent.models.scripted import words

NOUNS = ("mugs", "dinner plates", "espresso cup sets", "hanging planters")


@settings(max_examples=60, deadline=None)
@given(count=st.integers(min_value=-999, max_value=10**7), noun=st.sampled_from(NOUNS))
def test_any_integer_said_is_reported_as_said(count: int, noun: str) -> None:
    assert quantities.how_many(f"add {count} {noun}") == count


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=0, max_value=10**6), noun=st.sampled_from(NOUNS))
def test_the_count_kept_once_measures_are_gone(count: int, noun: str) -> None:
    # what the add reads: no count is replaced (by 1 or anything else) or dropped
    assert words.quantity(words.without_measures(f"add {count} {noun}")) == count


def test_zero_and_signs_in_each_language() -> None:
    assert quantities.how_many("zero mugs") == 0
    assert quantities.how_many("ajoutez zéro tasse") == 0
    assert quantities.how_many("マグを0個") == 0
    assert quantities.how_many("add −3 mugs") == -3
    assert quantities.how_many("茶筅を1000本カートに入れて") == 1000


def test_no_count_said_is_none() -> None:
    assert quantities.how_many("add the blue mug") is None
    assert quantities.how_many("where is ord-3?") is None
    assert quantities.how_many("what about 038596") is None
