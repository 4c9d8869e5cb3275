"""Evidence that the words said name an item (naming.py `weak_evidence`, `phrase_heads`,
`head_parts`), a code named before its code word (codes.py), a clause that only says where
to send (words.py `item_mentions`), and a switch that also asks for an item (policy.py)."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.agent.language.addresses import find_address
from commerce_agent.agent.language.codes import read_code
from commerce_agent.agent.models.scripted import naming, words
from commerce_agent.agent.models.scripted.policy import _then_getting


def _item(name: str, description: str = "") -> dict[str, Any]:
    return {"itemId": "item_x", "name": name, "description": description}


CHASEN = _item("Takayama Bamboo Chasen (80 tines)",
               "Hand-carved bamboo whisk from Takayama, Nara, for a fine, even foam.")
HOJICHA = _item("Kaga Bōcha Roasted Stem Tea, 100 g",
                "Roasted tea stems from Ishikawa: toasty, low in caffeine.")
TIRAMISU = _item("Tiramisù", "Espresso-soaked savoiardi, mascarpone cream and cocoa.")
MUG = _item("Classic Stoneware Mug", "Our everyday wheel-thrown stoneware mug.")


@pytest.mark.parametrize(("text", "query", "item"), [
    ("add a bamboo cutting board to my cart", "bamboo cutting board", CHASEN),
    ("I'd like a silk tea towel please", "silk tea towel", HOJICHA),
    ("put a matcha ice cream in my basket", "matcha ice cream", TIRAMISU),
    ("add two foam yoga blocks", "foam yoga blocks", CHASEN),
])
def test_a_modifier_alone_is_too_weak_to_add(text: str, query: str,
                                             item: dict[str, Any]) -> None:
    assert naming.weak_evidence(item, text, naming.wanted(query))


@pytest.mark.parametrize(("text", "query", "item"), [
    ("I need a bamboo tea whisk in my cart", "bamboo tea whisk", CHASEN),
    ("I'd like a cobalt mug, the bigger one, in my cart please", "cobalt mug bigger one", MUG),
    ("add a bag of hojicha please", "bag hojicha", HOJICHA),
    ("add a tiramisu", "tiramisu", TIRAMISU),
])
def test_the_thing_itself_named_is_enough(text: str, query: str, item: dict[str, Any]) -> None:
    assert not naming.weak_evidence(item, text, naming.wanted(query))


def test_the_head_of_a_phrase_by_language() -> None:
    said = frozenset({"bamboo", "cutting", "board"})
    assert naming.phrase_heads("a bamboo cutting board", said) == {"board"}
    french = frozenset({"planche", "decouper"})
    assert "planche" in naming.phrase_heads("une planche à découper", french, "fr")
    assert naming.phrase_heads("a bag of hojicha tea", frozenset({"bag", "hojicha", "tea"})
                               ) == {"tea"}
    assert not naming.phrase_heads("a mug", frozenset({"mug"}))  # one word: nothing to weigh


def test_a_japanese_modifier_is_dropped_at_a_script_change() -> None:
    assert naming.head_parts("棒ほうじ茶") == ["ほうじ茶"]
    assert naming.head_parts("ほうじ茶") == []  # no change of script before its last kanji
    assert naming.head_parts("宇治抹茶の茶筅") == []  # never a tail that starts on a particle


def test_a_code_named_before_its_code_word() -> None:
    found = read_code("delivered to 12 Hackney Road, London E2 7NX, UK, and I've got the "
                      "NAMASTE10 code")
    assert found.codes == ("NAMASTE10",)
    assert found.rest == "delivered to 12 Hackney Road, London E2 7NX, UK"
    assert read_code("I have a coupon").vague


def test_a_clause_that_only_says_where_is_no_item() -> None:
    text = "棒ほうじ茶2つ買う、札幌市中央区北1条西2-1に送って"
    assert len(words.item_mentions(text)) == 1
    found = find_address(text)
    assert found is not None and found.text == "札幌市中央区北1条西2-1"


@pytest.mark.parametrize(("text", "kind"), [
    ("now switch to the trattoria and add a tiramisu", "add"),
    ("let's switch to Folio & Code and add the sourdough book", "add"),
    ("switch to lumen studio", None),
])
def test_a_switch_that_asks_for_an_item(text: str, kind: str | None) -> None:
    assert _then_getting(text) == kind
