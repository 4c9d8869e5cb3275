"""How a shopper answers an offer (agent/models/scripted/compound.py, picked.py, intents.py):
a yes or no with a question, a yes naming one of the things shown, an order undone in words."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted import compound, picked
from commerce_agent.agent.models.scripted.intents import understand

SHOWN = [{"itemId": "item_stoneware_dinner_plate", "name": "Stoneware Dinner Plate, 27 cm"},
         {"itemId": "item_hanging_planter", "name": "Hanging Planter with Jute Cord"}]


@pytest.mark.parametrize(("said", "request_", "question"), [
    ("yes please. is shipping free?", "yes please", "is shipping free?"),
    ("sure. can i return it if i dont like it?", "sure", "can i return it if i dont like it?"),
    ("ok yes please. how much is shipping?", "ok yes please", "how much is shipping?"),
    ("no thanks. how long is delivery?", "no thanks", "how long is delivery?"),
    ("oui vas-y. la livraison coûte combien ?", "oui vas-y", "la livraison coûte combien ?"),
])
def test_an_answer_with_a_question_is_both(said: str, request_: str, question: str) -> None:
    assert compound.split(said) == compound.Split(request_, question)


@pytest.mark.parametrize("said", ["yes, gift boxed", "sure why not", "can i return it?"])
def test_one_act_is_not_split(said: str) -> None:
    assert compound.split(said).question is None


@pytest.mark.parametrize(("said", "meant"), [
    ("yes to the planter, not the plate", "item_hanging_planter"),
    ("ok the planter then", "item_hanging_planter"),
    ("yes the plate", None),  # the one offered: nothing to change
    ("yes and the planter too", None),  # both: another stage's
    ("sure", None)])
def test_a_yes_naming_one_of_the_things_shown(said: str, meant: str | None) -> None:
    assert picked.shown_item_named(SHOWN, "item_stoneware_dinner_plate", said) == meant


@pytest.mark.parametrize("said", [
    "やっぱり注文なかったことにして", "さっきの注文はなかったことにしてください",
    "finalement laisse tomber cette commande", "oublie ma commande", "forget that order"])
def test_an_order_undone_in_words_is_a_cancel(said: str) -> None:
    assert understand(said)[0] == "cancel"


@pytest.mark.parametrize("said", [
    "注文をなかったことにはしないで", "dont undo my order, just tell me when it ships",
    "forget the mug", "oublie le mug", "supprime le mug du panier"])
def test_no_cancel_when_negated_or_about_a_line(said: str) -> None:
    assert understand(said)[0] != "cancel"


def test_asking_whether_it_can_be_undone_is_a_question() -> None:
    assert understand("can i forget the order?")[0] == "policy"


def test_a_count_of_the_thing_offered_is_no_other_thing() -> None:
    from commerce_agent.agent.models.scripted import yes_with_edit
    offered = frozenset({"lasagna", "bolognese"})
    assert yes_with_edit.another_thing("yes, two of them with garlic bread", offered) is None
    assert yes_with_edit.another_thing("yes and also 2 dinner plates", offered) == \
        "2 dinner plates"
