"""Typo-tolerant matching of product and store names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import best_matches, fold_name, mentions, similarity

NAMES = ["Celadon Teapot, 700 ml", "Kyusu Side-Handle Teapot", "Classic Stoneware Mug",
         "Stoneware Dinner Plate, 27 cm", "Uji Matcha", "Takayama Bamboo Chasen (80 tines)",
         "Tiramisù", "Pizza Margherita"]


@pytest.mark.parametrize(("query", "best"), [
    ("kyuusu", "Kyusu Side-Handle Teapot"),
    ("tea pot celadon", "Celadon Teapot, 700 ml"),
    ("stonware mug", "Classic Stoneware Mug"),
    ("tiramisu", "Tiramisù"),
    ("margarita pizza", "Pizza Margherita"),
    ("chasen", "Takayama Bamboo Chasen (80 tines)"),
])
def test_a_query_finds_the_one_name_despite_typos(query: str, best: str) -> None:
    assert [name for name in NAMES if mentions(name, query)] == [best]


@pytest.mark.parametrize(("a", "b"), [("kyuusu", "kyusu"), ("tea pot", "teapot"),
                                      ("Théière", "theiere"), ("tiramisu", "Tiramisù")])
def test_similar(a: str, b: str) -> None:
    assert similarity(a, b) >= 90


@pytest.mark.parametrize(("a", "b"), [("mug", "plate"), ("teapot", "pizza"),
                                      ("matcha", "margherita")])
def test_not_similar(a: str, b: str) -> None:
    assert similarity(a, b) < 70
    assert not mentions(a, b)


def test_best_matches_orders_by_score_and_cuts_off() -> None:
    found = best_matches("stoneware plate", NAMES, cutoff=60)
    assert found[0][0] == "Stoneware Dinner Plate, 27 cm"
    assert all(score >= 60 for _, score in found)
    assert [score for _, score in found] == sorted((score for _, score in found), reverse=True)
    assert best_matches("zzzz", NAMES) == []


def test_fold_name() -> None:
    assert fold_name("Théière, 700 ml!") == "theiere 700 ml"


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=12)


@settings(deadline=None)
@given(WORD, WORD)
def test_similarity_is_symmetric_and_bounded(a: str, b: str) -> None:
    assert 0 <= similarity(a, b) == similarity(b, a) <= 100
    assert similarity(a, a) == 100


@settings(deadline=None)
@given(WORD, st.integers(min_value=1, max_value=3))
def test_a_split_word_still_matches_property(word: str, cut: int) -> None:
    spaced = word[:cut] + " " + word[cut:]
    assert similarity(spaced, word) == 100
    assert mentions(f"i want the {spaced} please", word)
    assert mentions(word, spaced)
