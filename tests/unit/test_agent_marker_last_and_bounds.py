"""Classes of the lang13 round: a change-of-mind marker said last, a price bound said with
"not"/"pas", kanji star counts, a count beside a Japanese position, a Japanese collecting plan
that names no product."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted import mind, words
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act


@pytest.mark.parametrize(("said", "thing"), [
    ("non, pas de salade finalement", "salade"),
    ("pas de salade finalement", "salade"),
    ("no salad after all", "salad"),
    ("no, no salad after all", "salad"),
])
def test_a_marker_said_last_lets_the_thing_go(said: str, thing: str) -> None:
    assert understand(said) == ("remove", thing)


def test_a_japanese_marker_after_the_topic_reads_as_first() -> None:
    assert understand("棒茶はやっぱりいらない")[0] == "remove"
    assert understand("いや、棒茶はやっぱりいらない")[0] == "remove"


def test_a_marker_said_last_keeps_a_count_a_count() -> None:
    assert understand("deux finalement") == ("quantity", "deux")
    assert mind.read("finalement") is not None  # alone, a take-back as before


@pytest.mark.parametrize("said", ["pas plus de 20 dollars", "je cherche un mug, pas plus de "
                                  "vingt dollars", "a mug, not more than 20 dollars",
                                  "des mugs mais pas au-dessus de 20 €"])
def test_a_bound_said_with_not_negates_nothing(said: str) -> None:
    assert not read_act(said).negated and read_act(said).kind != "statement"


def test_a_plain_negation_still_negates() -> None:
    assert understand("ne l'annulez pas")[0] == "no"
    assert read_act("pas la salade").kind == "statement"
    assert read_act("not more mugs").kind == "statement"  # no amount: a negation as before


@pytest.mark.parametrize(("said", "stars"), [("この注文に星を四つ付けたいです", 4), ("五つ星", 5),
                                             ("星を５つ", 5), ("quatre étoiles", 4)])
def test_stars_in_kanji_count(said: str, stars: int) -> None:
    assert words.stars(said) == stars


def test_a_count_beside_a_japanese_position_is_the_count() -> None:
    assert words.counted_beside_position("2番目のを3つください")
    assert not words.counted_beside_position("2番目の")


@pytest.mark.parametrize("said", ["ティラミスを2つ、お店で受け取ります。注文してください",
                                  "ティラミスを2つ、6時に取りに伺います"])
def test_collecting_it_yourself_names_no_product(said: str) -> None:
    assert words.japanese_query(said) == "ティラミス"
    assert len(words.item_mentions(said)) == 1


def test_the_noun_of_collecting_stays_in_a_name() -> None:
    assert "受け取り" in words.japanese_query("工房のB品ボックス（店頭受け取り）を1つ")
