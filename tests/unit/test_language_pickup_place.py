"""Where an order is collected, asked in English, French and Japanese; and delivery dropped
for collecting, never a line of the cart."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.pickup_place import asks_where_to_collect, drops_delivery


@pytest.mark.parametrize("said", [
    "where do i go to get it?", "where do i collect it?", "where do i pick it up",
    "where is the pickup?", "where should i pick up my order", "what address do i collect from",
    "wheres the pickup point", "where can i grab my pizza?",
    "Where do I pick up the pizzas from?", "où est-ce que je le récupère ?",
    "je le retire où ?", "où dois-je aller le chercher ?", "quel est le lieu de retrait ?",
    "どこで受け取れますか？", "受け取り場所はどこですか",
])
def test_where_to_collect_is_asked(said: str) -> None:
    assert asks_where_to_collect(said)


@pytest.mark.parametrize("said", [
    "where is my order?", "where's my pizza", "can i pick it up?", "what time can i collect it?",
    "i'll collect it", "where do you ship", "do you ship to canada", "je passe le chercher",
    "店頭で受け取りできますか？", "where are you located", "get me 2 mugs",
    "where did my package go", "where can i get a teapot?", "where do you get your matcha from",
])
def test_other_questions_and_requests_ask_no_pickup_place(said: str) -> None:
    assert not asks_where_to_collect(said)


@given(st.sampled_from(["order", "parcel", "package", "pizza", "mug", "food"]),
       st.sampled_from(["where is my", "where's my", "where is the"]))
def test_where_a_thing_is_asks_its_status_not_its_pickup(thing: str, lead: str) -> None:
    assert not asks_where_to_collect(f"{lead} {thing}?")


@pytest.mark.parametrize(("said", "drops"), [
    ("actually scratch the delivery, i'll pick them up myself", True),
    ("forget shipping, I'll collect", True),
    ("no need to deliver, I'm nearby", True),
    ("annulez la livraison, je passe le chercher", True),
    ("配送はやめて、店頭で受け取ります", True),
    ("scratch the tiramisu", False),
    ("remove the mug", False),
    ("cancel my order", False),
])
def test_delivery_dropped_is_not_a_line_removed(said: str, drops: bool) -> None:
    assert drops_delivery(said) is drops
