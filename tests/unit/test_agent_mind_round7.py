"""Changes of mind, negation and extras, round 7 (issue 21): take-backs without a marker,
counts refused for another, counts taken off a line, extras edited among the words said
around them, options named by their value, and refused options kept with the request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.option_words import english_option_words
from commerce_agent.agent.language.swaps import find_swap
from commerce_agent.agent.models.scripted import (
    edits,
    line_options,
    mind,
    option_change,
    words,
)
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act

_STORES = Path(__file__).resolve().parents[2] / "sample_data" / "stores"


def _item(item_id: str) -> dict[str, Any]:
    for path in sorted(_STORES.glob("*.json")):
        for catalog in json.loads(path.read_text(encoding="utf-8"))["catalogs"]:
            for item in catalog["items"]:
                if item["id"] == item_id:
                    return dict(item)
    raise LookupError(item_id)


_UNDO = ["never mind", "undo that", "undo", "oops, wrong item", "my mistake", "my bad",
         "that's the wrong one", "laisse tomber", "oublie ça", "je me suis trompé",
         "やめます", "やめた", "間違えました", "scratch that", "forget it"]


@given(st.sampled_from(_UNDO), st.sampled_from(["", "oh, ", "oops ", "hmm, ", "sorry, "]))
def test_a_take_back_needs_no_marker(said: str, opener: str) -> None:
    text = opener + said if said.isascii() else said
    change = mind.read(text)
    assert change is not None and change.intent == "undo"
    assert understand(text)[0] == "no"  # right after an add, the state takes that line back
    assert mind.takes_back(text)


@pytest.mark.parametrize("said", ["cancel that", "cancel it", "no thanks", "non merci",
                                  "いいです", "undo the order"])
def test_what_is_not_a_take_back(said: str) -> None:
    """"cancel that" after a purchase is about the order; a plain no declines an offer."""
    change = mind.read(said)
    assert change is None or change.intent != "undo"


_COUNTS = [("one", 1), ("two", 2), ("three", 3), ("four", 4), ("deux", 2), ("trois", 3)]


@given(st.sampled_from(_COUNTS), st.sampled_from(_COUNTS),
       st.sampled_from(["not {old}, {new}", "no, not {old}, {new}", "non, pas {old}, {new}",
                        "I don't want {old} plates, I want {new}", "not {old} but {new}"]))
def test_a_count_refused_for_another_is_that_count(old: tuple[str, int], new: tuple[str, int],
                                                   shape: str) -> None:
    said = shape.format(old=old[0], new=new[0])
    change = mind.read(said)
    if old[1] == new[1]:
        assert change is None or change.intent != "quantity"
        return
    assert change is not None and change.intent == "quantity"
    assert words.quantity(change.text) == new[1]


@pytest.mark.parametrize("said", ["not three plates, two mugs", "not the blue one, the 16 oz",
                                  "3枚じゃなくて皿を2つ"])
def test_a_refused_count_of_another_thing_is_no_recount(said: str) -> None:
    change = mind.read(said)
    assert change is None or change.intent != "quantity"


def test_japanese_counts_refused() -> None:
    change = mind.read("3枚じゃなくて2枚で")
    assert change is not None and change.intent == "quantity"


@pytest.mark.parametrize(("said", "thing"), [
    ("I've changed my mind about the teapot", "teapot"),
    ("on second thought, about the planter", "planter"),
    ("j'ai changé d'avis pour la théière", "theiere"),
    ("nah, leave out the planter", "planter"),
])
def test_what_a_change_of_mind_is_about_is_let_go(said: str, thing: str) -> None:
    change = mind.read(said)
    assert change is not None and change.intent == "remove"
    assert thing in words.fold(change.text)


@pytest.mark.parametrize(("said", "recounts"), [
    ("I only need one plate", True), ("just two of the mugs", True),
    ("je n'en veux que deux", True), ("やっぱりお皿は2枚で", True), ("actually, two plates", True),
    ("add two plates", False), ("one more plate", False), ("add the 300 ml kyusu", False),
])
def test_a_count_said_as_all_that_is_wanted(said: str, recounts: bool) -> None:
    assert mind.recounts(said) is recounts


@given(st.sampled_from(_COUNTS[:4]), st.sampled_from(["plate", "mug", "tea"]),
       st.sampled_from(["take {n} {thing} off", "take {n} {thing}s out", "remove {n} {thing}",
                        "{n} {thing} less", "drop {n}"]))
def test_a_count_taken_off_is_relative(count: tuple[str, int], thing: str, shape: str) -> None:
    assert quantities.change(shape.format(n=count[0], thing=thing)) == -count[1]


@pytest.mark.parametrize("said", ["enlève une assiette", "une assiette de moins",
                                  "retire une tasse"])
def test_french_counts_taken_off(said: str) -> None:
    assert quantities.change(said) == -1


@pytest.mark.parametrize("said", ["remove the mug", "take the planter out", "remove a gift box",
                                  "remove the 16 oz mug"])
def test_a_line_removed_is_no_relative_count(said: str) -> None:
    assert quantities.change(said) is None


_MUG_LINE = {"itemId": "item_classic_mug", "variantId": "var_mug_blue_12oz",
             "addOnIds": ["addon_ceramics_gift_box", "addon_ceramics_cork_coaster"]}


@given(st.sampled_from(["", "wait, ", "oh, ", "hmm, ", "actually "]),
       st.sampled_from(["I don't want the coaster", "no coaster after all", "lose the coaster",
                        "I don't need the coaster anymore", "skip the coaster"]))
def test_an_extra_taken_off_among_words_said_around_it(opener: str, said: str) -> None:
    item = _item("item_classic_mug")
    text = opener + said
    edited = line_options.edit(item, _MUG_LINE, text)
    assert edited is not None and edited["addOnIds"] == ["addon_ceramics_gift_box"]
    assert line_options.names_nothing_else(item, text, option_change.CHANGE_WORDS)


@pytest.mark.parametrize(("item_id", "said", "extra"), [
    ("item_caesar_salad", "add chicken to the salad", "opt_caesar_chicken"),
    ("item_caesar_salad", "ajoute du poulet à la salade", "opt_caesar_chicken"),
    ("item_classic_mug", "ajoute un sous-verre en liège", "addon_ceramics_cork_coaster"),
    ("item_lasagna_bolognese", "avec la focaccia à l'ail en plus",
     "addon_trattoria_garlic_bread"),
    ("item_pizza_margherita", "finalement pas d'huile pimentée", "addon_trattoria_chili_oil"),
])
def test_an_extra_named_by_kind_or_in_french(item_id: str, said: str, extra: str) -> None:
    item = _item(item_id)
    assert extra in [found for found, _ in line_options.named(item, said)]
    assert line_options.names_nothing_else(item, said, option_change.CHANGE_WORDS)
    assert not line_options.asks_for_another(item, said)


def test_another_thing_named_is_no_extra_edit() -> None:
    item = _item("item_classic_mug")
    assert not line_options.names_nothing_else(item, "remove the coaster and the teapot",
                                               option_change.CHANGE_WORDS)


def test_hyphenated_french_option_words() -> None:
    assert "coaster" in english_option_words("un sous-verre")


_TWELVE = {"group_margherita_size": "opt_margherita_size_12in"}


@pytest.mark.parametrize(("said", "size"), [
    ("let's go with 16 inches", "opt_margherita_size_16in"),
    ("the 16-inch one please", "opt_margherita_size_16in"),
    ("やっぱりLサイズで", "opt_margherita_size_16in"),
])
def test_an_option_named_by_its_value(said: str, size: str) -> None:
    changed = option_change.option_change(_item("item_pizza_margherita"), _TWELVE, said)
    assert changed is not None and changed["group_margherita_size"] == size


@pytest.mark.parametrize("said", ["16", "make it 16", "add a 16 inch margherita",
                                  "is the 16 inch dearer?"])
def test_a_bare_number_or_another_pizza_moves_no_option(said: str) -> None:
    changed = option_change.option_change(_item("item_pizza_margherita"), _TWELVE, said)
    assert changed is None or said.endswith("?")


def test_a_declined_value_is_not_said() -> None:
    item = _item("item_classic_mug")
    assert option_change.variant_change(item, "var_mug_blue_12oz",
                                        "not the 12 oz, the 16") == "var_mug_blue_16oz"


def test_an_option_refused_stays_with_the_request() -> None:
    kind, text = understand("add a classic mug, not the blue one")
    assert kind == "add" and "not the blue" in text


def test_a_question_about_a_thing_not_to_add() -> None:
    kind, text = understand("don't add the teapot yet, how much is it?")
    assert kind == "details" and "teapot" in text


def test_a_japanese_extra_declined_is_a_negated_clause() -> None:
    act = read_act("常滑焼の急須をカートに入れて。風呂敷は要らない")
    assert act.negated and "風呂敷" in act.negated[0] and "急須" in act.text
    assert understand("常滑焼の急須をカートに入れて。風呂敷は要らない")[0] == "add"


@pytest.mark.parametrize("said", ["ほうじ茶じゃなくて玄米茶がいいです",
                                  "ほうじ茶じゃなくて玄米茶の方がいい"])
def test_a_japanese_preference_replaces(said: str) -> None:
    assert understand(said)[0] == "replace"
    swap = find_swap(words.fold(said))
    assert swap is not None and swap.old == "ほうじ茶" and swap.new == "玄米茶"


_MARGHERITA_LINE = {"itemId": "item_pizza_margherita",
                    "customizations": {"group_margherita_size": "opt_margherita_size_12in",
                                       "group_margherita_toppings": [
                                           "opt_margherita_top_mushrooms"]}}


@pytest.mark.parametrize("said", ["swap the mushrooms for olives",
                                  "replace the mushrooms with olives",
                                  "olives instead of mushrooms",
                                  "remplace les champignons par des olives",
                                  "きのこじゃなくてオリーブにして"])
def test_an_extra_swapped_for_another(said: str) -> None:
    item = _item("item_pizza_margherita")
    edited = line_options.edit(item, _MARGHERITA_LINE, said)
    assert edited is not None
    assert edited["customizations"]["group_margherita_toppings"] == [
        "opt_margherita_top_olives"]
    assert line_options.names_nothing_else(item, said, option_change.CHANGE_WORDS)


def test_what_is_taken_instead_is_added() -> None:
    item = _item("item_pixelforge_license")
    line = {"itemId": "item_pixelforge_license",
            "addOnIds": ["addon_pixelforge_priority_support"]}
    edited = line_options.edit(item, line, "no support, the preset pack instead")
    assert edited is not None and edited["addOnIds"] == ["addon_pixelforge_preset_pack"]


@pytest.mark.parametrize(("said", "thing"), [
    ("keep only the plate", "plate"), ("just the plate, lose the rest", "plate"),
    ("remove everything but the plate", "plate"), ("ne garde que l'assiette", "assiette"),
    ("enlève tout sauf l'assiette", "assiette"), ("お皿だけにして", "お皿"),
    ("お皿以外は削除して", "お皿"),
])
def test_keeping_one_thing_lets_the_rest_go(said: str, thing: str) -> None:
    kind, text = understand(said)
    assert kind == "keep" and thing in words.fold(text)


@pytest.mark.parametrize("said", ["just two plates", "1つだけでいいです", "only the plate?"])
def test_a_count_or_a_question_keeps_nothing(said: str) -> None:
    assert understand(said)[0] != "keep"


@given(st.sampled_from(["add a dinner plate", "add the celadon teapot", "buy the glaze mug"]),
       st.sampled_from(["gift box", "cork coaster", "gift wrap"]),
       st.sampled_from(["{request} but don't add a {extra}", "{request}, don't include a {extra}",
                        "{request} but please don't add the {extra}"]))
def test_not_adding_another_thing_is_declining_it(request: str, extra: str, shape: str) -> None:
    kind, text = understand(shape.format(request=request, extra=extra))
    assert kind in ("add", "buy") and "without" in text and extra in text


def test_not_adding_the_thing_itself_is_asking() -> None:
    assert understand("don't add it, I just want the price")[0] not in ("add", "buy")


def test_no_thing_among_edits_is_a_removal() -> None:
    assert edits.clauses("no teapot, and make the plates three") == [
        ("remove", "teapot"), ("quantity", "make the plates three")]


@pytest.mark.parametrize("said", ["mugs, USD 20 or less", "tea, 2000 yen or less",
                                  "20 dollars less than that"])
def test_a_price_limit_is_no_count_taken_off(said: str) -> None:
    assert quantities.change(said) is None


def test_a_planter_is_no_plan() -> None:
    assert understand("nah, leave out the planter")[0] == "remove"
