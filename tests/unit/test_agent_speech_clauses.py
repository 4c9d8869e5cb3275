"""The speech act read clause by clause (scripted/speech.py): a question dropped for an
instruction is the instruction, an instruction dropped for a question is only asked, a thing
named and then an add or an order said after it is that request, wish frames and verbless
"…please" ask, and an order said after additions is one purchase."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act, settle

_THINGS = [
    "the espresso set",
    "the dinner plate",
    "the sourdough ebook",
    "the cork yoga mat",
    "the bamboo chasen",
]
_QUESTIONS = ["how big is {}?", "what comes in {}?", "is {} any good?", "does {} have a handle?"]
_DROPS = [
    "never mind",
    "actually never mind",
    "oh forget it",
    "scrap that",
    "whatever",
    "on second thought",
]
_ADDS = [
    "just add it",
    "add one",
    "put two in my cart",
    "I'll just take it",
    "pop one in my basket",
]


@given(
    thing=st.sampled_from(_THINGS),
    question=st.sampled_from(_QUESTIONS),
    drop=st.sampled_from(_DROPS),
    add=st.sampled_from(_ADDS),
)
def test_a_question_dropped_for_an_instruction_is_the_instruction(
    thing: str, question: str, drop: str, add: str
) -> None:
    said = f"{question.format(thing)} {drop}, {add}"
    assert read_act(said).kind == "instruction", said
    assert understand(said)[0] == "add", said
    assert thing.split()[-1] in settle(said), said  # the thing the question named stays


@pytest.mark.parametrize(
    "said",
    [
        "il est fait en quoi le chasen ? bon, finalement ajoutez-le au panier",
        "c'est combien la théière ? tant pis, mettez-la dans mon panier",
        "玄米茶は何グラム入りですか？やっぱり、2つカートに入れてください",
    ],
)
def test_french_and_japanese_drops_settle_on_the_instruction(said: str) -> None:
    assert understand(said)[0] == "add"


@pytest.mark.parametrize(
    "said",
    [
        "add the hanging planter. actually wait, how long is its cord?",
        "put the teapot in my cart. hold on, is it dishwasher safe?",
    ],
)
def test_an_instruction_dropped_for_a_question_is_only_asked(said: str) -> None:
    assert read_act(said).kind == "question"
    assert understand(said)[0] not in ("add", "buy", "checkout")


@pytest.mark.parametrize(
    "said",
    [
        "can you tell me how big the dinner plate is?",
        "what comes in the espresso set?",
        "could I get it by Friday?",
        "can I get a refund?",
    ],
)
def test_a_question_without_a_drop_is_never_executed(said: str) -> None:
    assert understand(said)[0] not in ("add", "buy", "book", "subscribe", "checkout")


@pytest.mark.parametrize(
    "said",
    [
        "the espresso cup and saucer set, could you pop one in my basket?",
        "so my mum loves plants, stick one of the hanging planters in my cart please",
        "l'encre kaki, mettez-la dans mon panier",
        "the espresso set, just add it, I'll find out when it arrives",
    ],
)
def test_a_thing_named_then_an_add_said_after_it_adds(said: str) -> None:
    assert read_act(said).request == "add"
    assert understand(said)[0] == "add"


@pytest.mark.parametrize(
    "said",
    [
        "a family feast for four, pickup, place the order",
        "lasagna with the garlic focaccia on the side, I'll collect it, order it now",
        "une lasagne bolognaise à emporter, et on valide",
        "ラザニアを1つ、持ち帰りで注文します",
        "add a lasagna bolognese and check out, I'll pick it up",
        "put the sourdough year in my cart and then check out",
    ],
)
def test_things_then_an_order_are_one_purchase(said: str) -> None:
    assert understand(said)[0] == "buy"


def test_the_order_clause_is_not_read_as_a_thing() -> None:
    act = read_act("une lasagne bolognaise et un tiramisu à emporter, et on valide direct")
    assert "valide" not in act.text and "tiramisu" in act.text


@pytest.mark.parametrize(
    "said", ["great, check out", "thanks, check out", "I have a coupon somewhere, check out"]
)
def test_a_bare_checkout_stays_a_checkout(said: str) -> None:
    assert read_act(said).request != "buy"


@given(
    frame=st.sampled_from(
        [
            "I was hoping to get",
            "I'd love to get",
            "I'm keen to get",
            "could you sort me out with",
            "I'm after",
            "I want to grab",
        ]
    ),
    thing=st.sampled_from(
        ["the Python design patterns ebook", "a pour-over dripper", "the studio gift card"]
    ),
)
def test_a_wish_frame_asks_to_add(frame: str, thing: str) -> None:
    assert understand(f"{frame} {thing}")[0] == "add"


@pytest.mark.parametrize(
    "said",
    [
        "I'd love to sign up for the Folio Unlimited monthly plan",
        "I was hoping to sign up for the Folio Unlimited thing",
    ],
)
def test_a_wish_to_sign_up_subscribes(said: str) -> None:
    assert understand(said)[0] == "subscribe"


@pytest.mark.parametrize(
    "said",
    [
        "I want to get my order status",
        "I'd like to get a refund",
        "could you get me the tracking for my order?",
    ],
)
def test_a_wish_for_an_order_s_news_is_no_addition(said: str) -> None:
    assert understand(said)[0] not in ("add", "buy")


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("the cork yoga mat please", "add"),
        ("vinyasa flow drop-in on 11 January at 6:30pm please", "book"),
        ("my order status please", "status"),
    ],
)
def test_a_verbless_request_with_please(said: str, kind: str) -> None:
    assert understand(said)[0] == kind
