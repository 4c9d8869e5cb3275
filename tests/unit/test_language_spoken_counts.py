"""The spoken-counts stage: packaging nouns, dictated numbers, totals and none, as plain counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.spoken_counts import says_how_counted, with_counts_plain

_PACKAGING = ["bag", "bags", "packet", "packets", "tin", "tins", "bottle", "bottles", "jar",
              "jars", "pouch", "pouches", "portion", "portions", "box", "boxes", "pack",
              "packs", "sachet", "sachets", "carton", "cartons", "serving", "servings"]
_FRENCH_PACKAGING = ["sachet", "sachets", "paquet", "paquets", "boîte", "boîtes", "bouteille",
                     "bouteilles", "pot", "pots", "portion", "portions"]
_THINGS = ["genmaicha", "hojicha", "san pellegrino", "arancini", "matcha"]
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
          8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 999), st.sampled_from(_PACKAGING), st.sampled_from(_THINGS),
       st.booleans())
def test_a_packaging_noun_before_what_it_holds_keeps_the_count(
        number: int, noun: str, thing: str, in_words: bool) -> None:
    said = _WORDS.get(number, str(number)) if in_words else str(number)
    plain = with_counts_plain(f"add {said} {noun} of {thing} please")
    assert noun not in plain.split()
    assert quantities.how_many(plain) == number


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.sampled_from(_FRENCH_PACKAGING), st.sampled_from(_THINGS))
def test_french_packaging_before_de_keeps_the_count(number: int, noun: str, thing: str) -> None:
    plain = with_counts_plain(f"ajoute {number} {noun} de {thing}")
    assert noun not in plain.split()
    assert quantities.how_many(plain) == number


@pytest.mark.parametrize(("said", "count"), [
    ("two bag please", 2), ("arancini, 2 portion please", 2), ("three box", 3),
    ("dinner plates, a pack of 6 please", 6), ("un paquet de 6 assiettes", 6),
    ("un lot de trois assiettes plates", 3), ("a pack of four mugs", 4),
    ("deux sachet de genmaicha svp", 2), ("two 100 g bags of hojicha", 2),
])
def test_packaging_said_singular_or_as_a_pack_size(said: str, count: int) -> None:
    assert quantities.how_many(with_counts_plain(said)) == count


@pytest.mark.parametrize("said", [
    "add 2 studio seconds boxes", "I want 2 boxes", "two espresso cup sets",
    "the 300 ml kyusu", "add 100 g of matcha",
])
def test_packaging_that_names_the_item_or_a_measure_stays(said: str) -> None:
    assert with_counts_plain(said) == said


@pytest.mark.parametrize(("said", "heard"), [
    ("need for margherita pizzas 12 inch for pickup", "need 4 margherita pizzas"),
    ("add to tiramisu and a lasagna", "add 2 tiramisu and a lasagna"),
    ("I'll take for lasagnas", "I'll take 4 lasagnas"),
    ("can I get to tiramisus", "can I get 2 tiramisus"),
    ("get me too caesar salads", "get me 2 caesar salads"),
    ("add won bag of genmaicha", "add 1 genmaicha"),
])
def test_dictated_numbers_where_a_count_is_expected(said: str, heard: str) -> None:
    assert with_counts_plain(said).startswith(heard)


@pytest.mark.parametrize("said", [
    "add one for me and one for my mum", "add to cart", "add it to my cart", "add to my order",
    "two for my mum", "I want to buy mugs", "I need to cancel orders", "get it for the kids",
    "add a tiramisu for my mum", "add for dinner", "I'd like to see options",
    "I want for christmas", "order for pickup", "send to Paris", "need it for tomorrow",
    "I want to add plates", "add to favourites", "how do I get to Yanaka", "get to Columbia Road",
    "I have to go", "we'd like to subscribe", "add it for pickup",
])
def test_prepositions_and_infinitives_stay_words(said: str) -> None:
    assert with_counts_plain(said) == said


@pytest.mark.parametrize("said", [
    "none of the salads actually", "none of those please", "none of them",
    "finalement je n'en veux aucun", "aucun tiramisu",
])
def test_none_of_a_thing_is_zero(said: str) -> None:
    assert quantities.how_many(with_counts_plain(said)) == 0


@pytest.mark.parametrize("said", ["none of these look right", "none", "aucune idée",
                                  "none of them are what I want"])
def test_none_judging_or_answering_is_no_count(said: str) -> None:
    assert with_counts_plain(said) == said


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 999), st.sampled_from([
    "I want {n} in total", "make it {n} altogether", "{n} total please", "{n} en tout",
    "il m'en faut {n} au total", "全部で{n}つ", "合計{n}袋", "I need {n} not 1",
    "{n} instead of 1", "{n} all together"]))
def test_a_count_said_as_the_total_sets_the_line(number: int, form: str) -> None:
    said = form.format(n=number)
    assert quantities.says_a_total(said)
    assert quantities.how_many(said) == number


@pytest.mark.parametrize("said", ["add 3 more", "what's my total?", "add 2 mugs",
                                  "c'est combien en tout ?", "one more please"])
def test_more_or_no_count_is_no_total(said: str) -> None:
    assert not quantities.says_a_total(said)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 999), st.sampled_from(["ml", "g", "cm", "oz", "kg"]),
       st.sampled_from(_THINGS))
def test_a_measure_stays_a_size(size: int, unit: str, thing: str) -> None:
    said = f"add the {size} {unit} {thing}"
    assert with_counts_plain(said) == said
    assert quantities.how_many(with_counts_plain(f"add two {size} {unit} bags of {thing}")) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(1000, 999_999), st.sampled_from(["bottles of water", "copies", "mugs"]))
def test_thousands_said_with_separators_are_one_count(number: int, thing: str) -> None:
    plain = with_counts_plain(f"add {number:,} {thing}")
    assert quantities.how_many(plain) == number


@pytest.mark.parametrize("said", ["anything under $1,200 please", "under 1,200 yen",
                                  "mugs for 1,500 JPY"])
def test_a_price_keeps_its_separators(said: str) -> None:
    assert with_counts_plain(said) == said


@pytest.mark.parametrize(("word", "counts"), [
    ("sachets", True), ("pots", True), ("grammes", True), ("kilo", True), ("bottles", True),
    ("demi-douzaine", True), ("coffret", False), ("planche", False), ("cache-pot", False),
    ("tasse", False),
])
def test_a_word_says_how_a_thing_is_counted(word: str, counts: bool) -> None:
    assert bool(says_how_counted(word)) is counts


@pytest.mark.parametrize(("said", "plain"), [
    ("grab me a 6-pack of san pellegrino", "grab me 6 san pellegrino"),
    ("twelve-pack of pellegrino", "12 pellegrino"), ("two 6-packs of pellegrino", "12 pellegrino"),
    ("2-3 dinner plates", "2 dinner plates"), ("three or four dinner plates", "3 dinner plates"),
    ("deux-trois assiettes", "2 assiettes"),
])
def test_a_pack_size_or_a_loose_range_is_a_count(said: str, plain: str) -> None:
    assert with_counts_plain(said) == plain


@pytest.mark.parametrize("said", ["between 2 and 3pm", "1-2 days", "2 or 3 people", "size 10-12",
                                  "call 555-1234", "from 3 to 4 pm"])
def test_ranges_that_count_nothing_stay(said: str) -> None:
    assert with_counts_plain(said) == said


_KANA_COUNTERS = {"こ": "個", "さつ": "冊", "ほん": "本", "まい": "枚", "ふくろ": "袋",
                  "はこ": "箱"}


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 999), st.sampled_from(sorted(_KANA_COUNTERS)), st.booleans())
def test_a_digit_count_with_its_counter_in_kana_is_read_as_the_counter(
        number: int, counter: str, spaced: bool) -> None:
    said = f"ほうじちゃ {number}{' ' if spaced else ''}{counter} ください"
    assert with_counts_plain(said) == f"ほうじちゃ {number}{_KANA_COUNTERS[counter]} ください"
    assert quantities.how_many(with_counts_plain(said)) == number
