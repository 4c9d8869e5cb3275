"""The quantities stage: how many, and how many more, from any way of saying it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.measures import UNITS

_ONES = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_FRENCH = ["", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
           "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit",
           "dix-neuf", "vingt"]
_KANJI = "〇一二三四五六七八九"


def _english(number: int) -> str:
    if number < 20:
        return _ONES[number]
    tens, ones = divmod(number, 10)
    return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")


def _kanji(number: int) -> str:
    tens, ones = divmod(number, 10)
    return (("" if tens == 1 else _KANJI[tens]) + "十" if tens else "") + (
        _KANJI[ones] if ones else "")


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 99), st.sampled_from(["dinner plates", "glaze mugs", "bags of tea"]))
def test_english_number_words_are_their_count(number: int, thing: str) -> None:
    assert quantities.how_many(f"add {_english(number)} {thing}") == number


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), st.sampled_from(["assiettes", "mugs", "théières"]))
def test_french_number_words_are_their_count(number: int, thing: str) -> None:
    assert quantities.how_many(f"ajoute {_FRENCH[number]} {thing}") == number


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 99), st.sampled_from(["つ", "個", "枚", "冊", "杯", "袋", "箱"]),
       st.sampled_from(["kanji", "digits", "fullwidth"]))
def test_japanese_numbers_with_a_counter_are_their_count(number: int, counter: str,
                                                         written: str) -> None:
    said = {"kanji": _kanji(number), "digits": str(number),
            "fullwidth": str(number).translate(str.maketrans("0123456789", "０１２３４５６７８９"))}
    assert quantities.how_many(f"玄米茶を{said[written]}{counter}ください") == number


_SPELLINGS = sorted({spelling for _, spellings in UNITS.values() for spelling in spellings
                     if spelling.isascii() and len(spelling) > 2 and " " not in spelling})


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 999), st.sampled_from(_SPELLINGS))
def test_a_number_with_its_unit_is_never_a_count(number: int, unit: str) -> None:
    assert quantities.how_many(f"add the {number} {unit} teapot") is None


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 99), st.integers(1, 500), st.sampled_from(["ml", "cm", "g", "oz", '"']))
def test_a_count_beside_a_measure_is_the_count(count: int, size: int, unit: str) -> None:
    assert quantities.how_many(f"{count} of the {size}{unit} ones please") == count


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 500), st.sampled_from(["under ${}", "less than {} euros", "{}円以下",
                                             "moins de {} €", "for £{}"]))
def test_a_price_is_never_a_count(amount: int, limit: str) -> None:
    assert quantities.how_many(f"a teapot {limit.format(amount)}") is None


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9))
def test_an_ordinal_is_never_a_count(position: int) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(position, "th")
    assert quantities.how_many(f"the {position}{suffix} one") is None
    assert quantities.how_many(f"{position}番目のをください") is None


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 50), st.integers(1, 50))
def test_a_refused_number_is_never_the_count(wanted: int, refused: int) -> None:
    assert quantities.how_many(f"{wanted} dinner plates, not {refused}") == wanted
    assert quantities.how_many(f"not {refused}, {wanted} dinner plates") == wanted


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 20), st.integers(1, 40))
def test_more_and_fewer_apply_to_the_line(count: int, had: int) -> None:
    more = quantities.relative(f"{_english(count)} more please")
    less = quantities.relative(f"{count} fewer")
    assert more is not None and quantities.applied(more, had) == had + count
    assert less is not None and quantities.applied(less, had) == had - count


@pytest.mark.parametrize(("said", "count"), [
    ("a couple of dinner plates", 2), ("a pair of espresso cup sets", 2), ("a dozen mugs", 12),
    ("half a dozen mugs", 6), ("a third of a dozen glaze mugs", 4), ("a quarter dozen plates", 3),
    ("two thirds of a dozen mugs", 8), ("a dozen and a half plates", 18),
    ("une douzaine d'assiettes", 12), ("une demi-douzaine d'assiettes", 6),
    ("un tiers de douzaine d'assiettes", 4), ("deux douzaines de San Pellegrino", 24),
    ("玄米茶を半ダース", 6), ("ほうじ茶をふたつ", 2), ("茶筅をひとつ", 1), ("ノートを２冊", 2),
    ("二杯", 2), ("三つください", 3), ("the glaze mug x3", 3), ("both of them", 2),
    ("a few plates", 3), ("quelques assiettes", 3), ("make it one", 1), ("just one", 1),
])
def test_quantity_words(said: str, count: int) -> None:
    assert quantities.how_many(said) == count


@pytest.mark.parametrize("said", [
    "add the 300 ml kyusu", "the 27 cm plate", 'a 12" margherita', "2 kg of genmaicha",
    "the aurelia licence with 5 seats", "a table for 2 people", "under $30",
    "the 2nd edition", "deliver to 55 Water Street, Brooklyn, NY 11201", "order ord_8f3",
    "on friday at 7pm", "at 7 o'clock", "the 2027 shincha", "the blue one", "une théière",
    "I'd give it 4 out of 5 stars", "la licence pour 20 postes",
])
def test_numbers_that_are_not_counts(said: str) -> None:
    assert quantities.how_many(said) is None


@pytest.mark.parametrize(("said", "relation", "value"), [
    ("one more", "more", 1), ("another one please", "more", 1), ("two more please", "more", 2),
    ("encore une", "more", 1), ("deux de plus", "more", 2), ("もう一つ", "more", 1),
    ("もう2つ追加して", "more", 2), ("one less", "less", 1), ("drop two", "less", 2),
    ("double it", "times", 2), ("double la quantité", "times", 2), ("倍にして", "times", 2),
    ("triple that", "times", 3),
])
def test_changes_to_a_line(said: str, relation: str, value: int) -> None:
    found = quantities.relative(said)
    assert found is not None and (found.relation, found.value) == (relation, value)


@pytest.mark.parametrize("said", ["もう一つの方をください", "the cheaper of the two",
                                  "le plus cher des deux", "add the other one"])
def test_no_change_to_a_line(said: str) -> None:
    assert quantities.relative(said) is None


def test_a_list_counts_each_item_in_its_order() -> None:
    said = [(q.relation, q.value) for q in quantities.quantities("2 lattes and 3 croissants")]
    assert said == [("set", 2), ("set", 3)]


def test_numbers_said_include_options_and_number_words() -> None:
    assert quantities.numbers_said("the licence with twenty seats") == frozenset({"20"})
    assert quantities.numbers_said("five seats") == frozenset({"5"})


@pytest.mark.parametrize(("said", "relation", "value"), [
    ("another 2 please", "more", 2), ("another 3", "more", 3),
    ("ajoutes-en deux autres", "more", 2),
    ("あと1袋", "more", 1), ("さらに2袋追加", "more", 2), ("halve it", "split", 2),
    ("cut that in half", "split", 2), ("half that", "split", 2), ("la moitié", "split", 2),
    ("半分にして", "split", 2), ("double", "times", 2), ("triple please", "times", 3),
])
def test_more_fewer_and_shares_of_a_line(said: str, relation: str, value: int) -> None:
    found = quantities.relative(said)
    assert found is not None and (found.relation, found.value) == (relation, value)


@pytest.mark.parametrize("said", ["あと1つでいい", "deux autres couleurs", "half of those plates",
                                  "a double espresso cup set"])
def test_not_more_of_a_line(said: str) -> None:
    found = quantities.relative(said)
    assert found is None or found.relation not in ("more", "split", "times")


@pytest.mark.parametrize("said", ["several dinner plates", "a handful of plates",
                                  "plusieurs assiettes", "玄米茶を数袋", "a few glaze mugs"])
def test_a_vague_count_reads_as_three(said: str) -> None:
    assert quantities.how_many(said) == 3


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12))
def test_a_halved_line_keeps_at_least_one(had: int) -> None:
    halved = quantities.relative("halve it")
    assert halved is not None and quantities.applied(halved, had) == max(1, had // 2)
