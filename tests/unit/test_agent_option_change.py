"""The slots of a change to a cart line's options (agent/models/scripted/option_change.py):
by value (typos too), by size relative to the line's, and "the other one"; and units that end
their word, so a count before a word starting like a unit stays a count."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import option_change, words
from tests.support.sample_items import sample_item

MUG, MATCHA, DIAVOLA = (sample_item("item_classic_mug"), sample_item("item_uji_matcha"),
                        sample_item("item_pizza_diavola"))


@pytest.mark.parametrize(("current", "said", "wanted"), [
    ("var_mug_blue_12oz", "make it the speckled one", "var_mug_speckled_16oz"),
    ("var_mug_blue_12oz", "acutally make it the speckeld one", "var_mug_speckled_16oz"),
    ("var_mug_blue_12oz", "swap it to the 16 oz", "var_mug_blue_16oz"),
    ("var_mug_blue_12oz", "the larger size please", "var_mug_blue_16oz"),
    ("var_mug_blue_12oz", "je préfère la grande taille", "var_mug_blue_16oz"),
    ("var_mug_blue_12oz", "大きめのにして", "var_mug_blue_16oz"),
    ("var_mug_blue_16oz", "the smaller one would be better", "var_mug_blue_12oz"),
    ("var_mug_blue_16oz", "actually the other colour", "var_mug_speckled_16oz"),
    ("var_mug_blue_16oz", "l'autre couleur", "var_mug_speckled_16oz"),
    ("var_mug_blue_16oz", "別の色にして", "var_mug_speckled_16oz"),
    ("var_mug_speckled_16oz", "change the colour to blue", "var_mug_blue_16oz"),
    ("var_matcha_ceremonial_30g", "changez pour le culinaire", "var_matcha_culinary_100g"),
    ("var_matcha_ceremonial_30g", "bigger bag please", "var_matcha_ceremonial_100g"),
    ("var_matcha_ceremonial_30g", "100gのほうに", "var_matcha_ceremonial_100g"),
])
def test_a_variant_change_is_read(current: str, said: str, wanted: str) -> None:
    item = MUG if current.startswith("var_mug") else MATCHA
    assert option_change.variant_change(item, current, said) == wanted


@pytest.mark.parametrize(("current", "said"), [
    ("var_mug_blue_12oz", "the blue one"),  # its own variant
    ("var_mug_blue_16oz", "make it bigger"),  # no bigger one
    ("var_mug_blue_12oz", "two more please"),  # a count, not an option
    ("var_mug_blue_12oz", "make it white"),  # sold out: no change to offer
    ("var_matcha_ceremonial_30g", "the smaller one"),  # none smaller
])
def test_no_variant_change(current: str, said: str) -> None:
    item = MUG if current.startswith("var_mug") else MATCHA
    assert option_change.variant_change(item, current, said) is None


@pytest.mark.parametrize(("said", "size"), [
    ("swap to large", "opt_diavola_size_16in"), ("can we go bigger?", "opt_diavola_size_16in"),
    ("une plus grande", "opt_diavola_size_16in"), ("a 16 inch one", None),
    ("two more", None)])
def test_a_size_group_moves_along_its_sizes(said: str, size: str | None) -> None:
    current = {"group_diavola_size": "opt_diavola_size_12in"}
    found = option_change.option_change(DIAVOLA, current, said)
    assert (found or {}).get("group_diavola_size") == size


@given(st.sampled_from([("ml", 1), ("cl", 10), ("l", 1000)]),
       st.integers(min_value=1, max_value=2000))
def test_volumes_compare_in_one_unit(unit: tuple[str, int], millilitres: int) -> None:
    spelling, factor = unit
    value = Decimal(millilitres) / factor
    said = f"the {value.normalize():f} {spelling} one"
    assert option_change.same_measure(said, f"Teapot, {millilitres} ml")
    assert not option_change.same_measure(said, f"Teapot, {millilitres * 2} ml")


@pytest.mark.parametrize(("said", "name", "same"), [
    ("the 30 cl kyusu", "Tokoname Kyusu Teapot, 300 ml", True),
    ("the 0.7 L teapot", "Celadon Teapot, 700 ml", True),
    ("the 70cl teapot", "Tokoname Kyusu Teapot, 300 ml", False),
    ("a 27 cm plate", "Stoneware Dinner Plate, 27 cm", True),
    ("a 27 cm plate", "Stoneware Dinner Plate, 27 g", False)])
def test_the_same_measure_in_another_unit(said: str, name: str, same: bool) -> None:
    assert option_change.same_measure(said, name) is same


@given(st.integers(min_value=2, max_value=99),
       st.sampled_from(["classic mugs", "gift boxes", "large pizzas", "lasagnas", "minis",
                        "glaze mugs", "cleaning cloths", "kilns", "mlle cups", "hanging planters"]))
def test_a_count_before_a_word_that_starts_like_a_unit(count: int, thing: str) -> None:
    assert words.quantity(f"add {count} {thing}") == count


@pytest.mark.parametrize(("said", "size"), [
    ("the other size please", "opt_diavola_size_12in"),
    ("no, the other one", None), ("l'autre taille", "opt_diavola_size_12in"),
    ("the other colour", None)])
def test_the_other_option_of_a_single_choice_group(said: str, size: str | None) -> None:
    current = {"group_diavola_size": "opt_diavola_size_16in"}
    found = option_change.option_change(DIAVOLA, current, said)
    assert (found or {}).get("group_diavola_size") == size
