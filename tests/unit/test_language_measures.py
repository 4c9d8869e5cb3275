"""Sizes and units are not counts: "300 ml", "16-ounce", '10"', "27センチ", "size M"."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import read


def measures(text: str) -> list[tuple[Decimal, str]]:
    return [(measure.value, measure.unit) for measure in read(text).measures]


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("add the 300 ml kyusu", "300", "ml"),
    ("the 300ml kyusu", "300", "ml"),
    ("a 16 oz mug", "16", "oz"),
    ("the 16-ounce tumbler", "16", "oz"),
    ("a 10-inch plate", "10", "in"),
    ('the 10" skillet', "10", "in"),
    ("the 27 cm plate", "27", "cm"),
    ("1.5 L bottle", "1.5", "l"),
    ("une bouteille de 1,5 l", "1.5", "l"),
    ("2 kg of flour", "2", "kg"),
    ("a 1,500 ml jug", "1500", "ml"),
    ("300ミリリットルの急須", "300", "ml"),
    ("27センチのお皿", "27", "cm"),
    ("抹茶30グラム", "30", "g"),
    ("the 80 tines whisk", "80", "tine"),
    ("rate it 5 stars", "5", "star"),
    ("12fl oz cup", "12", "fl_oz"),
    ("a 12-pack of water", "12", "piece"),
])
def test_a_number_with_its_unit_is_a_measure_not_a_count(text: str, value: str,
                                                         unit: str) -> None:
    reading = read(text)
    assert measures(text) == [(Decimal(value), unit)]
    assert reading.counts == ()


def test_a_count_next_to_a_measure_stays_a_count() -> None:
    reading = read("2 bags of 250 g coffee")
    assert [count.value for count in reading.counts] == [2]
    assert measures("2 bags of 250 g coffee") == [(Decimal(250), "g")]
    assert reading.rest == "bags of coffee"


@pytest.mark.parametrize("text", ["2 in my cart", "add 3 in blue", "I am 2 min away? no"])
def test_common_words_after_a_number_are_not_units(text: str) -> None:
    assert "in" not in [unit for _, unit in measures(text)]


@pytest.mark.parametrize(("text", "label"), [
    ("size M please", "M"), ("do you have it in XL", "XL"), ("en taille S", "S"),
    ("Mサイズで", "M"), ("size 10", "10"), ("in L", "L"),
])
def test_sizes(text: str, label: str) -> None:
    assert [size.label for size in read(text).sizes] == [label]
    assert read(text).counts == ()


@pytest.mark.parametrize("text", ["I'm in", "in m", "the large one", "a mug"])
def test_no_size(text: str) -> None:
    assert read(text).sizes == ()


SPELLINGS = {"ml": ["ml", "millilitres", "ミリリットル"], "g": ["g", "grams", "grammes"],
             "cm": ["cm", "centimeters", "センチ"], "kg": ["kg", "kilos"], "l": ["l", "litres"],
             "oz": ["oz", "ounces"], "in": ["inch", "inches", '"']}


@settings(deadline=None)
@given(st.integers(min_value=1, max_value=5000), st.sampled_from(sorted(SPELLINGS)),
       st.data(), st.sampled_from(["", " ", "-"]), st.integers(min_value=1, max_value=20))
def test_units_and_counts_property(value: int, unit: str, data: st.DataObject, gap: str,
                                   how_many: int) -> None:
    spelling = data.draw(st.sampled_from(SPELLINGS[unit]))
    gap = "" if spelling == '"' else gap
    text = f"add {how_many} of the {value}{gap}{spelling} teapots"
    reading = read(text)
    assert [(measure.value, measure.unit) for measure in reading.measures] == [
        (Decimal(value), unit)]
    assert [count.value for count in reading.counts] == [how_many]
    assert "teapots" in reading.rest.split()


@settings(deadline=None)
@given(st.decimals(min_value=Decimal("0.1"), max_value=Decimal("99.9"), places=1),
       st.sampled_from([".", ","]))
def test_decimal_measures_property(value: Decimal, separator: str) -> None:
    text = f"une bouteille de {str(value).replace('.', separator)} l"
    assert measures(text) == [(value, "l")]
