"""A correction inside a message (issue 21): the value after the marker replaces the value of
the same kind said just before it, in English, French and Japanese."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language.quantities import how_many
from commerce_agent.agent.models.scripted.mind import corrected


@pytest.mark.parametrize(("said", "meant"), [
    ("add 3 dinner plates, no wait, make that 2", "add 2 dinner plates"),
    ("put 3 of the speckled oat mugs in my cart, sorry I mean 2, my mistake",
     "put 2 of the speckled oat mugs in my cart"),
    ("add 4 san pellegrinos, actually 6", "add 6 san pellegrinos"),
    ("I'd like a 12 inch margherita, or rather a 16 inch", "I'd like a 16 inch margherita"),
    ("add a cobalt blue mug in 16 oz, sorry I mean 12 oz", "add a cobalt blue mug in 12 oz"),
    ("book it at 2pm, no wait, 3pm", "book it at 3pm"),
    ("ajoute trois assiettes plates, pardon, deux", "ajoute 2 assiettes plates"),
    ("je prends une pizza diavola en 12 pouces, euh non, en 16 plutôt",
     "je prends une pizza diavola en 16 pouces"),
    ("mets 5 San Pellegrino, je veux dire 4", "mets 4 San Pellegrino"),
    ("加賀棒茶を3つ、あ、やっぱり4つでお願いします", "加賀棒茶を4つでお願いします"),
    ("玄米茶を2つ、いや、3つカートに入れて", "玄米茶を3つカートに入れて"),
    ("マルゲリータ16インチ、あ、やっぱり12インチでカートに入れて",
     "マルゲリータ12インチでカートに入れて"),
])
def test_the_value_after_the_marker_replaces_the_one_before(said: str, meant: str) -> None:
    assert corrected(said) == meant


@pytest.mark.parametrize("said", [
    "add 2 mugs, no gift box",
    "add 2 mugs, actually 3 plates",  # another thing, not the same count corrected
    "I need 2 mugs, wait, what colours?",
    "2 pizzas, no olives, and 3 cokes",
    "actually make it two",  # an opening change of mind is mind.read's
    "add a mug",
])
def test_a_message_that_corrects_no_value_is_left_as_said(said: str) -> None:
    assert corrected(said) == said


@settings(deadline=None)
@given(st.integers(1, 40), st.integers(1, 40),
       st.sampled_from(["sorry I mean", "no wait", "actually", "make that", "or rather",
                        "I mean", "no wait, make that"]),
       st.sampled_from(["dinner plates", "bags of genmaicha", "mugs"]))
def test_the_count_meant_is_the_last_one_said(first: int, meant: int, marker: str,
                                              thing: str) -> None:
    said = f"add {first} {thing}, {marker} {meant}"
    assert how_many(corrected(said)) == meant


@settings(deadline=None)
@given(st.integers(1, 9), st.integers(1, 9),
       st.sampled_from(["あ、やっぱり", "いや、", "訂正、", "じゃなくて"]))
def test_a_japanese_count_corrected_is_the_last_one(first: int, meant: int, marker: str) -> None:
    said = f"玄米茶を{first}つ、{marker}{meant}つカートに入れて"
    assert how_many(corrected(said)) == meant
