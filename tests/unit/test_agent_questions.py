"""Questions are answered from the store's and the item's data, never done; sold-out items are
named sold out (agent/models/scripted/speech.py, intents.py, facts.py, state.py, phrasing.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import facts
from commerce_agent.agent.models.scripted.browse import _named_sold_out
from commerce_agent.agent.models.scripted.intents import Frame, understand
from commerce_agent.agent.models.scripted.phrasing import sold_out_text
from commerce_agent.agent.models.scripted.planner import Planner
from commerce_agent.agent.models.scripted.speech import conditional, read_act
from commerce_agent.agent.models.scripted.state import State
from commerce_agent.operations.stores import store_summary
from tests.support.sample_items import sample_item

SAMPLE = Path(__file__).parents[2] / "sample_data" / "stores"
# Intents that change something: a question must never be read as one of them.
_ACTING = {"add", "buy", "book", "subscribe", "checkout", "cancel", "return", "rate", "tip",
           "remove", "empty", "quantity", "promotion", "sub_pause", "sub_resume", "sub_cancel",
           "switch", "yes"}


def _store(name: str) -> dict[str, Any]:
    return dict(json.loads((SAMPLE / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize("said", [
    "can you add two mugs?", "could you put a teapot in my cart?",
    "would you mind adding the planter?", "pouvez-vous ajouter deux tasses ?",
    "pourriez-vous mettre une théière dans mon panier ?", "マグを2つ追加してもらえますか？",
    "急須をカートに入れていただけますか？"])
def test_a_polite_request_is_an_instruction(said: str) -> None:
    assert read_act(said).kind == "instruction"
    assert understand(said)[0] == "add"


@pytest.mark.parametrize("said", [
    "can I cancel?", "is it possible to pause?", "how do returns work?",
    "what if I want to return it?", "do you ship to Canada?", "キャンセルできますか？",
    "est-ce que je peux annuler ?", "what happens if I cancel?", "can I leave a tip?",
    "is there a restocking fee?", "if I cancel my order will I get a full refund?",
    "if I pause my membership do I still get charged?", "キャンセルしたらどうなりますか？",
    "et si je veux le retourner ?", "can I pick it up instead?",
    "est-ce que je peux retirer ma commande en magasin ?"])
def test_a_question_is_never_read_as_doing_it(said: str) -> None:
    assert read_act(said).kind == "question"
    assert understand(said)[0] not in _ACTING


@pytest.mark.parametrize(("said", "meant"), [
    ("where is Hearth & Kiln located?", "policy"), ("how can I get in touch?", "policy"),
    ("what's your phone number?", "policy"), ("what currency are your prices in?", "policy"),
    ("do you accept euros?", "policy"), ("when does the shop open?", "policy"),
    ("are you open on Monday?", "policy"), ("what are the delivery options?", "policy"),
    ("is shipping free?", "policy"), ("do you do collection?", "policy"),
    ("livrez-vous au Japon ?", "policy"), ("acceptez-vous PayPal ?", "policy"),
    ("dans quelle devise sont les prix ?", "policy"), ("où se trouve la boutique ?", "policy"),
    ("カナダに発送できますか？", "policy"), ("店頭で受け取れますか？", "policy"),
    ("通貨は何ですか？", "policy"), ("お店はどこにありますか？", "policy"),
    ("is the lasagna gluten free?", "details"), ("what's the capacity of the kyusu?", "details"),
    ("how many teapots are left?", "details"), ("マグカップの素材は何ですか？", "details"),
    ("急須はあと何個ありますか？", "details"),
    ("if I order it now, when would it arrive?", "policy"),
    ("si je commande aujourd'hui, quand est-ce que je la reçois ?", "policy"),
    ("if I cancel, when does my order arrive?", "status"),
    ("where's the shop?", "policy"), ("where is Trattoria Fiamma?", "policy"),
    ("what's the address of Lumen Studio?", "policy"), ("日曜日は営業していますか？", "policy"),
    ("支払いにPayPayは使えますか？", "policy"), ("how long is the vinyasa class?", "details"),
    ("what does the gift card include?", "details"), ("do you sell gift cards?", "search"),
    ("where's my teapot?", "status"),
    ("je voudrais savoir si vous livrez au Canada", "policy"),
    ("do you know if the teapot is in stock?", "details"),
    ("can you tell me if the mug is dishwasher safe?", "details"),
    ("can you check if my order shipped?", "status"), ("カナダに送れますか？", "policy"),
    ("could you deliver to Ireland?", "policy"), ("can you send it to Japan?", "policy"),
])
def test_store_and_item_questions_are_answered(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


@pytest.mark.parametrize("said", [
    "check out with my credit card", "I'll pick it up at 6", "add the mug",
    "achète le mug émail édition limitée", "montrez-moi le mug émail",
    "deliver it to 5 Elm St, Springfield, IL 62701, US"])
def test_instructions_that_name_a_store_topic_stay_instructions(said: str) -> None:
    assert understand(said)[0] != "policy"


@pytest.mark.parametrize(("said", "condition", "main"), [
    ("if I order it now, when would it arrive?", "i order it now", "when would it arrive?"),
    ("when would it ship if I ordered today?", "i ordered today", "when would it ship?"),
    ("what if I cancel?", "i cancel", "what"),
    ("キャンセルしたらどうなりますか？", "キャンセルし", "どうなりますか？"),
])
def test_a_condition_is_split_from_what_is_asked(said: str, condition: str, main: str) -> None:
    assert conditional(said) == (condition, main)


_CLAUSE = st.text(alphabet=st.sampled_from("abcdefghij "), min_size=1, max_size=30)


@given(_CLAUSE, _CLAUSE)
def test_anything_supposed_is_never_done(supposed: str, asked: str) -> None:
    """Whatever an if-clause supposes ("if I cancel…", "if I buy…"), the question is answered,
    never executed."""
    for verb in ("cancel it", "buy two mugs", "return it", "pause my plan", "check out"):
        said = f"if I {verb} {supposed}, {asked}?"
        assert understand(said)[0] not in _ACTING, said


def test_an_item_question_its_data_does_not_answer_says_so() -> None:
    lasagna = sample_item("item_lasagna_bolognese")
    assert facts.answer(lasagna, "is the lasagna gluten free?", "en") == [
        "Its details don't say more about that."]
    assert "Dishwasher" in " ".join(facts.answer(sample_item("item_classic_mug"),
                                                       "is it dishwasher safe?", "en"))


def test_what_a_kit_includes_is_its_parts() -> None:
    kit = sample_item("item_pottery_starter_kit")
    said = " ".join(facts.answer(kit, "what's included in the starter kit?", "en"))
    assert "tool set" in said and "video course" in said


def test_stock_is_said_as_the_api_holds_it_whether_not_how_many() -> None:
    chasen = {**sample_item("item_tokoname_kyusu"), "available": True}
    said = facts.answer(chasen, "how many are left?", "en")
    assert said == ["It's in stock.", "The store doesn't say how many are left."]


def test_a_plans_terms_come_from_its_data() -> None:
    assert facts.plan_terms(sample_item("item_unlimited_studio_monthly"), "en") == [
        "It has a minimum commitment of 3 billing cycles; it can be cancelled after that."]
    assert facts.plan_terms(sample_item("item_classic_mug"), "en") == []


def _summary(item_id: str, name: str, available: bool) -> dict[str, Any]:
    return {"itemId": item_id, "name": name, "available": available,
            "price": {"amount": "9.00", "currency": "USD"}}


def test_a_sold_out_item_that_fits_best_is_named_never_swapped() -> None:
    state = State()
    gone = _summary("item_t", "Tessellate Terminal Launch Licence", False)
    other = _summary("item_p", "PixelForge Licence Key", True)
    state.absorb("search_products", {"query": "tessellate terminal licence"},
                 {"results": [gone, other]}, False)
    assert state.sold_out == [gone] and state.focus == "item_t"
    assert state.results == [other]  # offered instead, never put in its place
    text = sold_out_text("en", gone, state.results)
    assert "Tessellate Terminal Launch Licence is sold out" in text and "PixelForge" in text


def test_sold_out_items_that_fit_less_than_one_in_stock_are_left_out() -> None:
    state = State()
    mug = _summary("item_m", "Classic Mug", True)
    gone = _summary("item_g", "Mug Stand", False)
    state.absorb("search_products", {"query": "classic mug"}, {"results": [gone, mug]}, False)
    assert state.sold_out == [] and state.results == [mug] and state.focus == "item_m"


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_sold_out_is_said_in_the_shoppers_language(language: str) -> None:
    text = sold_out_text(language, _summary("item_c", "Cannoli", False), [])
    assert {"en": "sold out", "fr": "épuisé", "ja": "売り切れ"}[language] in text


def test_the_store_tool_says_how_to_reach_the_store() -> None:
    summary = store_summary(_store("01-ceramics.json"))
    assert summary["telephone"] == "+1-503-555-0142"
    assert summary["email"] == "hello@hearth-and-kiln.example.com"


def test_a_question_names_the_thing_first_when_the_last_word_finds_nothing() -> None:
    planner = Planner(State(), {})
    assert planner._head_word("lasagna gluten free") == "free"
    assert planner._head_word("lasagna gluten free", first=True) == "lasagna"


def test_a_variant_asked_about_that_is_sold_out_is_named() -> None:
    mug = sample_item("item_classic_mug")
    state = State(frame=Frame("details", ("is the white classic mug in stock?",)))
    planner = Planner(state, {})
    assert [c.words for c in _named_sold_out(planner, mug)] == ["Satin White, 12 oz"]
    state = State(frame=Frame("details", ("is the blue classic mug in stock?",)))
    assert _named_sold_out(Planner(state, {}), mug) == []


def test_how_many_are_left_of_each_variant_comes_from_its_live_stock() -> None:
    said = facts.answer(sample_item("item_classic_mug"), "how many are left?", "en")
    assert said == ["Left in stock: Cobalt Blue, 12 oz: 40; Cobalt Blue, 16 oz: 25; "
                    "Speckled Oat, 16 oz: 2."]
