"""The replacement stage: what goes and what comes, however the swap is phrased (English,
French, Japanese), and no swap where none is said."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import Swap, find_swap
from commerce_agent.agent.models.scripted import words

THINGS = ["the mug", "a teapot", "the dinner plate", "my bowl", "the glaze mug", "2 plates"]


@pytest.mark.parametrize(("said", "old", "new"), [
    ("swap the mug for the bowl", "the mug", "the bowl"),
    ("can you replace the teapot with a dripper please", "the teapot", "a dripper"),
    ("exchange my plate for the serving bowl", "my plate", "the serving bowl"),
    ("instead of the mug, give me the plate", "the mug", "the plate"),
    ("I'll take the plate instead of the mug", "the mug", "the plate"),
    ("remplacez la tasse par l'assiette", "la tasse", "l'assiette"),
    ("le bol au lieu de la tasse", "la tasse", "le bol"),
    ("マグを皿に替えて", "マグ", "皿"),
    ("マグじゃなくて皿", "マグ", "皿"),
])
def test_a_swap_names_what_goes_and_what_comes(said: str, old: str, new: str) -> None:
    found = find_swap(words.fold(said))
    assert found is not None
    assert found.old.endswith(old.split()[-1]) and found.new.endswith(new.split()[-1])


@pytest.mark.parametrize("said", [
    "switch to Lumen Studio", "swap it to the 16 oz", "add a mug", "change the quantity to 3",
    "make it two", "I'd like a pizza with mushrooms", "remove the teapot",
])
def test_no_swap_where_none_is_said(said: str) -> None:
    assert find_swap(words.fold(said)) is None


@given(st.sampled_from(THINGS), st.sampled_from(THINGS),
       st.sampled_from(["swap {a} for {b}", "replace {a} with {b}", "{b} instead of {a}",
                        "instead of {a}, {b}", "trade {a} for {b} please"]))
def test_any_two_things_in_any_swap_shape(a: str, b: str, shape: str) -> None:
    found = find_swap(words.fold(shape.format(a=a, b=b)))
    if a == b:
        assert found is None
    else:
        assert found == Swap(words.fold(a), words.fold(b))


@pytest.mark.parametrize(("said", "old", "new"), [
    ("not the mat, the 10 class pass", "the mat", "the 10 class pass"),
    ("no, not the large but the small one", "the large", "the small one"),
    ("ugh wait, not the teapot, the dripper", "the teapot", "the dripper"),
    ("pas la tasse mais le bol", "la tasse", "le bol"),
    ("non, pas la tasse, plutôt le dripper", "la tasse", "le dripper"),
])
def test_a_thing_refused_first_then_the_one_wanted_is_a_swap(said: str, old: str,
                                                              new: str) -> None:
    found = find_swap(words.fold(said))
    assert found is not None
    assert found.old.endswith(old.split()[-1]) and found.new.endswith(new.split()[-1])


@pytest.mark.parametrize("said", [
    "not now, maybe later", "not really, thanks", "not today, thanks", "add a classic mug, "
    "not the blue one", "don't cancel it, just tell me when it ships", "not yet, I'm browsing",
])
def test_a_refusal_of_no_thing_is_no_swap(said: str) -> None:
    assert find_swap(words.fold(said)) is None
