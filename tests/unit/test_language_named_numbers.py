"""A number inside a catalogue name is part of the name, never a count (issue 21): "a 10 class
pass" is one pass, "two 10 class passes" two; "that same size" names the size said before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language.measures import points_at_a_size, with_size_named
from commerce_agent.agent.language.quantities import how_many, without_named_numbers

_STORES = Path(__file__).parents[2] / "sample_data" / "stores"


def _catalogue_names() -> list[str]:
    """Every name, translated name, variant value and option label of the sample stores that
    writes a number beside a word."""
    names: set[str] = set()
    for path in sorted(_STORES.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        store = json.loads(text)
        for catalog in store["catalogs"]:
            for item in catalog["items"]:
                names.add(item["name"])
                metadata = item.get("metadata") or {}
                variants = metadata.get("dev.commerce.product.variants") or {}
                names.update(value for variant in variants.get("variants", [])
                             for value in variant["values"])
                groups = (metadata.get("dev.commerce.product.customization") or {}).get(
                    "groups", [])
                names.update(option["name"] for group in groups for option in group["options"])
        for language in store.get("translations", {}).values():
            names.update(entry["name"] for entry in _named(language))
    return sorted(name for name in names if any(ch.isdigit() for ch in name))


def _named(tree: object) -> list[dict[str, str]]:
    if isinstance(tree, dict):
        found = [tree] if isinstance(tree.get("name"), str) else []
        return found + [entry for value in tree.values() for entry in _named(value)]
    if isinstance(tree, list):
        return [entry for value in tree for entry in _named(value)]
    return []


NAMES = _catalogue_names()


def test_the_sample_stores_have_names_with_numbers() -> None:
    assert {"10-Class Pass", "10回クラスパス", "Carte de 10 cours", "16-inch"} <= set(NAMES)


@pytest.mark.parametrize(("said", "name", "count"), [
    ("buy a 10 class pass", "10-Class Pass", None),
    ("add a 10-class pass to my basket", "10-Class Pass", None),
    ("two 10 class passes please", "10-Class Pass", 2),
    ("3 of the 10 class passes", "10-Class Pass", 3),
    ("add the 80 tine chasen", "Takayama Bamboo Chasen (80 tines)", None),
    ("a family feast for four", "Family Feast for Four", None),
    ("ajoute une carte de 10 cours", "Carte de 10 cours", None),
    ("deux cartes de 10 cours", "Carte de 10 cours", 2),
    ("10回クラスパスをカートに入れて", "10回クラスパス", None),
    ("10回クラスパスを2つ", "10回クラスパス", 2),
    ("サンペレグリノ750mlを2本", "サンペレグリノ 炭酸水 750ml", 2),
    ("add pixelforge pro 5", "PixelForge Pro 5 — Lifetime Licence Key", None),
    # a number a parenthesis sets apart is no part of what the shopper calls it
    ("3 arancini please", "Arancini (3)", 3),
])
def test_a_number_of_the_name_is_no_count(said: str, name: str, count: int | None) -> None:
    assert how_many(without_named_numbers(said, (name,))) == count


_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)


@settings(deadline=None)
@example(2, "oss", "aaa", " ", "add a {}")  # text2num read "oss" as the plural of "o", zero
@example(2, "douze", "aaa", "-", "add a {}")  # a number word right after the number
@example(2, "fifteen", "aaa", "", "add a {}")  # and glued to it
@example(1, "forty", "forty", "-", "add a {}")  # three numbers in a row: each pair
@given(st.integers(1, 999), _WORDS, _WORDS, st.sampled_from(["-", " ", ""]),
       st.sampled_from(["add a {}", "buy the {} please", "I'd like one {}", "{} please",
                        "could you put a {} in my cart"]))
def test_a_number_beside_a_word_of_the_name_is_never_a_count(
        number: int, word: str, tail: str, joint: str, template: str) -> None:
    name = f"{number}{joint}{word} {tail}"
    said = template.format(f"{number} {word} {tail}")
    assert how_many(without_named_numbers(said, (name.title(),))) in (None, 1)


@settings(deadline=None)
@given(st.integers(2, 9), st.sampled_from(NAMES))
def test_a_count_said_besides_a_catalogue_name_still_counts(count: int, name: str) -> None:
    said = f"add {count} of the {name}"
    assert how_many(without_named_numbers(said, (name,))) == count


@settings(deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(["add the {}", "{} please", "buy a {}"]))
def test_no_catalogue_name_counts_its_own_number(name: str, template: str) -> None:
    # the name written as a shopper may (hyphens as spaces, no parentheses around a count)
    typed = name.replace("-", " ")
    assert how_many(without_named_numbers(template.format(typed), (name,))) in (None, 1) or \
        "(" in name or "£" in name


@pytest.mark.parametrize(("said", "meant"), [
    ("the cobalt blue in that same size is fine", "the cobalt blue in 12 oz is fine"),
    ("ok the blue one in this size", "ok the blue one in 12 oz"),
    ("the same size in blue", "in 12 oz in blue"),
    ("la bleue dans la même taille", "la bleue en 12 oz"),
    ("青で同じサイズ", "青で12 oz"),
])
def test_a_size_pointed_back_at_is_the_size_said(said: str, meant: str) -> None:
    assert points_at_a_size(said)
    assert with_size_named(said, "12 oz") == meant


@pytest.mark.parametrize("said", ["what size is it?", "which sizes are there", "size M"])
def test_asking_about_sizes_points_at_none(said: str) -> None:
    assert not points_at_a_size(said)
