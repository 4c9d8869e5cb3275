"""The layout of a list of items in one message (language/item_lists.py), the shown items taken
as a set (language/shown_sets.py), and what the several-items stage makes of them
(words.item_mentions): lines, bullets and tallies, a lead-in before a colon, "&"/"+" and
"with" plus a count as joiners, a count said for each, one line per "one …", pointing pieces."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language import item_lists
from commerce_agent.agent.language.shown_sets import shown_set, without_shown_set
from commerce_agent.agent.models.scripted import compound, words


def _heads(said: str) -> tuple[str, ...]:
    return tuple(head for head, _ in words.item_mentions(said))


def _wholes(said: str) -> tuple[str, ...]:
    return tuple(whole for _, whole in words.item_mentions(said))


@pytest.mark.parametrize(("said", "wholes"), [
    # line breaks reach the stage as commas (tidy): bullets, numbers and tallies still cut
    ("can you add: - 2 tiramisu, - 1 lasagna bolognese, - 3 san pellegrino",
     ("2 tiramisu", "1 lasagna bolognese", "3 san pellegrino")),
    ("my order: 1. two tiramisu, 2. a lasagna", ("two tiramisu", "a lasagna")),
    ("genmaicha x2, washi notebook x3", ("genmaicha x2", "washi notebook x3")),
    ("3 pizzas: a big margherita, a small diavola and a small funghi bianca",
     ("a big margherita", "a small diavola", "a small funghi bianca")),
])
def test_a_written_list_is_cut_at_its_lines(said: str, wholes: tuple[str, ...]) -> None:
    assert _wholes(said) == wholes


@pytest.mark.parametrize("said", [
    "i want the diavola pizza; large size please, add to cart",  # a semicolon joins clauses
    "Practical Rust - Paperback + eBook",  # "+" inside a name
    "an espresso cup & saucer set",  # "&" inside a name
    "a mug, 12 oz, please",
    "address: 12 Oak St, Portland",
])
def test_what_is_no_list_stays_one(said: str) -> None:
    assert len(words.item_mentions(said)) == 1


@pytest.mark.parametrize(("said", "heads"), [
    ("16 inch margherita & a 12 inch funghi bianca",
     ("16 inch margherita", "a 12 inch funghi bianca")),
    ("2 tiramisu + a lasagna", ("2 tiramisu", "a lasagna")),
    ("margherita and diavola, both large please", ("margherita", "the diavola")),
])
def test_ampersand_plus_and_both_join_items(said: str, heads: tuple[str, ...]) -> None:
    assert _heads(said) == heads


@pytest.mark.parametrize(("said", "heads"), [
    # "and a half" after a count goes on counting, even beside a pointing piece
    ("the first one and a half dozen bowls", ("the first one and a half dozen bowls",)),
    ("add it, a dozen and a half", ("add it, a dozen and a half",)),
    ("a dozen and a half plates and a teapot", ("a dozen and a half plates", "a teapot")),
    ("2 and a half of those and a mug", ("2 and a half of those", "a mug")),
    # after a thing, "a half dozen" is an item of its own
    ("two mugs and a half dozen bowls", ("two mugs", "a half dozen bowls")),
])
def test_and_a_half_after_a_count_is_no_new_item(said: str, heads: tuple[str, ...]) -> None:
    assert _heads(said) == heads


def test_with_before_a_count_is_an_item_of_its_own_unless_the_item_has_it() -> None:
    said = "une lasagne avec deux tiramisus svp"
    assert _heads(said) == ("une lasagne",)  # unread: the piece stays with it
    apart = words.item_mentions(said, lambda head, piece: False)
    assert tuple(whole for _, whole in apart) == ("une lasagne", "deux tiramisus svp")


@pytest.mark.parametrize(("said", "wholes"), [
    ("a tiramisu and an arancini, two of each", ("two tiramisu", "two arancini")),
    ("dinner plates and espresso cup sets, three of each",
     ("three dinner plates", "three espresso cup sets")),
    ("玄米茶と加賀棒茶を2つずつください", ("玄米茶を2つ", "加賀棒茶を2つください")),
])
def test_a_count_said_for_each_is_every_items(said: str, wholes: tuple[str, ...]) -> None:
    assert _wholes(said) == wholes


def test_one_line_per_one_after_a_count_of_one_item() -> None:
    assert _wholes("2 margheritas, one 12 inch and one 16 inch") == (
        "1 margheritas, 12 inch", "1 margheritas, 16 inch")
    assert len(words.item_mentions("two mugs and one tiramisu")) == 2  # another item


@pytest.mark.parametrize(("said", "heads"), [
    ("4 of those and a hanging planter", ("4 of those", "a hanging planter")),
    ("the second one and a tiramisu", ("the second one", "a tiramisu")),
    ("add it and a tiramisu", ("add it", "a tiramisu")),
])
def test_a_piece_pointing_at_what_was_shown_is_an_item(said: str, heads: tuple[str, ...]) -> None:
    assert _heads(said) == heads


@pytest.mark.parametrize(("said", "count", "last"), [
    ("both please", 2, False), ("all of them, 12 inch", 5, False), ("les deux", 2, False),
    ("the first two", 2, False), ("the last 3", 3, True), ("les deux premiers", 2, False),
    ("最初の2つ", 2, False), ("両方ください", 2, False),
])
def test_the_shown_items_taken_as_a_set(said: str, count: int, last: bool) -> None:
    found = shown_set(words.fold(said))
    assert found is not None and (found.count, found.last) == (count, last)


def test_what_is_said_besides_the_set_is_kept() -> None:
    assert without_shown_set("all of them, 12 inch") == "12 inch"
    assert shown_set("a mug please") is None


def test_a_question_then_a_wish_names_the_questions_thing() -> None:
    split = compound.split("is the glaze mug dishwasher safe? either way I'd like two of them "
                           "and a dinner plate")
    assert split.request == "I'd like two of the glaze mug and a dinner plate"
    assert split.question == "is the glaze mug dishwasher safe?"


@given(st.lists(st.sampled_from(["tiramisu", "lasagna", "arancini", "cannoli", "genmaicha"]),
                min_size=2, max_size=4, unique=True),
       st.integers(min_value=2, max_value=9))
def test_a_count_for_each_reaches_every_item(names: list[str], count: int) -> None:
    said = " and ".join(f"a {name}" for name in names) + f", {count} of each"
    listed, each = item_lists.count_for_each(said)
    assert each == str(count)
    assert _wholes(said) == tuple(f"{count} {name}" for name in names)


@pytest.mark.parametrize("said", ["i'll take the cheaper of those two", "one of those two",
                                  "le moins cher de ces deux"])
def test_one_picked_of_the_set_is_no_set(said: str) -> None:
    assert shown_set(said) is None
