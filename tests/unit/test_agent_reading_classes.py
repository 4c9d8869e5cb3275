"""Speech act and intent by class, not phrasing (round 4): subscriptions asked about are
answered (skipping too), resumed however said; negated options are declined, not chosen; an
imperative "do it …" is no question; a count is not eaten by a word that starts like a unit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import choices
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act

STORES = Path(__file__).parents[2] / "sample_data" / "stores"


def _mug() -> dict[str, Any]:
    doc = json.loads((STORES / "01-ceramics.json").read_text(encoding="utf-8"))
    item = next(item for catalog in doc["catalogs"] for item in catalog["items"]
                if item["id"] == "item_classic_mug")
    return {"itemId": item["id"], **item}


@pytest.mark.parametrize(("said", "meant"), [
    ("skip next month please", "policy"), ("is it possible to skip a month?", "policy"),
    ("est-ce que je peux sauter un mois ?", "policy"), ("来月はスキップしたい", "policy"),
    ("turn my subscription back on", "sub_resume"), ("start my membership again", "sub_resume"),
    ("réactivez-le", "sub_resume"), ("abonnez-moi à Folio Unlimited", "subscribe"),
    ("suspendez mon abonnement", "sub_pause"), ("vous avez un cache-pot suspendu ?", "search"),
    ("add a blue mug, skip the gift box", "add"),
    ("je ne veux pas de remboursement, je veux savoir où est ma commande", "status"),
    ("I don't want a refund, I just want to know where my order is", "status"),
])
def test_subscription_and_negation_classes(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


@pytest.mark.parametrize(("said", "kind"), [
    ("do it in a different colour", "instruction"), ("do you have mugs", "question"),
    ("do these come in blue", "question"), ("can we go bigger?", "instruction")])
def test_do_opens_a_question_only_with_its_subject(said: str, kind: str) -> None:
    assert read_act(said).kind == kind


@pytest.mark.parametrize(("said", "kept"), [
    ("blue, but not the 12 oz", {"var_mug_blue_16oz"}),
    ("the speckled one, not the blue one", {"var_mug_speckled_16oz"}),
    ("not the 16 oz", {"var_mug_blue_12oz"}),
    ("blue", {"var_mug_blue_12oz", "var_mug_blue_16oz"})])
def test_a_declined_value_is_not_chosen(said: str, kept: set[str]) -> None:
    text = understand(said)[1]
    found = choices.pick_variant(_mug(), choices.said_words((text,)),
                                 frozenset(choices.declined_words((text,))))
    assert {choice.id for choice in found if choice.available} == kept


@given(st.sampled_from(["gift box", "coaster", "gift wrap", "burrata", "saucer"]),
       st.sampled_from(["no {}", "without the {}", "skip the {}", "hold the {}", "sans {}"]))
def test_a_declined_add_on_leaves_the_words_said(thing: str, pattern: str) -> None:
    said = choices.said_words((f"add a blue mug, {pattern.format(thing)}",))
    assert not set(thing.split()) & said
