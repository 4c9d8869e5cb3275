"""A number the shopper refuses is never the quantity (language.quantities): "not the 16" after a
12-inch pizza once put 16 pizzas in the cart."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.quantities import how_many as count
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.words import quantity


@pytest.mark.parametrize(("text", "wanted"), [
    ("a 12 inch diavola, not the 16", None),
    ("the 12 oz mug, not the 16", None),
    ("add 2 mugs, not 3", 2),
    ("not 3, 2 please", 2),
    ("pas la 16, la 12", 12),
    ("deux, pas trois", 2),  # numbers in words are read as numbers first
    ("16じゃなくて12個", 12),
    ("3個はいらない、2個で", 2),
    ("add 3 mugs", 3),
])
def test_a_refused_number_is_not_how_many(text: str, wanted: int | None) -> None:
    assert count(text) == wanted


@given(st.integers(min_value=1, max_value=99), st.integers(min_value=1, max_value=99),
       st.sampled_from(["not", "not the", "pas", "pas la", "no"]))
def test_the_count_is_the_one_not_refused(wanted: int, refused: int, negator: str) -> None:
    assert count(f"{negator} {refused}, {wanted} please") == wanted
    assert count(f"{wanted} please, {negator} {refused}") == wanted


@pytest.mark.parametrize(("text", "wanted"), [
    ("a 12 inch diavola, not the 16", None),  # unsaid: one
    ("half a dozen, not 3", 6),
    ("two 300 ml kyusu", 2),
    ("5 seats", None),
])
def test_the_words_reader_does_not_bring_a_refused_number_back(text: str,
                                                               wanted: int | None) -> None:
    assert quantity(text) == wanted


@pytest.mark.parametrize(("said", "name", "wanted"), [
    ("put pixelforge pro 5 in my cart", "PixelForge Pro 5 — Lifetime Licence Key", None),
    ("add 2 pixelforge pro 5 licences", "PixelForge Pro 5 — Lifetime Licence Key", 2),
    ("3 arancini", "Arancini (3)", 3),
    ("make that 3 in total", "Hanging Planter with Jute Cord", 3),
    ("two 300 ml kyusu", "Tokoname Kyusu Teapot, 300 ml", 2),
])
def test_a_number_the_name_writes_is_not_how_many(said: str, name: str,
                                                  wanted: int | None) -> None:
    assert Frame("add", (said,)).quantity(name) == wanted
