"""Positions in a list: "the second one", "la 3e", "2番目", "the last one"; never counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import read
from commerce_agent.agent.language.ordinals import index_named

num2words = pytest.importorskip("num2words", reason="num2words (test extra) is not installed")


@pytest.mark.parametrize(("text", "position"), [
    ("the second one", 2), ("give me the 3rd", 3), ("the first mug", 1),
    ("la deuxième tasse", 2), ("le second", 2), ("la 3e", 3), ("la première", 1),
    ("二番目の急須", 2), ("the last one", -1), ("my last order", -1), ("la dernière", -1),
    ("最後のやつ", -1),
])
def test_ordinals(text: str, position: int) -> None:
    reading = read(text)
    assert [ordinal.position for ordinal in reading.ordinals] == [position]
    assert reading.counts == ()


@pytest.mark.parametrize(("folded", "index"), [
    ("the second one", 1), ("the last", -1), ("number 3", 2), ("no. 4", 3), ("option 1", 0),
    (" 2. ", 1), ("最初の", 0), ("the blue one", None), ("le premier", None),
])
def test_index_named_by_a_word_or_a_number(folded: str, index: int | None) -> None:
    assert index_named(folded) == index


def test_an_ordinal_beside_a_count() -> None:
    reading = read("2 of the first one")
    assert [count.value for count in reading.counts] == [2]
    assert [ordinal.position for ordinal in reading.ordinals] == [1]


@pytest.mark.parametrize("text", ["add 2 mugs", "one more", "#2", "order ord_2nd"])
def test_no_ordinal(text: str) -> None:
    assert read(text).ordinals == ()


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=99))
def test_english_ordinal_words_read_back(number: int) -> None:
    words = num2words.num2words(number, lang="en", to="ordinal")
    assert [ordinal.position for ordinal in read(f"the {words} one").ordinals] == [number]


# num2words spells 80th "quatre-vingtsième"; French writes "quatre-vingtième".
@settings(deadline=None)
@given(st.integers(min_value=2, max_value=99).filter(lambda number: number != 80))
def test_french_ordinal_words_read_back(number: int) -> None:
    words = num2words.num2words(number, lang="fr", to="ordinal")
    assert [ordinal.position for ordinal in read(f"la {words} tasse").ordinals] == [number]
