"""Finding a thing described rather than named, and a question said with a request
(finding12): counts never search, a street's name holds no function word, a wish after a
question gets the thing asked about, a need said with "what do you have?" or a gift for
someone is shown, a refused size is not wanted, "…, the stems one" names the thing again, and
a window is a time only when it is not a place."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.reading import read_message
from commerce_agent.agent.models.scripted import naming, option_change, words
from commerce_agent.agent.models.scripted.intents import Frame, understand
from commerce_agent.agent.models.scripted.planner import Planner
from commerce_agent.agent.models.scripted.state import State

_THINGS = ["a tea with toasted rice", "a dinner plate", "a pour-over dripper", "your spicy pizza",
           "the celadon teapot"]
_QUESTIONS = ["is there {}?", "do you have {}?", "do u hav {}?", "whats {}?"]
_WISHES = ["I want 2", "need 4 of them", "I'd take 3 packs", "ok I'll have one", "add two"]


def _query(text: str) -> str:
    intent, said = understand(text)
    state = State()
    state.frame = Frame(intent, (said,))
    state.language = "en"
    return Planner(state, {}).query()


@given(st.sampled_from(_THINGS), st.sampled_from(_QUESTIONS), st.sampled_from(_WISHES))
def test_a_wish_after_a_question_gets_the_thing_asked_about(thing: str, question: str,
                                                             wish: str) -> None:
    intent, said = understand(f"{question.format(thing)} {wish}")
    assert intent == "add"
    assert thing.split()[-1] in said


@pytest.mark.parametrize("text", [
    "is the cacio e pepe gluten free? my wife is celiac",
    "does the classic mug go in the dishwasher? if yes add a blue 16 oz one",
    "is the tiramisu made fresh? add one if so",
])
def test_a_question_with_no_wish_or_a_condition_is_not_made_a_request(text: str) -> None:
    assert understand(text)[0] != "add" or "if" in text


@pytest.mark.parametrize(("text", "kept", "gone"), [
    ("is there a tea with toasted rice in it? I'd take 3 packs", "rice", "3"),
    ("2 fried rice balls with mozzarella inside please", "mozzarella", "2"),
    ("a 10 class pass please", "class", "10"),
    ("2 of the 2027 shincha", "2027", None),
])
def test_counts_never_search(text: str, kept: str, gone: str | None) -> None:
    query = _query(text).split()
    assert kept in query
    if gone is not None:
        assert gone not in query


@pytest.mark.parametrize("text", [
    "can i get 4 fizzy water from the italian place",
    "i want 4 red ones for the place",
    "2 pizzas from the pizza place",
])
def test_a_count_before_a_place_phrase_is_no_house_number(text: str) -> None:
    assert [tag.kind for tag in read_message(text).numbers] == ["count"]


@pytest.mark.parametrize("text", ["ship to 12 Oak St, Portland, OR 97202",
                                  "1 Saint Marks Place, New York, NY 10003"])
def test_a_street_still_holds_its_number(text: str) -> None:
    assert read_message(text).numbers[0].kind == "address"


@pytest.mark.parametrize("text", [
    "I need a teapot for sencha. what do you have?",
    "I want a notebook, what are my options?",
    "i need a gift for my dad, he reads a lot",
    "I'd like a present for my sister",
])
def test_a_need_asking_what_there_is_is_shown_not_added(text: str) -> None:
    assert understand(text)[0] == "search"


@pytest.mark.parametrize(("text", "step"), [
    ("the big bag not the small tin", 1),
    ("the small one, not the large", -1),
    ("pas la grande, la petite", -1),
    ("the large one", 1),
])
def test_a_refused_size_is_not_the_size_wanted(text: str, step: int) -> None:
    assert option_change.direction(text) == step


@pytest.mark.parametrize(("text", "count"), [
    ("the green tea that is roasted, the stems one. 2 bags pls", 1),
    ("hojicha, 2 bags pls", 1),
    ("a mug, the blue one", 1),
    ("2 tiramisu, the lasagna and a water", 3),
])
def test_a_thing_said_again_is_one_item(text: str, count: int) -> None:
    assert len(words.item_phrases(text)) == count


@pytest.mark.parametrize(("text", "intent"), [
    ("something to hang my pothos from near the window?", "details"),
    ("what's the return window?", "policy"),
    ("how long is the window to send it back", "policy"),
])
def test_a_window_is_a_time_only_when_it_is_not_a_place(text: str, intent: str) -> None:
    assert understand(text)[0] == intent


def test_a_hyphened_compound_is_said_closed_up() -> None:
    dripper = {"name": "Ceramic Pour-Over Dripper", "description": "Single-cup cone."}
    assert naming.describes(dripper, "pourover")
    assert naming.describes({"name": "Hanging Planter", "description": ""}, "hang")
