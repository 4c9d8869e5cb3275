"""A French shopper's own forms, stage by stage (issue 21, round 7): written dates are days,
never counts; tu, vous and pronominal forms of subscribing; a noun asked for with "s'il vous
plaît" is an order; question frames and calendar words name no product; replies name options
as the store does in French."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.delivery import read_delivery
from commerce_agent.agent.language.reading import read
from commerce_agent.agent.models.scripted import words
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.messages import how_often
from commerce_agent.agent.models.scripted.phrasing import in_store_words
from commerce_agent.agent.models.scripted.speech import read_act

_NOW = datetime(2026, 11, 26, 12, tzinfo=UTC)
_MONTHS = [("janvier", 1), ("janv.", 1), ("février", 2), ("fevrier", 2), ("mars", 3),
           ("avril", 4), ("mai", 5), ("juin", 6), ("juillet", 7), ("août", 8), ("aout", 8),
           ("septembre", 9), ("octobre", 10), ("novembre", 11), ("décembre", 12)]


@given(month=st.sampled_from(_MONTHS), day=st.integers(1, 28),
       lead=st.sampled_from(["je voudrais réserver une séance portrait le", "réservez-moi le",
                             "une le", "pour le samedi"]),
       clock=st.sampled_from(["", " à 14 h", " à 9 h 30", " vers 18h"]))
def test_a_french_written_date_is_a_day_not_a_count(month: tuple[str, int], day: int,
                                                     lead: str, clock: str) -> None:
    said = f"{lead} {day} {month[0]}{clock}"
    found = read(said, now=_NOW)
    assert found.when is not None
    assert (found.when.at.month, found.when.at.day) == (month[1], day)
    assert found.when.at.date() >= _NOW.date()
    assert words.quantity(said) is None


def test_the_first_of_the_month_and_next_year() -> None:
    found = read("le 1er juillet", now=_NOW)
    assert found.when is not None and found.when.at.date() == date(2027, 7, 1)
    found = read("le 30 novembre", now=_NOW)
    assert found.when is not None and found.when.at.date() == date(2026, 11, 30)


@pytest.mark.parametrize("said", [
    "abonne-moi à Lumen Online", "abonnez-moi à Folio Unlimited", "abonnes-moi à Lumen",
    "je m'abonne à Lumen Online", "je voudrais m'abonner à Folio", "on peut nous abonner ?",
    "inscris-moi à Lumen Online", "je veux m'inscrire à l'abonnement Lumen"])
def test_subscribing_in_tu_vous_and_pronominal_forms(said: str) -> None:
    assert understand(said)[0] == "subscribe"


@pytest.mark.parametrize("said", ["je suis abonné depuis un an, c'est bien ?",
                                  "mon abonnement est-il actif ?"])
def test_being_subscribed_is_not_subscribing(said: str) -> None:
    assert understand(said)[0] != "subscribe"


@given(lead=st.sampled_from(["", "bonjour, ", "alors ", "bon, "]),
       count=st.sampled_from(["un", "une", "deux", "trois", "2"]),
       thing=st.sampled_from(["margherita petite taille", "mug bleu", "théière céladon",
                              "tiramisu pour emporter", "carnet washi"]),
       polite=st.sampled_from([" s'il vous plaît", ", svp", " stp", " s'il te plait"]))
def test_a_noun_asked_for_politely_is_an_order(lead: str, count: str, thing: str,
                                               polite: str) -> None:
    said = f"{lead}{count} {thing}{polite}"
    assert read_act(said).request == "add"
    assert understand(said)[0] == "add"


@pytest.mark.parametrize("said", ["une question svp : livrez-vous au Canada ?",
                                  "un instant svp ?"])
def test_a_polite_question_is_not_an_order(said: str) -> None:
    assert understand(said)[0] != "add"


@pytest.mark.parametrize("word", ["est-ce", "a-t-il", "peut-on", "fevrier", "jeudi", "midi",
                                  "stp", "emporter", "magasiner"])
def test_question_frames_and_calendar_words_name_no_product(word: str) -> None:
    assert words.is_stop(word)


@pytest.mark.parametrize("word", ["cache-pot", "kyusu", "theiere", "livre", "abonnement"])
def test_product_words_stay(word: str) -> None:
    assert not words.is_stop(word)


def test_replies_name_options_as_the_store_writes_them_in_french() -> None:
    items = [{"optionNames": {"16-inch": "16 pouces", "Cobalt Blue": "Bleu cobalt",
                              "Standard Shipping": "Livraison standard"}}, {"name": "x"}]
    said = ("J'ai ajouté 1 × Pizza diavola (16-inch) et 1 × Mug (Cobalt Blue, 16 oz). "
            "Livraison (Standard Shipping) : 8.50 USD.")
    assert in_store_words(said, items) == (
        "J'ai ajouté 1 × Pizza diavola (16 pouces) et 1 × Mug (Bleu cobalt, 16 oz). "
        "Livraison (Livraison standard) : 8.50 USD.")
    assert in_store_words("Cobalt Blueberry", items) == "Cobalt Blueberry"
    assert in_store_words("rien", [{}]) == "rien"


@pytest.mark.parametrize(("language", "said"), [("fr", "chaque mois"), ("ja", "毎月"),
                                                ("en", "monthly")])
def test_billing_frequency_in_the_shoppers_language(language: str, said: str) -> None:
    assert how_often(language, "monthly") == said
    assert how_often(language, "fortnightly") == "fortnightly"


@pytest.mark.parametrize(("said", "kind"), [
    ("je le prends", "add"), ("je la prends", "add"), ("ça me va, je le prends", "add"),
    ("d'accord, je la prends", "add"),
    ("j'en prendrai deux", "add"), ("je les veux en bleu", "add"),
    ("j'en veux pas", "no"), ("je le prends pas", "no"),
    ("c'est bon, on passe à la caisse", "checkout"), ("désabonne-moi", "sub_cancel"),
    ("je veux me désabonner", "sub_cancel"),
    ("t'as des assiettes ?", "search"), ("y a-t-il des tasses ?", "search"),
    ("vous vendez des théières ?", "search"), ("je magasine des tasses", "search"),
    ("est-ce que je peux annuler ?", "policy"), ("peut-on annuler une commande ?", "policy"),
    ("est-il possible de retourner un article ?", "policy"),
    ("est-ce que je peux me désabonner ?", "policy")])
def test_french_forms_by_class(said: str, kind: str) -> None:
    assert understand(said)[0] == kind


@pytest.mark.parametrize("said", [
    "je passerai la prendre demain midi", "je viens la chercher jeudi prochain à 18 h",
    "je la récupère au resto", "on ira les chercher", "je la récupérerai vers 19 h"])
def test_coming_for_it_is_a_pickup(said: str) -> None:
    assert read_delivery(said).pickup


def test_taking_it_is_not_a_pickup() -> None:
    assert not read_delivery("je vais la prendre").pickup
