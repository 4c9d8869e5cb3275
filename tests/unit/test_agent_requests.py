"""Request forms (scripted/requests.py): every verb of getting said as a request, in any of its
forms, is an instruction for what the verb asks, never a question nor an order's status."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import requests
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act

# (imperative tu, imperative vous, infinitive, what it asks)
_FR = [("commande", "commandez", "commander", "buy"), ("achète", "achetez", "acheter", "buy"),
       ("ajoute", "ajoutez", "ajouter", "add"), ("rajoute", "rajoutez", "rajouter", "add"),
       ("mets", "mettez", "mettre", "add"), ("prends", "prenez", "prendre", "add"),
       ("réserve", "réservez", "réserver", "book")]
# Things named after the verb, some with words the status table knows ("livre", "colis").
_FR_THINGS = ["la théière céladon", "deux bols", "le livre signé", "trois", "l'atelier",
              "le colis cadeau", "une assiette livrée vite"]
_JA_THINGS = ["八女玉露", "茶筅", "急須", "和紙のノート"]


@given(verb=st.sampled_from(_FR), clitic=st.sampled_from(["-moi", "-m'en", "-nous", "-le-moi"]),
       polite=st.booleans(), thing=st.sampled_from(_FR_THINGS))
def test_a_french_imperative_with_its_pronoun_is_an_instruction(
        verb: tuple[str, str, str, str], clitic: str, polite: bool, thing: str) -> None:
    said = f"{verb[1] if polite else verb[0]}{clitic} {thing}"
    act = read_act(said)
    assert (act.kind, act.request) == ("instruction", verb[3])
    assert understand(said)[0] == verb[3]


@given(verb=st.sampled_from(_FR), modal=st.sampled_from(["vous pouvez", "pourriez-vous",
                                                          "tu pourrais", "peux-tu"]),
       pronoun=st.sampled_from(["me ", "m'", "nous "]), thing=st.sampled_from(_FR_THINGS),
       asked=st.booleans())
def test_a_french_polite_request_is_an_instruction_even_with_a_question_mark(
        verb: tuple[str, str, str, str], modal: str, pronoun: str, thing: str,
        asked: bool) -> None:
    if pronoun == "m'" and verb[2][0] not in "aeiouyé":
        pronoun = "me "
    said = f"{modal} {pronoun}{verb[2]} {thing}{' ?' if asked else ''}"
    assert (read_act(said).kind, understand(said)[0]) == ("instruction", verb[3])


@given(stem=st.sampled_from([("注文", "buy"), ("購入", "buy"), ("カートに追加", "add"),
                             ("予約", "book")]),
       ending=st.sampled_from(requests.JA_SURU_ENDINGS), thing=st.sampled_from(_JA_THINGS),
       count=st.sampled_from(["", "2つ", "1個"]))
def test_a_japanese_request_ending_is_an_instruction(
        stem: tuple[str, str], ending: str, thing: str, count: str) -> None:
    said = f"{thing}を{count}{stem[0]}{ending}"
    assert (read_act(said).kind, understand(said)[0]) == ("instruction", stem[1])


@given(ending=st.sampled_from(requests.JA_NOUN_ENDINGS), thing=st.sampled_from(_JA_THINGS),
       particle=st.sampled_from(["を", "が"]))
def test_a_japanese_thing_asked_for_by_its_noun_is_added(ending: str, thing: str,
                                                           particle: str) -> None:
    said = f"{thing}{particle}{ending}"
    assert (read_act(said).kind, read_act(said).request) == ("instruction", "add")


@pytest.mark.parametrize("said, asked", [
    ("grab me two dinner plates", "add"), ("throw in a tiramisu", "add"),
    ("I'll take the celadon teapot", "add"), ("hook me up with the dripper", "add"),
    ("put me down for the Python ebook", "add"), ("ok, order me the signed book", "buy"),
    ("could you get me the teapot?", "add"), ("je prendrai un tiramisu", "add"),
    ("il me faudrait deux arancini", "add"), ("je vais prendre la théière", "add"),
])
def test_english_heads_and_french_statements_ask(said: str, asked: str) -> None:
    act = read_act(said)
    assert (act.kind, act.request) == ("instruction", asked)


@pytest.mark.parametrize("said", [
    "did you order me the teapot?", "where is my order?", "ma commande est-elle livrée ?",
    "ajoutez-vous des frais de port ?", "注文します", "ne me commande pas le livre",
    "don't get me the teapot",
])
def test_other_uses_of_the_verbs_are_not_request_forms(said: str) -> None:
    assert read_act(said).request == ""


def test_ordering_in_the_imperative_is_not_an_existing_orders_status() -> None:
    # the known bug: « commande-moi le livre signé » was read as "my order, delivered?"
    assert understand("commande-moi le livre signé The Shape of Letters")[0] == "buy"
    assert understand("où en est ma commande ?")[0] == "status"
