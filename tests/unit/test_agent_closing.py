"""The closing stage: a message that ends the shopping, one that concludes the order, and one
that puts the checkout off, in English, French and Japanese; and what the intent stage makes
of them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.closing import closing, concludes_it, pausing, without_closing
from commerce_agent.agent.models.scripted.intents import understand


@pytest.mark.parametrize("said", [
    "that's all", "that'll be all", "I'm done", "I'm all set", "that is everything",
    "nothing else, thanks", "that's it for me", "i'm finished, thanks",
    "ce sera tout", "j'ai fini", "rien d'autre, merci", "以上です", "これで全部です",
])
def test_done_choosing(said: str) -> None:
    assert closing(said) == "done"
    assert understand(said)[0] == "checkout"


@pytest.mark.parametrize("said", [
    "place the order", "submit my order", "confirm the order", "let's finalize it",
    "ring it up", "I'm ready to pay", "je confirme", "finaliser la commande", "on valide",
    "購入手続きをお願いします", "会計お願いします",
])
def test_concluding_the_order(said: str) -> None:
    assert closing(said) == "order"
    assert understand(said)[0] == "checkout"


@pytest.mark.parametrize("said", [
    "don't check out yet", "not ready to place the order yet", "hold off on ordering",
    "wait before you order", "I'll pay later", "ne passe pas encore la commande",
    "je commanderai plus tard", "まだ注文しないで", "後で注文します",
    # the checkout negated
    "no need to pay", "pas besoin de payer", "ne payez pas", "注文しないでください",
])
def test_putting_it_off(said: str) -> None:
    assert closing(said) == "later"
    assert understand(said)[0] == "no"


@pytest.mark.parametrize(("said", "kind"), [
    ("I'll have a tiramisu and that's all", "buy"), ("add two arancini, that'll be all", "buy"),
    ("je valide, je passe le chercher", "checkout"), ("add two mugs, I'll order later", "add"),
    ("はい、お願いします", "yes"), ("sounds good", "yes"), ("where is my order", "status"),
    # a checkout refused beside an add: the add, never the purchase, in any language
    ("pas besoin de payer maintenant, ajoutez deux assiettes", "add"),
    ("ne payez pas tout de suite, ajoutez deux assiettes", "add"),
    ("支払いはまだしないで、お皿を2枚カートに入れて", "add"),
    ("I don't have a code, check out", "checkout"),
])
def test_with_a_thing_named_or_no_closing(said: str, kind: str) -> None:
    assert understand(said)[0] == kind


@given(st.sampled_from(["a tiramisu", "two arancini", "the celadon teapot", "une lasagne"]),
       st.sampled_from([", that's all", " and that's everything", ", I'm done", ", ce sera tout",
                        ", nothing else"]))
def test_the_closing_words_leave_the_thing(thing: str, closed: str) -> None:
    assert closing(thing + closed) == "done"
    assert thing.split()[-1] in without_closing(thing + closed)


@pytest.mark.parametrize(("said", "pause"), [
    ("hold on", True), ("hang on a sec", True), ("wait a minute", True), ("one sec", True),
    ("un instant", True), ("attendez svp", True), ("ちょっと待って", True),
    ("少々お待ちください", True), ("wait, add two", False), ("hold on, add a mug", False),
    ("wait for it", False), ("one mug", False),
])
def test_a_pause_is_neither_yes_nor_no(said: str, pause: bool) -> None:
    assert pausing(said) is pause
    assert (understand(said)[0] == "hedge") is pause


@pytest.mark.parametrize("said", [
    "paie", "je paie", "on règle", "commande", "charge my card", "注文お願いします", "購入します",
])
def test_paying_said_any_way_concludes_the_order(said: str) -> None:
    assert closing(said) == "order"


@pytest.mark.parametrize(("said", "meant"), [
    ("ok buy it", True), ("order it", True), ("place it", True), ("get them now", True),
    ("buy the teapot", False), ("get it later", False),
])
def test_a_verb_of_getting_with_only_a_pronoun(said: str, meant: bool) -> None:
    assert concludes_it(said) is meant


@pytest.mark.parametrize("said", [
    "I'll take the Quiet Focus audiobook, checkout", "add the sourdough ebook and check out",
])
def test_an_addition_named_before_the_checkout_is_a_purchase(said: str) -> None:
    assert understand(said)[0] == "buy"
