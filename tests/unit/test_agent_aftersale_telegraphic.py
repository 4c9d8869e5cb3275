"""After-sale requests in telegraphic or non-native English: the intent comes from the
after-sale verb or noun whatever the grammar around it, and a question stays a question."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted.intents import understand


@pytest.mark.parametrize(("said", "meant"), [
    ("I want give back", "return"),
    ("i wish return the bowl", "return"),
    ("bring back the planter", "return"),
    ("mug is broken, want my money back pls", "return"),
    ("cancel pls the order", "cancel"),
    ("i no want this order anymore", "cancel"),
    ("no more want the subscription", "sub_cancel"),
    ("the membership, I not want it anymore", "sub_cancel"),
    ("folio plan no more need, stop it please", "sub_cancel"),
    ("stop send me tea", "sub_cancel"),
    ("no need membership more", "sub_cancel"),
    ("membership stop", "sub_cancel"),
    ("plan pause pls", "sub_pause"),
    ("delete my order", "cancel"),
    ("tip them three dollars", "tip"),
    ("leave a fiver", "tip"),
    ("add two euros for the driver", "tip"),
    ("ten percent tip", "tip"),
])
def test_the_act_whatever_the_grammar(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


@pytest.mark.parametrize("said", [
    "how I make refund", "how I cancel the subscription?", "is possible give back the mug?",
    "how I can return the kyusu", "how I stop membership?", "what is return policy"])
def test_a_question_about_an_act_is_answered_not_done(said: str) -> None:
    assert understand(said)[0] == "policy"


@pytest.mark.parametrize(("said", "meant"), [
    ("can you bring me back to the mugs", "return"),
])
def test_going_back_to_a_list_is_no_return(said: str, meant: str) -> None:
    assert understand(said)[0] != meant


def test_a_line_of_the_order_or_the_cart_is_no_order_called_off() -> None:
    assert understand("remove the mug from my order")[0] == "remove"
    assert understand("delete the order from my cart")[0] == "remove"


def test_no_need_for_an_extra_ends_no_plan() -> None:
    assert understand("add the tokoname kyusu, no need for gift wrap")[0] == "add"
