"""A piece of a request that names only an option of the item before it (a size by its rank, a
measure, a look) stays with that item, never becomes an item of its own."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted.mind import corrected
from commerce_agent.agent.models.scripted.words import item_mentions


@pytest.mark.parametrize(
    "text",
    [
        "I'd like a cobalt mug, the bigger one, in my cart please",
        "one of the blue mugs, the 16 oz size, could you add it to my basket?",
        "a margherita, the bigger size, in my cart please",
        "ajoutez un mug classique bleu cobalt, la grande taille, dans mon panier",
        "so I was hoping to get her one of your cobalt mugs, the bigger 16 oz size, could you pop "
        "one in my basket?",
    ],
)
def test_an_option_piece_stays_with_its_item(text: str) -> None:
    assert len(item_mentions(text)) == 1


def test_a_piece_naming_a_thing_is_still_an_item() -> None:
    mentions = item_mentions("a dinner plate and a cobalt mug, the 16 oz one, into my cart")
    assert [head for head, _ in mentions] == ["a dinner plate", "a cobalt mug"]
    assert "the 16 oz one" in mentions[1][1]


def test_a_large_thing_after_a_comma_is_its_own_item() -> None:
    assert len(item_mentions("a margherita, a large diavola")) == 2


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("add a 16 oz speckled oat mug, no wait, cobalt blue", "add a 16 oz cobalt blue mug"),
        (
            "put a speckled oat mug in my cart, sorry I mean cobalt blue",
            "put a cobalt blue mug in my cart",
        ),
        (
            "ajoutez un mug classique moucheté de 16 oz, non pardon, bleu cobalt",
            "ajoutez un mug classique bleu cobalt de 16 oz",
        ),
    ],
)
def test_a_correction_of_a_look_replaces_the_look_said_before(said: str, meant: str) -> None:
    assert corrected(said) == meant


def test_a_correction_naming_a_thing_is_no_look() -> None:
    # not the look replaced ("add a plate mug"): the thing said after the marker is (neg15)
    assert corrected("add a blue mug, no wait, a plate") == "add a plate"
