"""Questions answered from the store's and the item's own data, never done: payment, pickup
hours, delivery to a country, stock (agent/models/scripted/intents.py, answers.py, facts.py),
and the countries they name (agent/language/countries.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.countries import country_name, country_named
from commerce_agent.agent.models.scripted import facts
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.operations.stores import store_summary

SAMPLE = Path(__file__).parents[2] / "sample_data" / "stores"


def _store(name: str) -> dict[str, Any]:
    return dict(json.loads((SAMPLE / name).read_text(encoding="utf-8")))


def _item(store: dict[str, Any], item_id: str) -> dict[str, Any]:
    return next({"itemId": item_id, **item} for catalog in store["catalogs"]
                for item in catalog["items"] if item["id"] == item_id)


@pytest.mark.parametrize("said", [
    "what payment methods do you accept?", "can I pay with a credit card?",
    "do you take cash?", "do you accept paypal?", "quels moyens de paiement acceptez-vous ?",
    "est-ce que je peux payer par carte ?", "支払い方法は何がありますか？", "カードで払えますか？"])
def test_a_payment_question_is_answered_not_a_checkout(said: str) -> None:
    assert understand(said)[0] == "policy"


@pytest.mark.parametrize("said", [
    "what time can I pick up?", "what are your hours?", "are you open on sunday?",
    "à quelle heure puis-je passer récupérer ma commande ?", "受け取りは何時からですか？"])
def test_hours_questions_are_answered(said: str) -> None:
    assert understand(said)[0] == "policy"


@pytest.mark.parametrize(("said", "meant"), [
    ("do you have the speckled classic mug in stock?", "details"),
    ("is the kyusu still available?", "details"),
    ("est-ce que la théière est en stock ?", "details"),
    ("do you have mugs?", "search"),
])
def test_a_stock_question_asks_for_the_items_details(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


def test_the_store_tool_says_what_payment_the_store_accepts() -> None:
    summary = store_summary(_store("03-trattoria.json"))
    assert summary["paymentAccepted"] == ["Credit Card", "Debit Card", "Cash"]


@pytest.mark.parametrize(("question", "part"), [
    ("is the classic mug dishwasher safe?", "Dishwasher"),
    ("can I put it in the microwave?", "microwave"),
    ("how heavy is it?", "420 g"),
    ("how big is it?", "12.5 × 9 × 10 cm"),
])
def test_an_item_question_is_answered_from_its_data(question: str, part: str) -> None:
    mug = _item(_store("01-ceramics.json"), "item_classic_mug")
    assert part in " ".join(facts.answer(mug, question, "en"))


def test_an_item_question_its_data_does_not_answer_says_nothing_made_up() -> None:
    mug = _item(_store("01-ceramics.json"), "item_classic_mug")
    assert facts.answer(mug, "is it made in Italy by elves?", "en") == [
        "Its details don't say more about that."]


@pytest.mark.parametrize(("said", "code"), [
    ("do you ship to Canada?", "CA"), ("livrez-vous en Allemagne ?", "DE"),
    ("ドイツに発送できますか？", "DE"), ("can you deliver to the UK?", "GB"),
    ("shipping to the USA?", "US"), ("can I order it now?", None), ("in my cart", None)])
def test_countries_named(said: str, code: str | None) -> None:
    assert country_named(said) == code


@given(st.sampled_from(["US", "CA", "DE", "FR", "JP", "GB", "IE", "IT", "ES", "NL", "BE", "CH"]),
       st.sampled_from(["en", "fr", "ja"]))
def test_a_country_name_in_any_language_is_read_back(code: str, language: str) -> None:
    name = country_name(code, language)
    assert name == Locale.parse(language).territories[code]
    assert country_named(f"do you deliver to {name}?") == code
