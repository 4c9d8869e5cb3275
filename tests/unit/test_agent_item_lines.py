"""English item lines in long sentences: a request pointing back at the thing in focus
(`pointing`, and `sequence` serving it as one clause of several), names joined by a bare
"and" cut where the catalogs sell them apart (`several.sold_apart`, by the turn's search) and
a count said once for each (`words.item_mentions`), and an item's own choices said after
it as evidence for it (`naming.weak_evidence`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import naming, pointing, words
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.planner import Planner
from commerce_agent.agent.models.scripted.sequence import requests
from commerce_agent.agent.models.scripted.several import sold_apart
from commerce_agent.agent.models.scripted.state import Call, State

MUG = "Classic Stoneware Mug"
LINE = {"cartItemId": "line_1", "itemId": "item_classic_mug", "name": MUG, "quantity": 1,
        "variantId": "var_mug_blue_12oz"}
IN_CART = pointing.Focus("item_classic_mug", MUG, LINE, True)
SHOWN = pointing.Focus("item_espresso_cup_set", "Espresso Cup & Saucer Set (2)", None, False)


@pytest.mark.parametrize(("text", "count"), [
    ("chuck another of those mugs in", 1),
    ("add another of those", 1),
    ("throw in two more of the last thing", 2),
    ("same again", 1),
    ("one more of that please", 1),
    ("another one", 1),
])
def test_asking_for_more_of_the_thing_in_focus(text: str, count: int) -> None:
    assert pointing.pointed(text, MUG) == pointing.Pointed(True, count)


@pytest.mark.parametrize(("text", "count"), [
    ("throw two of those in my cart", 2),
    ("great, I'll take it", 1),
    ("that one please", 1),
])
def test_pointing_at_it_without_asking_for_more(text: str, count: int) -> None:
    assert pointing.pointed(text, MUG) == pointing.Pointed(False, count)


@pytest.mark.parametrize("text", [
    "another plate please",  # another thing than the mug in focus
    "add a dinner plate",
    "two of those teapots",
    "show me the cart",
])
def test_a_thing_of_its_own_is_no_pointing(text: str) -> None:
    assert pointing.pointed(text, MUG) is None


def test_no_focus_points_at_nothing() -> None:
    assert pointing.pointed("another of those", "") is None


def test_the_line_of_the_focus_item_and_its_raise() -> None:
    carts = [{"items": [{"cartItemId": "line_0", "itemId": "item_plate", "name": "Plate"},
                        LINE]}]
    items: dict[str, dict[str, Any]] = {"item_classic_mug": {"name": MUG}}
    last = pointing.focus_of(items, "item_classic_mug", carts, "line_1")
    assert last == IN_CART and pointing.raised(last, 2) == "2 more"
    named = pointing.focus_of(items, "item_classic_mug", carts, "line_0")
    assert named is not None and pointing.raised(named, 1) == f"1 more {MUG}"
    assert pointing.focus_of(items, "item_missing", carts, None) is None
    shown = pointing.focus_of(items, "item_classic_mug", [], None)
    assert shown is not None and shown.line is None


@pytest.mark.parametrize(("text", "focus", "kinds"), [
    ("chuck another of those mugs in and add a dinner plate as well", IN_CART,
     ["again", "add"]),
    ("add another of those and a chasen whisk", IN_CART, ["again", "add"]),
    ("throw two of those in my cart and a limited edition glaze mug too", SHOWN,
     ["again", "add"]),
    ("great, I'll take it, and also add a hanging planter", SHOWN, ["again", "add"]),
])
def test_a_pointing_clause_is_a_request_of_its_own(text: str, focus: pointing.Focus,
                                                   kinds: list[str]) -> None:
    assert [request.kind for request in requests(text, focus)] == kinds


def test_without_a_focus_the_clauses_are_one_add() -> None:
    assert requests("add another of those and a chasen whisk") == []


def _apart(*pairs: tuple[str, str]) -> words.Belongs:
    """A catalog that sells the names of `pairs` apart."""
    return lambda left, right: any(a in left and b in right for a, b in pairs)


@pytest.mark.parametrize(("text", "heads"), [
    ("add the sourdough year and python patterns", ["sourdough", "python"]),
    ("put designing distributed systems and quiet focus in my cart",
     ["distributed", "quiet"]),
    ("add the celadon teapot and espresso cup set", ["celadon", "espresso"]),
])
def test_names_the_catalogs_sell_apart_are_two_items(text: str, heads: list[str]) -> None:
    found = words.item_mentions(text, sold_apart=_apart(
        ("sourdough", "python"), ("distributed", "quiet"), ("teapot", "espresso")))
    assert len(found) == len(heads)
    assert all(head in whole for head, (_, whole) in zip(heads, found, strict=True))


@pytest.mark.parametrize("text", [
    "add the cork and natural rubber yoga mat",
    "book the sound bath and restorative workshop",
    "a margherita with prosciutto and burrata",  # its own toppings, after "with"
    "a mug in blue and white",  # only looks after the "and"
])
def test_one_name_holding_and_stays_one_item(text: str) -> None:
    assert len(words.item_mentions(text, sold_apart=lambda left, right: False)) == 1
    assert len(words.item_mentions(text, sold_apart=_apart(("sourdough", "python")))) == 1


@pytest.mark.parametrize(("tail", "count"), [
    ("two of each", "two"), ("2 each", "2"), ("three apiece", "three"),
])
def test_a_count_said_once_is_each_items(tail: str, count: str) -> None:
    found = words.item_mentions(f"a margherita and a diavola, {tail}")
    assert [whole for _, whole in found] == [f"a margherita, {count}", f"a diavola, {count}"]


def test_a_shared_size_is_each_items() -> None:
    found = words.item_mentions("i'll have the margherita and diavola, both 12 inch",
                                sold_apart=_apart(("margherita", "diavola")))
    assert [whole.endswith("12 inch") for _, whole in found] == [True, True]


@given(st.sampled_from(["sourdough year", "python patterns", "quiet focus", "kaga hojicha"]),
       st.sampled_from(["sourdough year", "python patterns", "quiet focus", "kaga hojicha"]))
def test_never_cut_unless_the_catalogs_say(first: str, second: str) -> None:
    text = f"add the {first} and {second}"
    assert len(words.item_mentions(text)) == 1
    assert len(words.item_mentions(text, sold_apart=lambda left, right: False)) == 1


CAESAR: dict[str, Any] = {
    "itemId": "item_caesar_salad", "name": "Tuscan Kale Caesar",
    "description": "Lacinato kale, parmigiano, anchovy dressing and sourdough crumbs.",
    "metadata": {"dev.commerce.product.customization": {"groups": [{
        "id": "group_caesar_protein", "selectionType": "multiple", "options": [
            {"id": "opt_caesar_chicken", "name": "Grilled chicken"},
            {"id": "opt_caesar_egg", "name": "Soft-boiled egg"}]}]}}}
MARGHERITA: dict[str, Any] = {
    "itemId": "item_pizza_margherita", "name": "Pizza Margherita",
    "description": "San Marzano tomato, fior di latte, fresh basil and olive oil.",
    "metadata": {"dev.commerce.product.addons": {"items": [
        {"id": "addon_trattoria_burrata", "name": "Burrata on the side"}]}}}


@pytest.mark.parametrize(("text", "query", "item"), [
    ("a kale caesar topped with grilled chicken and a soft boiled egg for me",
     "kale caesar topped grilled chicken", CAESAR),
    ("a margherita with extra basil and burrata", "margherita basil burrata", MARGHERITA),
    ("12 inch margherita topped with burrata on the side", "margherita topped burrata",
     MARGHERITA),
])
def test_an_items_own_choices_are_evidence_for_it(text: str, query: str,
                                                  item: dict[str, Any]) -> None:
    assert not naming.weak_evidence(item, text, naming.wanted(query))


def test_another_things_words_are_still_evidence_against() -> None:
    assert naming.weak_evidence(CAESAR, "add a kale smoothie to my cart",
                                naming.wanted("kale smoothie"))


def _searched(query: str, names: list[str]) -> Planner:
    """A planner whose turn made one search for `query`, finding items named `names`."""
    results = [{"itemId": f"item_{n}", "name": name} for n, name in enumerate(names)]
    state = State(frame=Frame("add", (f"add the {query}",)),
                  calls=[Call("search_products", {"query": query}, {"results": results}, False)])
    return Planner(state, {})


@pytest.mark.parametrize(("left", "right", "names"), [
    ("add the celadon teapot", "espresso cup set", ["Espresso Cup & Saucer Set (2)"]),
    ("add the sourdough year", "python patterns",
     ["Python Design Patterns in Practice (eBook)", "The Sourdough Year (eBook)"]),
])
def test_sold_apart_when_no_one_name_holds_both_sides(left: str, right: str,
                                                      names: list[str]) -> None:
    query = " ".join(words.content_words(f"{left} {right}"))
    assert sold_apart(_searched(query, names), left, right)


def test_one_name_holding_both_sides_is_one_item() -> None:
    planner = _searched("cork natural rubber yoga mat", ["Cork & Natural Rubber Yoga Mat"])
    assert not sold_apart(planner, "add the cork", "natural rubber yoga mat")


def test_unsearched_words_are_one_items() -> None:
    assert not sold_apart(Planner(State(), {}), "add the celadon teapot", "espresso cup set")
