"""Negations, declines and changes of mind (issue 21, round 15): a pause word is a correction
marker, a thing named after a refusing marker replaces the thing before it, a thing let go
with its article is removed, a phrase inside 今回は names nothing, a refused option of a
single choice leaves the other, and a negated add beside a request to know asks about it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language import quantities
from commerce_agent.agent.language.quantities import how_many
from commerce_agent.agent.models.scripted import configuration, mind
from commerce_agent.agent.models.scripted.assent import classify
from commerce_agent.agent.models.scripted.intents import understand
from tests.support.sample_items import sample_item


@pytest.mark.parametrize(("said", "meant"), [
    ("ajoute deux arancini, non attends, trois", "ajoute 3 arancini"),
    ("add 2 plates, hang on, 3", "add 3 plates"),
    ("玄米茶を2つ、待って、3つ", "玄米茶を3つ"),
    ("ajoute deux assiettes, attendez, non, quatre", "ajoute 4 assiettes"),
])
def test_a_pause_to_think_is_a_correction_marker(said: str, meant: str) -> None:
    assert mind.corrected(said) == meant


@pytest.mark.parametrize(("said", "meant"), [
    ("add the sourdough ebook, actually no, the practical rust bundle",
     "add the practical rust bundle"),
    ("add 2 plates, sorry I meant mugs", "add 2 mugs"),
    ("ajoute le mug émail, non pardon, la théière céladon", "ajoute la théière céladon"),
    ("add the dripper, no not that, the teapot", "add the teapot"),
    ("i want the classic mug, no wait, the glaze mug", "i want the glaze mug"),
    ("ほうじ茶、いや玄米茶をカートに入れて", "玄米茶をカートに入れて"),
    ("茶筅、いや、抹茶碗をください", "抹茶碗をください"),
])
def test_a_thing_after_a_refusing_marker_replaces_the_thing_before(said: str,
                                                                   meant: str) -> None:
    assert mind.corrected(said) == meant


@pytest.mark.parametrize("said", [
    "a 12 inch margherita with roasted mushrooms, no olives",  # an option declined
    "cobalt 16 oz mug, no gift box and no coaster",
    "kyusu, no furoshiki",
    "add the teapot, no thanks",
    "add 2 mugs, actually 3 plates",  # "actually" goes on: another request
    "add the mug, no, the teapot, and 2 plates",  # more than one thing after it
    "ほうじ茶、いいですね",
    "non, pas la tasse, plutôt le dripper",  # a swap: the refused thing said first
    "add the aurelia font licence, twenty seats, no sorry, just one seat",  # a count's
])
def test_what_is_no_thing_correction(said: str) -> None:
    assert mind.corrected(said) == said


@settings(deadline=None)
@given(st.sampled_from(["no", "non", "sorry", "no wait", "nope"]),
       st.sampled_from(["the celadon teapot", "a dinner plate", "la théière"]))
def test_the_thing_meant_is_the_last_one_said(marker: str, thing: str) -> None:
    assert mind.corrected(f"add the glaze mug, {marker}, {thing}") == f"add {thing}"


@pytest.mark.parametrize(("said", "thing"), [
    ("finalement pas les assiettes", "assiettes"),
    ("pas les assiettes finalement", "assiettes"),
    ("actually not the plates", "plates"),
    ("en fait pas l'encre", "encre"),
    ("actually no more mugs", "mugs"),
])
def test_a_thing_let_go_with_its_article_is_removed(said: str, thing: str) -> None:
    assert mind.read(said) == mind.Reading("remove", thing)


@pytest.mark.parametrize("said", ["今回はやめておきます", "今日はいいです", "actually nothing more",
                                  "actually not the 16 inch"])
def test_what_names_no_thing_removes_nothing(said: str) -> None:
    read = mind.read(said)
    assert read is None or read.intent != "remove"


def _item(item_id: str) -> dict[str, Any]:
    return sample_item(item_id)


@pytest.mark.parametrize(("item_id", "said", "group", "option"), [
    ("item_pizza_diavola", "a diavola please, not the 16 inch", "group_diavola_size",
     "opt_diavola_size_12in"),
    ("item_pizza_funghi_bianca", "funghi bianca, pas la 12 pouces", "group_funghi_size",
     "opt_funghi_size_16in"),
    ("item_cacio_e_pepe", "cacio e pepe, not the gluten free spaghetti", "group_cacio_pasta",
     "opt_cacio_pasta_tonnarelli"),
])
def test_a_refused_option_of_two_leaves_the_other(item_id: str, said: str, group: str,
                                                  option: str) -> None:
    assert configuration.read(_item(item_id), said).options.get(group) == [option]


def test_a_refused_option_of_several_chooses_none() -> None:
    reading = configuration.read(_item("item_aurelia_font_license"), "aurelia, not 20 seats")
    assert "group_aurelia_seats" not in reading.options


@pytest.mark.parametrize("said", [
    "don't put the teapot in my cart, just tell me the price",
    "don't add it, I just want the price",
    "don't add the teapot yet, how much is it?",
    "ne l'ajoute pas, je veux juste savoir le prix",
])
def test_a_negated_add_beside_a_request_to_know_asks_about_it(said: str) -> None:
    assert understand(said)[0] == "details"


@pytest.mark.parametrize("said", ["don't add it", "don't add the mug, add the teapot"])
def test_a_negated_add_alone_or_with_another_add_is_no_question(said: str) -> None:
    assert understand(said)[0] != "details"


@pytest.mark.parametrize("count", [2, 3, 5])
def test_a_count_said_after_a_pause_is_the_count(count: int) -> None:
    assert how_many(mind.corrected(f"add 1 dinner plate, hold on, {count}")) == count


@pytest.mark.parametrize(("said", "intent", "text"), [
    ("wait no, just the one", "quantity", "just the one"),
    ("attends non, deux", "quantity", "deux"),
    ("hmm actually no, forget it", "undo", "forget it"),
    ("actually no plate", "remove", "plate"),  # no comma: the no declines the plate
])
def test_a_refusal_after_the_marker_goes_with_it(said: str, intent: str, text: str) -> None:
    assert mind.read(said) == mind.Reading(intent, text)


@pytest.mark.parametrize(("said", "act"), [
    ("all good thanks", "decline"), ("all good", "decline"), ("we're good", "decline"),
    ("nan", "decline"), ("nan c bon", "decline"), ("non c'est bon", "decline"),
    ("all good, add it", "confirm"), ("yes all good", "confirm"),
    ("all good go ahead", "confirm"), ("c bon", "confirm"), ("yep, all good now", "confirm"),
])
def test_being_fine_as_one_is_declines_unless_a_yes_is_said(said: str, act: str) -> None:
    assert classify(said).act == act


@pytest.mark.parametrize(("said", "thing"), [
    ("no more plates", "plates"), ("plus de bols", "bols"),
])
def test_no_more_of_a_thing_lets_it_go(said: str, thing: str) -> None:
    assert mind.read(said) == mind.Reading("remove", thing)


@pytest.mark.parametrize("said", ["no more questions", "plus de problème", "none of the mugs",
                                  "no more plates?", "no more thanks"])
def test_no_more_of_no_thing_lets_nothing_go(said: str) -> None:
    read = mind.read(said)
    assert read is None or read.intent != "remove"


@pytest.mark.parametrize("said", ["lose the planter", "toss the mugs please",
                                  "chuck those plates"])
def test_everyday_verbs_let_a_thing_go(said: str) -> None:
    assert understand(said)[0] == "remove"


@pytest.mark.parametrize("said", ["lose the teapot order", "toss the teapot order please"])
def test_an_order_let_go_is_no_cart_line(said: str) -> None:
    assert understand(said)[0] != "remove"


@pytest.mark.parametrize(("said", "change"), [
    ("drop a plate", -1), ("lose a mug", -1), ("drop 2 mugs", -2),
    ("remove a gift box", None), ("drop a lot of them", None),
])
def test_an_article_after_drop_counts_one_fewer(said: str, change: int | None) -> None:
    assert quantities.change(said) == change


@pytest.mark.parametrize("said", [
    "no thnx", "I think I'll pass", "naa", "nop", "nan merci c gentil", "c'est gentil mais non",
    "ça va merci", "大丈夫", "ううん、いらない", "いや、いいや",
])
def test_a_decline_typed_casually_is_a_decline(said: str) -> None:
    assert classify(said).act == "decline"


@pytest.mark.parametrize("said", ["大丈夫、お願い", "all good now", "ok thnx", "oui c gentil"])
def test_a_yes_beside_those_words_is_still_a_yes(said: str) -> None:
    assert classify(said).act == "confirm"
