"""Items with configurations (agent/models/scripted/line_options.py and the option slots of
choices, option_change and intents): extras added to or taken from a cart line, sizes named
as "large"/"small", option numbers that are not counts, option questions, Japanese dates."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import read
from commerce_agent.agent.models.scripted import choices, line_options, option_change
from commerce_agent.agent.models.scripted.intents import Frame, understand
from tests.support.sample_items import sample_item

PIZZA, CAESAR, FONT, PIXEL, MUG, LASAGNA = (
    sample_item("item_pizza_margherita"), sample_item("item_caesar_salad"),
    sample_item("item_aurelia_font_license"), sample_item("item_pixelforge_license"),
    sample_item("item_classic_mug"), sample_item("item_lasagna_bolognese"))
SIZE, TOPS = "group_margherita_size", "group_margherita_toppings"
PIZZA_LINE = {"itemId": "item_pizza_margherita", "customizations": {
    SIZE: "opt_margherita_size_12in",
    TOPS: ["opt_margherita_top_nduja", "opt_margherita_top_prosciutto"]}}


@pytest.mark.parametrize(("said", "toppings"), [
    ("add mushrooms to the pizza", ["opt_margherita_top_nduja", "opt_margherita_top_prosciutto",
                                    "opt_margherita_top_mushrooms"]),
    ("actually no prosciutto", ["opt_margherita_top_nduja"]),
    ("take the nduja off", ["opt_margherita_top_prosciutto"]),
    ("hold the prosciutto, add olives", ["opt_margherita_top_nduja",
                                         "opt_margherita_top_olives"]),
    ("remove the nduja and the prosciutto", []),
    ("sans prosciutto", ["opt_margherita_top_nduja"]),
    ("prosciuttoなしで", ["opt_margherita_top_nduja"]),
])
def test_toppings_are_added_and_taken_away(said: str, toppings: list[str]) -> None:
    edited = line_options.edit(PIZZA, PIZZA_LINE, said)
    assert edited is not None
    assert edited["customizations"].get(TOPS, []) == toppings
    assert edited["customizations"][SIZE] == "opt_margherita_size_12in"  # single groups stay


@pytest.mark.parametrize(("item", "line", "said", "addons"), [
    (PIXEL, {"addOnIds": ["addon_pixelforge_priority_support", "addon_pixelforge_preset_pack"]},
     "drop the priority support", ["addon_pixelforge_preset_pack"]),
    (PIXEL, {}, "and throw in the film presets", ["addon_pixelforge_preset_pack"]),
    (MUG, {"variantId": "var_mug_blue_16oz"}, "add a gift box too", ["addon_ceramics_gift_box"]),
    (LASAGNA, {"addOnIds": ["addon_trattoria_garlic_bread"]}, "remove the focaccia", []),
])
def test_add_ons_are_added_and_taken_away(item: dict[str, Any], line: dict[str, Any],
                                          said: str, addons: list[str]) -> None:
    edited = line_options.edit(item, line, said)
    assert edited is not None and edited["addOnIds"] == addons


@pytest.mark.parametrize(("item", "line", "said"), [
    (PIZZA, PIZZA_LINE, "add nduja"),  # there already
    (PIZZA, PIZZA_LINE, "no olives"),  # not there
    (PIZZA, PIZZA_LINE, "make it two"),  # a count
    (MUG, {}, "remove the mug"),  # the line itself
])
def test_what_changes_no_extra_is_no_edit(item: dict[str, Any], line: dict[str, Any],
                                          said: str) -> None:
    assert line_options.edit(item, line, said) is None


def test_an_edit_names_nothing_but_the_items_extras() -> None:
    assert line_options.names_nothing_else(MUG, "remove the gift box", frozenset())
    assert not line_options.names_nothing_else(MUG, "remove the gift box and the plate",
                                               frozenset())


@given(st.lists(st.sampled_from(["mushrooms", "olives", "nduja", "prosciutto"]), min_size=1,
                max_size=4, unique=True))
def test_adding_then_removing_the_same_toppings_gives_the_line_back(named: list[str]) -> None:
    line = {"customizations": {SIZE: "opt_margherita_size_16in"}}
    added = line_options.edit(PIZZA, line, "add " + " and ".join(named))
    assert added is not None and len(added["customizations"][TOPS]) == len(named)
    removed = line_options.edit(PIZZA, added, "remove the " + " and the ".join(named))
    assert removed is not None and removed["customizations"] == line["customizations"]


@pytest.mark.parametrize(("said", "step", "option"), [
    ("a large margherita", 1, "opt_margherita_size_16in"),
    ("the small one", -1, "opt_margherita_size_12in"),
    ("une grande margherita", 1, "opt_margherita_size_16in"),
])
def test_large_and_small_name_the_biggest_and_smallest_size(said: str, step: int,
                                                          option: str) -> None:
    assert option_change.direction(said) == step
    assert option_change.sized_option(choices.groups(PIZZA)[0], step) == [option]
    assert option_change.names_a_size(PIZZA, said)


def test_a_group_without_sizes_has_no_biggest() -> None:
    assert option_change.sized_option(choices.groups(FONT)[1], 1) == []
    assert not option_change.names_a_size(FONT, "the big one")


def test_a_name_that_says_sans_declines_nothing() -> None:
    said = choices.said_words(("add the Aurelia Sans licence for 20 seats with web fonts",),
                              str(FONT["name"]))
    assert {"20", "seat", "web"} <= said


@pytest.mark.parametrize("said", ["buy it with five seats", "the 5-seat one", "20 seats please"])
def test_a_number_with_an_options_unit_is_no_count(said: str) -> None:
    assert Frame("add", (said,)).quantity(str(FONT["name"]),
                                         tuple(choices.option_labels(FONT))) is None


def test_a_count_beside_an_option_stays_a_count() -> None:
    frame = Frame("add", ("add two 16-inch margheritas",))
    assert frame.quantity("Pizza Margherita", tuple(choices.option_labels(PIZZA))) == 2


@pytest.mark.parametrize("said", ["what toppings can I add to the margherita?", "which sizes?",
                                  "quelles tailles pour la pizza ?",
                                  "what times can I book the portrait session?"])
def test_asking_which_options_is_answered(said: str) -> None:
    assert understand(said)[0] == "details"


def test_a_japanese_date_is_a_day_not_a_count() -> None:
    found = read("3月13日の午後でお願いします", now=datetime(2026, 11, 26, tzinfo=UTC))
    assert found.counts == ()
    assert found.when is not None and (found.when.at.month, found.when.at.day) == (3, 13)
    assert found.when.at.year == 2027


def test_an_extra_said_in_french_is_named_and_nothing_else() -> None:
    line = {"customizations": {TOPS: ["opt_margherita_top_prosciutto"]}}
    assert line_options.edit(PIZZA, line, "enlevez le jambon") == {
        "customizations": {}, "addOnIds": []}
    assert line_options.names_nothing_else(PIZZA, "enlevez le jambon", frozenset())


@pytest.mark.parametrize(("said", "clock"), [
    ("the 11 o'clock on saturday", (11, 0)), ("feb 8 at noon", (12, 0)),
    ("Monday at 6:30pm", (18, 30))])
def test_a_slot_time_in_the_shoppers_words(said: str, clock: tuple[int, int]) -> None:
    assert choices.when_named((said,)).clock == clock


def test_a_time_is_no_count() -> None:
    assert Frame("book", ("book it", "the 11 o'clock on saturday")).quantity() is None


@pytest.mark.parametrize("said", ["does it come with any extras?", "are there any toppings?"])
def test_asking_whether_there_are_extras_is_answered(said: str) -> None:
    assert understand(said)[0] == "details"


@pytest.mark.parametrize(("said", "another"), [
    ("add a margherita with mushrooms", True), ("two more pizzas with olives", True),
    ("add mushrooms to the margherita", False), ("add mushrooms to the pizza", False)])
def test_counting_the_item_asks_for_another_one(said: str, another: bool) -> None:
    assert line_options.asks_for_another(PIZZA, said) is another
