"""A shopper's words as search terms (commerce/search/terms.py): price phrases left out,
words and their limit, FTS5 strings that stay text, trigrams, and typo corrections."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.commerce.search import terms


@pytest.mark.parametrize(("query", "kept"), [
    ("mug under $20", ["mug"]),
    ("teapot less than 15 euros", ["teapot"]),
    ("£50 scarf", ["scarf"]),
    ("bowl at most 12.50 usd", ["bowl"]),
    ("kettle around 30", ["kettle"]),
    ("12 oz mug", ["12", "oz", "mug"]),  # a size, not a price
    ("20 mugs below ¥3000", ["20", "mugs"]),
])
def test_price_phrases_are_left_out_of_the_words(query: str, kept: list[str]) -> None:
    assert terms.words_of(terms.without_prices(query)) == kept


def test_words_are_two_letters_or_one_unspaced_character() -> None:
    assert terms.words_of("A x mug & 茶 — ok") == ["mug", "茶", "ok"]
    assert terms.words_of(" ".join(f"w{n}" for n in range(20))) == [f"w{n}" for n in range(10)]
    assert len(terms.words_of(" ".join(f"w{n}" for n in range(20)), limit=None)) == 20


@given(st.text(max_size=60))
def test_a_phrase_is_one_quoted_fts_string_whatever_was_typed(word: str) -> None:
    quoted = terms.phrase(word)
    assert quoted.startswith('"') and quoted.endswith('"')
    inner = quoted[1:-1]
    assert inner.replace('""', "").count('"') == 0  # every quote inside is doubled
    assert inner.replace('""', '"') == word
    assert terms.prefix(word) == quoted + "*"


def test_any_of_and_trigrams() -> None:
    assert terms.any_of(["mug", "cup"]) == '"mug" OR "cup"'
    assert terms.trigrams("teapot") == '"apo" OR "eap" OR "pot" OR "tea"'
    assert terms.trigrams("ab") == ""  # too short for a trigram
    assert terms.trigrams("aaaa") == '"aaa"'


@pytest.mark.parametrize(("word", "budget"), [
    ("mug", 0), ("cups", 1), ("kettle", 1), ("teapots", 2), ("porcelain", 2)])
def test_the_typo_budget_grows_with_the_word(word: str, budget: int) -> None:
    assert terms.typo_budget(word) == budget


def test_corrections_are_the_closest_words_within_the_budget() -> None:
    texts = ["Classic Mug", "Glazed teapot, porcelain", "Teapots set", "Tea pot stand"]
    assert terms.corrections("teapto", texts) == ["teapot"]  # a swap is one edit
    assert terms.corrections("porcelian", texts) == ["porcelain"]
    assert terms.corrections("mgu", texts) == []  # short words are never corrected
    assert terms.corrections("zzzzzzz", texts) == []
    assert terms.corrections("bowel", ["Bowl", "Tea towel"]) == ["bowl", "towel"]  # a tie


@given(st.text(alphabet="abcde", max_size=8), st.text(alphabet="abcde", max_size=8))
def test_the_edit_distance_is_symmetric_and_bounded(left: str, right: str) -> None:
    distance = terms.edit_distance(left, right)
    assert distance == terms.edit_distance(right, left)
    assert abs(len(left) - len(right)) <= distance <= max(len(left), len(right))
    assert (distance == 0) is (left == right)
