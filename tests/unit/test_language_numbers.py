"""Numbers in words become digits; counts are the whole numbers left once units are taken."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import fold_numbers, read
from commerce_agent.agent.language.numbers import find_counts

num2words = pytest.importorskip("num2words", reason="num2words (test extra) is not installed")


def counts(text: str) -> list[int]:
    return [count.value for count in read(text).counts]


@pytest.mark.parametrize(("text", "expected"), [
    ("add two blue mugs", [2]),
    ("twenty-one coasters", [21]),
    ("a dozen cups", [12]),
    ("dozen eggs", [12]),
    ("ninty nine balloons", [99]),
    ("fourty napkins", [40]),
    ("half a dozen cups", [6]),
    ("half-dozen cups", [6]),
    ("two dozen cups", [24]),
    ("a dozen and a half", [18]),
    ("a couple of those", [2]),
    ("a couple more", [2]),
    ("a pair of socks", [2]),
    ("3x matcha", [3]),
    ("x3 matcha", [3]),
    ("one margherita and two diavola", [1, 2]),
    ("the blue one", []),
    ("that one please", []),
    ("the cheap ones", []),
    ("a few mugs", []),
    ("a mug", []),
    ("give me the second one", []),
    ("order ord_8f3k2", []),
    ("order #1234", []),
])
def test_english(text: str, expected: list[int]) -> None:
    assert counts(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("ajoutez deux tasses bleues", [2]),
    ("vingt et un sous-verres", [21]),
    ("une douzaine de bols", [12]),
    ("une demi-douzaine de bols", [6]),
    ("deux douzaines de biscuits", [24]),
    ("une paire de baguettes", [2]),
    ("une couple d'arancini", [2]),  # Québec
    ("une dizaine de sachets de genmaicha", [10]),
    ("une quinzaine d'assiettes", [15]),
    ("une vingtaine de bouteilles", [20]),
    ("dans une quinzaine de jours", []),  # a time, not a count
    ("j'en veux une", [1]),
    ("une seule tasse", [1]),
    ("une théière bleue", []),
    ("quelques assiettes", []),
    ("la deuxième tasse", []),
])
def test_french(text: str, expected: list[int]) -> None:
    assert counts(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("急須を二つください", [2]),
    ("抹茶を3個", [3]),
    ("茶筅を一本", [1]),
    ("お皿を２枚", [2]),
    ("十個", [10]),
    ("二十一枚", [21]),
    ("一番安いの", []),
])
def test_japanese(text: str, expected: list[int]) -> None:
    assert counts(text) == expected


def test_japanese_counter_leaves_the_rest_with_the_product() -> None:
    reading = read("急須を二つください")
    assert "急須" in reading.rest and "つ" not in reading.rest


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_english_words_read_back(number: int) -> None:
    words = num2words.num2words(number, lang="en")
    assert fold_numbers(words, "en") == str(number)
    assert counts(f"add {words} mugs") == [number]


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_french_words_read_back(number: int) -> None:
    words = num2words.num2words(number, lang="fr")
    assert fold_numbers(words, "fr") == str(number)
    # "un"/"une" before a noun is the article ("une tasse"), so 1 is read alone, not before one.
    sentence = f"ajoutez {words} tasses" if number > 1 else f"j'en veux {words}"
    assert counts(sentence) == [number]


_KANJI = "〇一二三四五六七八九"


def kanji(number: int) -> str:
    """A small generator of Japanese numerals (1 to 9999) for the property below."""
    parts = []
    for value, unit in ((1000, "千"), (100, "百"), (10, "十")):
        digit, number = divmod(number, value)
        if digit:
            parts.append(("" if digit == 1 else _KANJI[digit]) + unit)
    if number:
        parts.append(_KANJI[number])
    return "".join(parts)


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=9999), st.sampled_from(["個", "つ", "本", "枚"]))
def test_japanese_numerals_read_back(number: int, counter: str) -> None:
    assert counts(f"抹茶を{kanji(number)}{counter}ください") == [number]


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=99999))
def test_full_width_digits_are_digits(number: int) -> None:
    full_width = "".join(chr(ord(digit) + 0xFEE0) for digit in str(number))
    assert counts(f"抹茶を{full_width}個") == [number]


@settings(deadline=None)
@given(st.text(max_size=30))
def test_counts_are_as_said_and_inside_the_text(text: str) -> None:
    folded = fold_numbers(text, "en").lower()
    for count in find_counts(folded, []):
        assert count.value >= 0  # a zero is kept: whether it can be bought is the add's call
        assert 0 <= count.span[0] < count.span[1] <= len(folded)


@pytest.mark.parametrize(("text", "language", "read"), [
    ("can I get deux tasses a expresso", "en", "can I get 2 tasses a expresso"),
    ("ajoute two mugs", "fr", "ajoute 2 mugs"),
    ("add the blue one", "en", "add the blue one"),
    ("une tasse", "fr", "une tasse"),
])
def test_a_message_of_both_languages_counts_in_both(text: str, language: str,
                                                    read: str) -> None:
    assert fold_numbers(text, language) == read
