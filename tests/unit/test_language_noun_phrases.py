"""The French head-noun stage (language/noun_phrases.py) and its use by the item matcher
(naming.head_fit): the first noun names the thing, what follows it describes it, and a typo
is corrected only into a close word of the item's own name in the shopper's language."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.agent.language.fuzzy import is_typo_of
from commerce_agent.agent.language.noun_phrases import NounPhrase, french_phrase
from commerce_agent.agent.models.scripted import naming


@pytest.mark.parametrize(("said", "text", "phrase"), [
    ("planche decouper bambou", "une planche a decouper en bambou",
     NounPhrase("planche", (), ("decouper", "bambou"))),
    ("tasse cafe gres bleu", "une tasse a cafe en gres bleu",
     NounPhrase("tasse", (), ("cafe", "gres", "bleu"))),
    ("pot confiture", "un pot de confiture", NounPhrase("pot", (), ("confiture",))),
    ("coffret trois tea", "", NounPhrase("coffret", (), ("trois", "tea"))),  # not placed
    ("petite theiere celadon", "une petite theiere celadon",  # an adjective placed before
     NounPhrase("theiere", ("celadon",), ())),
    ("assiette plate gres", "l assiette plate en gres",
     NounPhrase("assiette", ("plate",), ("gres",))),
    ("classic stoneware mug bleu", "le classic stoneware mug en bleu",
     NounPhrase("classic", ("stoneware", "mug"), ("bleu",))),
    ("grand saladier", "", NounPhrase("saladier", (), ())),
    ("2 mug", "", NounPhrase("mug", (), ())),
])
def test_the_head_is_the_first_noun(said: str, text: str, phrase: NounPhrase) -> None:
    assert french_phrase(said.split(), text) == phrase


def test_no_word_no_head() -> None:
    assert french_phrase([]) is None
    assert french_phrase(["petite"]) is None


@pytest.mark.parametrize(("said", "text"), [
    ("abonner folio unlimited", "je veux m abonner a folio unlimited"),  # a verb, a name
    ("suspendre abonnement", "suspendre abonnement"),
    ("ebook annee levain", "le livre numerique une annee au levain"),  # put in English
])
def test_a_word_without_its_determiner_is_no_head(said: str, text: str) -> None:
    assert french_phrase(said.split(), text) is None


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


@pytest.mark.parametrize(("item", "query", "text", "fit"), [
    (WHISK, "fouet matcha bambou", "un fouet à matcha en bambou", "head"),
    # only « en bambou » is the whisk's
    (WHISK, "planche decouper bambou", "une planche à découper en bambou", "modifiers"),
    (PLATE, "plateau gres", "un plateau en grès", "modifiers"),  # no misspelt "plate"
    (PLATE, "assiete plate", "une assiete plate", "head"),  # a close typo of its own name
    (CUPS, "sauciere", "une saucière", "none"),  # a far correction into its category
    (CUPS, "tasses expresso", "les tasses à expresso", "head"),
    (DRIPPER, "coffret tea", "un coffret de trois thés", "modifiers"),  # no option of it
    (MUG, "mug classique", "le mug classique", "head"),
    (MUG, "classic stoneware mug bleu", "le Classic Stoneware Mug en bleu", "head"),
    (MUG, "mug bleu", "un mug bleu", "head"),
])
def test_an_item_fits_a_french_head(item: dict[str, Any], query: str, text: str,
                                    fit: str) -> None:
    assert naming.head_fit(item, query, text, "fr") == fit


@pytest.mark.parametrize(("query", "text"), [
    ("planche decouper bambou", "a bamboo cutting board"), ("sauciere", "a sauciere")])
def test_other_languages_are_not_read_so(query: str, text: str) -> None:
    assert naming.head_fit(WHISK, query, text, "en") == "head"
    assert naming.head_fit(CUPS, query, text, "ja") == "head"
