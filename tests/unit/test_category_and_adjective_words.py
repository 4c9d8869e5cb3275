"""Kinds of goods and adjectives before a noun in French and Japanese: what a search is for."""

from __future__ import annotations

import pytest

from commerce_agent.agent.language.category_words import in_english_categories
from commerce_agent.agent.models.scripted import words


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("vous avez de la vaisselle ?", "tableware"),
        ("des ustensiles à thé ?", "teaware"),
        ("des ustensiles pour le thé", "teaware"),
        ("qu'avez-vous en papeterie ?", "stationery"),
        ("茶道具はありますか？", "teaware"),
        ("食器を見せて", "tableware"),
        ("文房具ください", "stationery"),
    ],
)
def test_a_kind_of_goods_reads_as_the_catalogs_category(said: str, kind: str) -> None:
    assert kind in in_english_categories(said).split()


@pytest.mark.parametrize("said", ["un mug bleu", "lave-vaisselle", "急須をください"])
def test_other_words_are_left_alone(said: str) -> None:
    assert not {"tableware", "teaware", "stationery"} & set(in_english_categories(said).split())


@pytest.mark.parametrize(
    ("said", "noun"),
    [
        ("青いマグを1つください", "マグ"),
        ("大きいお皿を2枚ください", "皿"),
        ("白い急須はありますか？", "急須"),
        ("小さなノートをください", "ノート"),
    ],
)
def test_a_japanese_colour_or_size_before_a_noun_is_not_its_name(said: str, noun: str) -> None:
    assert words.japanese_query(said) == noun


def test_a_colour_alone_is_still_said() -> None:
    assert words.japanese_query("青いのをください") == "青い"


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("大鉢をひとつください", 1),
        ("玄米茶を2袋ください", 2),
        ("棒茶を3箱ください", 3),
    ],
)
def test_hitotsu_is_one_count_not_two_items(said: str, count: int) -> None:
    assert words.item_phrases(said) == (said,)
    assert words.quantity(said) == count


def test_to_still_joins_two_items() -> None:
    assert len(words.item_phrases("玄米茶と急須をください")) == 2


@pytest.mark.parametrize(
    ("kept", "left"),
    [
        (["grand", "mug", "bleu"], ["mug"]),
        (["mug", "blanc"], ["mug"]),
        (["bleu"], ["bleu"]),
        (["pizza", "champignons"], ["pizza", "champignons"]),
    ],
)
def test_french_looks_leave_the_search(kept: list[str], left: list[str]) -> None:
    assert words.without_looks(kept) == left


@pytest.mark.parametrize("said", ["un set de tasses expresso", "des tasses à expresso",
                                  "deux tasses d'espresso"])
def test_espresso_cups_are_no_mugs_with_or_without_their_preposition(said: str) -> None:
    assert "mug" not in in_english_categories(said).split()
