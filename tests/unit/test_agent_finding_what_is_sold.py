"""Finding what the stores sell (find17): a short request whose thing no catalog says is not
answered with something else ("red wine" is no red-clay kyusu); the same thing at several
stores is asked about rather than picked; a narrower search of the turn keeps what the fuller
one found; "any book for him?" is a book, not a booking."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import coverage, unsold
from commerce_agent.agent.models.scripted.intents import intent
from commerce_agent.agent.models.scripted.state import Call

KYUSU = {"itemId": "item_tokoname_kyusu", "name": "Tokoname Kyusu Teapot, 300 ml",
         "storeId": "store_midori",
         "description": "Unglazed red-clay side-handle teapot from Tokoname."}
CELADON = {"itemId": "item_celadon_teapot", "name": "Celadon Teapot, 700 ml",
           "storeId": "store_ceramics", "description": "A porcelain teapot with a soft glaze."}
DRIPPER = {"itemId": "item_pour_over_dripper", "name": "Ceramic Pour-Over Dripper",
           "storeId": "store_ceramics", "description": "Single-cup pour-over cone.",
           "categories": ["Home & Kitchen", "Coffee & Tea", "Brewers"]}
GUIDE = {"itemId": "item_glazing_guide_ebook", "name": "Glazing at Home (PDF)",
         "storeId": "store_ceramics", "description": "A guide for a small home studio."}
MUG = {"itemId": "item_classic_mug", "name": "Classic Stoneware Mug", "storeId": "store_ceramics"}
GIFT_CARD = {"itemId": "item_studio_gift_card", "name": "Lumen Studio Gift Card (£50)",
             "storeId": "store_lumen_studio"}


@pytest.mark.parametrize(("query", "missing", "found", "lang"), [
    ("red wine", {"wine"}, [KYUSU], "en"),          # found by "red" alone: nothing is a wine
    ("wine", {"wine"}, [KYUSU], "en"),
])
def test_a_thing_sold_nowhere_is_missing(query: str, missing: set[str],
                                          found: list[dict[str, Any]], lang: str) -> None:
    assert unsold.missing(query, frozenset(missing), found, lang)


@pytest.mark.parametrize(("query", "missing", "found", "lang"), [
    ("red wine", set(), [KYUSU], "en"),                      # every word said somewhere
    ("gyokru", {"gyokru"}, [], "en"),                        # nothing found: typo readings next
    ("mug birthday", {"birthday"}, [MUG], "en"),             # a name says "mug"
    ("pepperoni pizza", {"pepperoni"}, [{"name": "Pizza Diavola"}], "en"),  # the head is sold
    ("coffee by hand every cup help", {"help"}, [DRIPPER], "en"),  # a story, not a name
    ("赤ワイン", {"赤ワイン"}, [KYUSU], "ja"),
    ("vin rouge", {"vin"}, [KYUSU], "fr"),     # French is not judged (unsold.py says why)
])
def test_a_thing_sold_somewhere_or_unclear_is_not_missing(
        query: str, missing: set[str], found: list[dict[str, Any]], lang: str) -> None:
    assert not unsold.missing(query, frozenset(missing), found, lang)


def test_the_unmatched_words_are_read_from_the_search_of_the_query() -> None:
    calls = [Call("search_products", {"query": "red wines"},
                  {"results": [KYUSU], "unmatched": ["Wines"]}, False),
             Call("search_products", {"query": "wines"}, {"results": []}, False)]
    assert unsold.unmatched(calls, "red wines") == frozenset({"wine"})
    assert unsold.unmatched(calls, "wines") == frozenset()
    assert unsold.unmatched(calls, "mugs") == frozenset()


def test_a_narrower_search_says_less_of_the_request() -> None:
    said = frozenset({"brewer", "home"})
    assert coverage.covered([DRIPPER], said) == 2  # "Brewers" is its category; "Home & Kitchen"
    assert coverage.covered([GUIDE], said) == 1
    assert coverage.covered([], said) == 0


@given(st.lists(st.sampled_from([KYUSU, CELADON, DRIPPER, GUIDE, MUG, GIFT_CARD]), max_size=5),
       st.lists(st.sampled_from([KYUSU, CELADON, DRIPPER, GUIDE, MUG, GIFT_CARD]), max_size=3),
       st.frozensets(st.sampled_from(["teapot", "brewer", "home", "mug", "red", "gift", "wine"]),
                     max_size=4))
def test_coverage_is_bounded_and_grows_with_the_items(
        items: list[dict[str, Any]], more: list[dict[str, Any]], said: frozenset[str]) -> None:
    found = coverage.covered(items, said)
    assert 0 <= found <= len(said)
    assert coverage.covered([*items, *more], said) >= found


@pytest.mark.parametrize("said", [
    "my dad just started baking bread, any book for him?",
    "do you have a book for my dad?",
    "got any good book for a long flight?",
])
def test_a_book_named_is_no_booking(said: str) -> None:
    assert intent(said) != "book"


@pytest.mark.parametrize("said", [
    "book a class for me", "can you book me in for tuesday", "book the private session",
])
def test_booking_is_still_booking(said: str) -> None:
    assert intent(said) == "book"
