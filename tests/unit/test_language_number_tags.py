"""The normalize stage tags every number: a size or a unit is never a count."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import read
from commerce_agent.agent.language.measures import UNITS

_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
SPELLINGS = sorted({spelling for _, spellings in UNITS.values() for spelling in spellings})
_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def kinds(text: str) -> list[tuple[str, str]]:
    return [(tag.text, tag.kind) for tag in read(text).numbers]


@settings(deadline=None, max_examples=300)
@given(st.sampled_from(SPELLINGS), st.integers(min_value=1, max_value=9999),
       st.integers(min_value=1, max_value=60), st.booleans())
def test_a_number_with_any_unit_of_the_table_is_a_measure_never_a_count(
        spelling: str, size: int, how_many: int, fullwidth: bool) -> None:
    if _JAPANESE.search(spelling):
        text = f"{size}{spelling}のマグを{how_many}つください"
    else:
        glue = "" if spelling in ('"', "″", "”", "%") else " "
        text = f"add {how_many} of the {size}{glue}{spelling} mugs"
    if fullwidth:
        text = text.translate(_FULLWIDTH)
    tags = kinds(text)
    assert (str(size), "measure") in tags
    assert (str(size), "count") not in tags or size == how_many and tags.count(
        (str(size), "count")) == 1
    assert [value for value, kind in tags if kind == "count"] == [str(how_many)]


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=999), st.sampled_from(["ml", "oz", "cm", "g", "inch"]))
def test_a_measure_alone_says_no_count(size: int, unit: str) -> None:
    reading = read(f"the {size} {unit} one please")
    assert reading.counts == ()
    assert [tag.kind for tag in reading.numbers] == ["measure"]


@pytest.mark.parametrize(("text", "expected"), [
    ("two 300 ml kyusu", [("2", "count"), ("300", "measure")]),
    ("add 2 16-inch margheritas", [("2", "count"), ("16", "measure")]),
    ("the aurelia licence with 5 seats", [("5", "measure")]),
    ("３００ミリの急須を２つ", [("300", "measure"), ("2", "count")]),
    ("２７センチのお皿を４枚", [("27", "measure"), ("4", "count")]),
    ("100グラムのほうじ茶を3つ", [("100", "measure"), ("3", "count")]),
    ("deux théières de 30 cl", [("2", "count"), ("30", "measure")]),
    ("un abonnement de 3 mois", [("3", "measure")]),
    ("a 60 min private session", [("60", "measure")]),
    ("3 mugs under $30", [("3", "count"), ("30", "price")]),
    ("the 2nd one", [("2", "ordinal")]),
    ("status of ord_8f3", [("8", "id"), ("3", "id")]),
    ("2 mugs to 12 Oak St, Portland, OR 97202", [("2", "count"), ("12", "address"),
                                                 ("97202", "address")]),
])
def test_each_number_is_tagged_by_what_it_is(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize(("text", "count"), [
    ("half a dozen plates", 6),
    ("a dozen and a half plates", 18),
    ("two dozen 750 ml bottles", 24),
    ("une demi-douzaine d'assiettes", 6),
    ("une douzaine et demie d'assiettes de 27 cm", 18),
    ("2 margheritas please", 2),
])
def test_dozens_and_their_fractions_are_exact_counts(text: str, count: int) -> None:
    assert [(tag.text, tag.kind) for tag in read(text).numbers
            if tag.kind == "count"] == [(str(count), "count")]
