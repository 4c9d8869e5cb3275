"""The aftermath stage: a short reply read against what the agent's last reply reported."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.agent.language import quantities
from commerce_agent.agent.models.scripted import aftermath
from commerce_agent.agent.models.scripted.acquire import also_sold_out
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.messages import say
from commerce_agent.agent.models.scripted.planner import Planner
from commerce_agent.agent.models.scripted.state import Call, State

BOWL = "Large Serving Bowl"


def _sold_out(request: str, lang: str = "en", name: str = BOWL) -> aftermath.Outcome:
    found = aftermath.outcome(
        say(lang, "item_sold_out", name=name), Frame("add", (request,)), ordered=False
    )
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("lang", "name"), [("en", BOWL), ("fr", "Grand saladier de service"), ("ja", "楽焼 抹茶碗")]
)
def test_a_sold_out_reply_in_any_language_is_an_outcome_with_its_item(lang: str, name: str) -> None:
    found = _sold_out("add two large serving bowls", lang, name)
    assert (found.kind, found.item, found.count) == ("sold_out", name, 2)


def test_the_count_of_a_sold_out_item_comes_from_its_own_phrase_in_a_list() -> None:
    reply = say("en", "sold_out", name="Sicilian Cannoli (2)")
    found = aftermath.outcome(reply, Frame("add", ("three lasagnas and two cannoli",)), False)
    assert found is not None and found.count == 2


def test_an_order_placed_is_the_outcome_whatever_the_reply_says() -> None:
    found = aftermath.outcome("Done: order ord_1 is placed.", Frame("checkout", ("pay",)), True)
    assert found is not None and found.kind == "ordered"


def test_a_reply_that_reports_nothing_is_no_outcome() -> None:
    assert aftermath.outcome("Added 1 × Mug to your cart.", Frame("add", ("a mug",)), False) is None
    # a sold-out item named by a search is no refused request
    assert (
        aftermath.outcome(say("en", "item_sold_out", name=BOWL), Frame("search", ("bowls",)), False)
        is None
    )


@pytest.mark.parametrize(
    "text",
    [
        "the dinner plates then",
        "fine, tiramisu instead",
        "ok, the pixelforge licence then",
        "alors le tiramisu",
        "じゃあ茶筅で",
        "no bowl? fine, a planter instead",
    ],
)
def test_naming_another_thing_after_a_sold_out_refusal_is_the_request_again(text: str) -> None:
    kind = "other"
    frame = aftermath.substitute(
        _sold_out("add two large serving bowls"), kind, text, "instruction"
    )
    assert frame is not None and frame.intent == "add"
    assert frame.quantity() == 2  # the count the refused request asked for
    assert "bowl" not in frame.first


def test_the_substitute_keeps_its_own_count_and_a_buy_stays_a_buy() -> None:
    refused = aftermath.outcome(
        say("en", "item_sold_out", name=BOWL), Frame("buy", ("buy two large serving bowls",)), False
    )
    frame = aftermath.substitute(refused, "other", "three planters then", "instruction")
    assert frame is not None and (frame.intent, frame.quantity()) == ("buy", 3)


@pytest.mark.parametrize(
    ("kind", "text", "act"),
    [
        ("other", "what about the planter?", "question"),  # a question is answered
        ("search", "find me something similar", "instruction"),  # the offer's own search
        ("no", "no thanks", "decline"),
        ("other", "no large serving bowl then", "instruction"),  # names only the sold-out item
        ("yes", "ok", "confirmation"),  # names nothing
    ],
)
def test_what_names_no_substitute_is_left_alone(kind: str, text: str, act: str) -> None:
    assert aftermath.substitute(_sold_out("add a large serving bowl"), kind, text, act) is None


def test_no_substitute_without_a_sold_out_outcome() -> None:
    ordered = aftermath.Outcome("ordered", Frame("checkout", ("pay",)))
    assert aftermath.substitute(None, "other", "the planter then", "instruction") is None
    assert aftermath.substitute(ordered, "other", "the planter then", "instruction") is None


@pytest.mark.parametrize(
    "text",
    [
        "ok",
        "great, thanks!",
        "oui c'est bon",
        "d'accord",
        "👍",
        "了解です",
        "cool",
        "parfait, merci",
    ],
)
def test_bare_confirmations_acknowledge(text: str) -> None:
    assert aftermath.acknowledges(text)


@pytest.mark.parametrize("text", ["ok, the planter then", "yes, two please", "is it shipped?"])
def test_confirmations_that_ask_for_something_do_not_only_acknowledge(text: str) -> None:
    assert not aftermath.acknowledges(text)


@pytest.mark.parametrize(
    "text",
    [
        "add a second one",
        "a 2nd copy please",
        "another one please",
        "one more of those",
        "encore une autre s'il te plaît",
        "et un deuxième",
        "もう1冊追加して",
        "同じのをもう一つ",
    ],
)
def test_one_more_of_a_thing_is_read_as_one_more(text: str) -> None:
    assert quantities.change(text) == 1
    assert aftermath.repeats("add", text)


@pytest.mark.parametrize("text", ["wait a second", "the second one", "une autre couleur"])
def test_ordinals_and_options_are_no_repeat(text: str) -> None:
    assert not aftermath.repeats("add", text)


def _state_with_a_line(name: str = "Hanging Planter with Jute Cord") -> State:
    state = State()
    line: dict[str, Any] = {
        "cartItemId": "line_1",
        "itemId": "item_hanging_planter",
        "name": name,
        "quantity": 1,
    }
    state.carts = {
        "store_ceramics": {"cartId": "cart_1", "storeId": "store_ceramics", "items": [line]}
    }
    state.cart_stores, state.last_line, state.heard = ["store_ceramics"], "line_1", 1
    return state


@pytest.mark.parametrize(
    "text", ["add a second one", "add a second planter", "encore une autre s'il te plaît"]
)
def test_one_more_of_an_item_in_the_cart_changes_its_line(text: str) -> None:
    state = _state_with_a_line()
    state.hear(text)
    assert state.frame is not None and state.frame.intent == "quantity"


def test_another_of_an_item_not_in_the_cart_is_a_new_line() -> None:
    state = _state_with_a_line()
    state.hear("add another mug")
    assert state.frame is not None and state.frame.intent != "quantity"


def test_a_bare_confirmation_after_an_order_only_acknowledges() -> None:
    state = _state_with_a_line()
    state.ordered = True
    state.frame = Frame("checkout", ("check out",))
    state.replied("Done: order ord_1 is placed and paid.")
    assert state.outcome is not None and state.outcome.kind == "ordered"
    state.hear("oui c'est bon")
    assert state.frame is not None and state.frame.intent == aftermath.ACKNOWLEDGE


def test_a_bare_confirmation_still_takes_up_an_offer_on_the_table() -> None:
    state = _state_with_a_line()
    state.frame = Frame("search", ("planter",))
    state.replied("The best match is the planter. " + say("en", "suggest_add"))
    state.hear("ok cool")
    assert state.frame is not None and state.frame.intent == "add"


def test_a_substitute_after_a_sold_out_reply_becomes_the_request() -> None:
    state = State()
    state.heard = 1
    state.frame = Frame("add", ("two cannoli please",))
    state.replied(say("en", "sold_out", name="Sicilian Cannoli (2)"))
    state.hear("fine, tiramisu instead")
    assert state.frame is not None
    assert (state.frame.intent, state.frame.quantity(), state.offer) == ("add", 2, None)


def _too_few(request: str, lang: str = "en") -> aftermath.Outcome:
    reply = say(lang, "explain.only_left", left=3, name="Ceramic Pour-Over Dripper")
    found = aftermath.outcome(reply, Frame("add", (request,)), ordered=False)
    assert found is not None and found.kind == "short"
    return found


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("ok, 3 then", "en"),
        ("just 3 please", "en"),
        ("bon, alors 3", "fr"),
        ("じゃあ3つで", "ja"),
        ("the 3 you've got", "en"),
    ],
)
def test_a_count_after_too_few_left_is_the_request_with_that_count(text: str, lang: str) -> None:
    frame = aftermath.recount(
        _too_few("add 5 pour-over drippers", lang), "other", text, "instruction"
    )
    assert frame is not None and frame.intent == "add"
    assert frame.quantity("Ceramic Pour-Over Dripper") == 3


@pytest.mark.parametrize(
    ("text", "act"),
    [("ok", "confirmation"), ("are 3 enough?", "question"), ("3 planters then", "instruction")],
)
def test_what_gives_no_count_alone_is_no_recount(text: str, act: str) -> None:
    assert aftermath.recount(_too_few("add 5 pour-over drippers"), "other", text, act) is None


def test_another_thing_after_too_few_left_is_a_substitute_with_its_count() -> None:
    frame = aftermath.substitute(
        _too_few("add 5 pour-over drippers"), "other", "the planters then", "instruction"
    )
    assert frame is not None and frame.quantity() == 5


def test_a_sold_out_item_a_one_phrase_request_also_named_is_found() -> None:
    lasagna = {"itemId": "item_lasagna", "name": "Lasagna Bolognese", "available": True}
    cannoli = {"itemId": "item_cannoli", "name": "Sicilian Cannoli (2)", "available": False}
    tiramisu = {"itemId": "item_tiramisu", "name": "Tiramisù", "available": False}
    state = State(frame=Frame("add", ("a lasagna and cannoli please",)))
    found = {"results": [lasagna, cannoli, tiramisu]}
    state.calls = [Call("search_products", {"query": "lasagna cannoli"}, found, False)]
    assert also_sold_out(Planner(state, {}), lasagna) == [cannoli]


@pytest.mark.parametrize("text", ["oh ok, just the one then", "only the one please"])
def test_just_the_one_is_a_count_of_one(text: str) -> None:
    assert quantities.how_many(text) == 1
