"""The French head-noun stage (language/noun_phrases.py) and its use by the item matcher
(naming.head_fit): the first noun names the thing, what follows it describes it, and a typo
is corrected only into a close word of the item's own name in the shopper's language."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.agent.language.fuzzy import is_typo_of
from commerce_agent.agent.language.noun_phrases import NounPhrase, french_phrase
from commerce_agent.agent.models.scripted import naming


@pytest.mark.parametrize(("said", "head", "modifiers"), [
    ("planche decouper bambou", "planche", ("decouper", "bambou")),
    ("tasse cafe gres bleu", "tasse", ("cafe", "gres", "bleu")),
    ("pot confiture", "pot", ("confiture",)),
    ("coffret trois tea", "coffret", ("trois", "tea")),
    ("petite theiere celadon", "theiere", ("celadon",)),  # an adjective placed before
    ("grand saladier", "saladier", ()),
    ("2 mug", "mug", ()),
])
def test_the_head_is_the_first_noun(said: str, head: str, modifiers: tuple[str, ...]) -> None:
    assert french_phrase(said.split()) == NounPhrase(head, modifiers)


def test_no_word_no_head() -> None:
    assert french_phrase([]) is None
    assert french_phrase(["petite"]) is None


@pytest.mark.parametrize(("typed", "meant"), [
    ("theire", "theiere"), ("tirramisu", "tiramisu"), ("gyokuru", "gyokuro"),
    ("margarita", "margherita"), ("assiete", "assiette"), ("bolognese", "bolognaise"),
])
def test_close_typos_are_corrected(typed: str, meant: str) -> None:
    assert is_typo_of(typed, meant)


@pytest.mark.parametrize(("typed", "other"), [
    ("plateau", "plate"),  # a real word two edits from a shorter one
    ("sauciere", "soucoupe"),
    ("carafe", "cafe"),
    ("tasse", "passe"),  # the first letter agrees
])
def test_far_corrections_are_other_words(typed: str, other: str) -> None:
    assert not is_typo_of(typed, other)


def _item(name: str, description: str = "", categories: tuple[str, ...] = (),
          options: tuple[str, ...] = ()) -> dict[str, Any]:
    meta: dict[str, Any] = {"dev.commerce.product.categorization": {
        "items": [{"name": category} for category in categories]}}
    if options:
        meta["dev.commerce.product.addons"] = {"items": [{"id": f"addon_{n}", "name": option}
                                                         for n, option in enumerate(options)]}
    return {"itemId": "item_x", "name": name, "description": description, "metadata": meta}


CUPS = _item("Tasses à expresso et soucoupes (2)",
             "Deux tasses à expresso de 9 cl et leurs soucoupes, émail tenmoku brillant.",
             ("Home & Kitchen", "Drinkware", "Cups & Saucers"))
WHISK = _item("Fouet à matcha en bambou (chasen) de Takayama, 80 brins",
              "Fouet taillé à la main dans un seul morceau de bambou.", ("Teaware",))
PLATE = _item("Assiette plate en grès, 27 cm", "Assiette à aile, émail avoine mat.",
              ("Tableware", "Plates"))
DRIPPER = _item("Dripper céramique pour café filtre", "Cône pour une tasse.",
                ("Home & Kitchen", "Coffee & Tea", "Brewers"))
MUG = _item("Mug classique en grès", "Notre mug du quotidien.", ("Drinkware", "Mugs"),
            ("Gift Box",))


@pytest.mark.parametrize(("item", "query", "fit"), [
    (WHISK, "fouet matcha bambou", "head"),
    (WHISK, "planche decouper bambou", "modifiers"),  # only « en bambou » is the whisk's
    (PLATE, "plateau gres", "modifiers"),  # « plateau » is no misspelt "plate"
    (PLATE, "assiete plate", "head"),  # a close typo of its own name
    (CUPS, "sauciere", "none"),  # only a far correction into its English category
    (CUPS, "tasses expresso", "head"),
    (DRIPPER, "coffret tea", "modifiers"),  # « coffret » is no option of a dripper
    (MUG, "mug classique", "head"),
    (MUG, "mug bleu", "head"),
])
def test_an_item_fits_a_french_head(item: dict[str, Any], query: str, fit: str) -> None:
    assert naming.head_fit(item, query, "fr") == fit


@pytest.mark.parametrize("query", ["planche decouper bambou", "sauciere"])
def test_other_languages_are_not_read_so(query: str) -> None:
    assert naming.head_fit(WHISK, query, "en") == "head"
    assert naming.head_fit(CUPS, query, "ja") == "head"
