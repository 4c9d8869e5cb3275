"""The checkout-acts stage: clauses that order, pay, say where it goes or that the shopper
collects, in English, French and Japanese; what is left over; questions about paying; and
what the intent stage makes of them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.checkout_acts import read_checkout, says_nothing_else
from commerce_agent.agent.models.scripted.intents import understand


@pytest.mark.parametrize("said", [
    "yes, make the order", "please make the order", "ok, put the order in please",
    "alright, go ahead and order", "buy it.", "send the order through", "ring me up",
    "I am ready to pay.", "Kindly. I am ready to pay", "great, let's do it, I'm paying now",
    "and charge my card", "bon, on y va, je commande", "parfait, lance la commande",
    "c'est bon, faites la commande", "passe la commande", "je règle tout de suite",
    "on passe à la caisse", "お会計お願いします", "それで注文してください、支払います",
    "以上で、お支払いします", "注文確定でお願いします",
    # French imperatives with their object or a lead-in, and anglicisms
    "commandez-le", "vas-y commande", "achetez-la svp", "go checkout",
    "ok go, commande-les", "c'est tout, validez",
])
def test_a_checkout_said_alone_concludes_and_leaves_nothing(said: str) -> None:
    found = read_checkout(said)
    assert found.concludes, found
    assert says_nothing_else(found.rest), found
    assert understand(said)[0] == "checkout"


@pytest.mark.parametrize(("said", "thing"), [
    ("add two tiramisu and ring me up, I'll collect it", "tiramisu"),
    ("I'd like two portions of the lasagna for pickup, if you would, and I'm happy to pay now",
     "lasagna"),
    ("fetch me the sourdough year and I'll pay right away", "sourdough"),
    ("ajoute deux tiramisus et on passe à la caisse, c'est à emporter", "tiramisus"),
    ("je prends le livre sur le levain, je règle tout de suite", "levain"),
    ("和紙ノートを1冊カートに入れて、お会計お願いします", "和紙ノート"),
    ("玄米茶を3つ入れて、そのまま会計して", "玄米茶"),
])
def test_a_request_joined_with_a_checkout_is_the_whole_purchase(said: str, thing: str) -> None:
    found = read_checkout(said)
    assert found.concludes
    assert thing in found.rest and thing in found.request
    kind, text = understand(said)
    assert kind == "buy"
    assert thing in text
    assert not read_checkout(text).concludes  # the order words are gone from what is searched


@pytest.mark.parametrize(("said", "act"), [
    ("I'll swing by to get it", "collect"), ("I will come pick it up myself", "collect"),
    ("je passe les prendre à midi", "collect"), ("je viens les chercher", "collect"),
    ("取りに行きます", "collect"), ("deliver it to", "send"), ("livre ça au", "send"),
    ("address", "send"),
])
def test_where_it_goes_is_an_act_that_concludes_nothing(said: str, act: str) -> None:
    found = read_checkout(said)
    assert act in found.acts
    assert not found.concludes


@pytest.mark.parametrize("said", [
    "can I pay when I pick it up?", "do I pay now or when it's delivered?",
    "can I pay at pickup?", "est-ce que je peux payer sur place ?", "店頭で支払えますか？",
])
def test_a_question_about_paying_is_answered_never_done(said: str) -> None:
    assert read_checkout(said).asked
    assert not read_checkout(said).concludes
    assert understand(said)[0] == "policy"


@pytest.mark.parametrize("said", [
    "I want to order a mug", "order two mugs", "je commande deux assiettes", "where is my order?",
    "茶筅を2つ注文します", "get me the distributed systems book and use READMORE15",
    "I'll pay later", "vas-y commande deux pizzas", "annule ma commande",
    "ok commande une diavola",
])
def test_ordering_a_thing_or_asking_about_an_order_is_no_checkout_act(said: str) -> None:
    assert not read_checkout(said).concludes


@given(st.sampled_from(["add a lasagna", "grab me the teapot", "two arancini please",
                        "ajoute une théière", "je prends deux assiettes"]),
       st.sampled_from([" and check out", ", I'll pay now", " and ring me up", ", je paie",
                        " et on valide", ", place the order"]),
       st.sampled_from(["", ", I'll pick it up", ", thanks"]))
def test_any_request_with_any_checkout_keeps_the_request(thing: str, checkout: str,
                                                         tail: str) -> None:
    found = read_checkout(thing + checkout + tail)
    assert found.concludes
    assert thing.split()[-1] in found.rest


@pytest.mark.parametrize("said", ["注文まで進めて", "注文に進んで", "購入手続きへ進んでください",
                                  "on finalise", "ok je prends tout, on finalise"])
def test_going_on_to_the_order_concludes_it(said: str) -> None:
    assert read_checkout(said).concludes
