"""Questions that change nothing (ask16), read by their stages: a day said relative to today
(language/dates.py), what two things a comparison names (compare.py), a question set apart from
a request and a supposition never split (compound.py), and questions about an item's options or
how many there are (intents.py, facts.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.hours import days_ahead_meant, hours_on
from commerce_agent.agent.models.scripted import compare, compound, facts
from commerce_agent.agent.models.scripted.facts import asks_enough
from commerce_agent.agent.models.scripted.intents import understand


def test_a_day_said_from_today_in_each_language() -> None:
    assert days_ahead_meant("are you open today?") == 0
    assert days_ahead_meant("vous êtes ouverts aujourd'hui ?") == 0
    assert days_ahead_meant("本日は営業していますか") == 0
    assert days_ahead_meant("open tomorrow?") == 1
    assert days_ahead_meant("vous ouvrez demain ?") == 1
    assert days_ahead_meant("明後日は開いていますか") == 2
    assert days_ahead_meant("are you open on sundays?") is None


def test_that_days_hours_from_a_week_that_wraps_round() -> None:
    assert hours_on(["We-Mo 10:30-18:30"], 0) == ("10:30", "18:30")  # Monday
    assert hours_on(["We-Mo 10:30-18:30"], 1) is None  # Tuesday: closed


def test_the_two_things_compared() -> None:
    assert compare.asked("whats the difference between the margherita and the diavola") == (
        "margherita", "diavola")
    assert compare.asked("compare the classic mug with the limited glaze mug?") == (
        "classic mug", "limited glaze mug")
    assert compare.asked("quelle est la différence entre le mug classique et le mug édition "
                         "limitée ?") == ("mug classique", "mug edition limitee")
    assert compare.asked("玉露と玄米茶の違いは何ですか？") == ("玉露", "玄米茶")
    # coordinated words share their noun
    assert compare.asked("what's the difference between ceremonial and culinary matcha?") == (
        "ceremonial matcha", "culinary matcha")
    assert compare.asked("add the margherita and the diavola") is None


def test_a_question_after_a_comma_is_set_apart_whatever_opens_it() -> None:
    found = compound.split("ajoute le dripper, et la livraison c'est combien ?")
    assert (found.request, found.question) == ("ajoute le dripper", "la livraison c'est combien ?")
    found = compound.split("add the hanging planter, shipping to canada is how much?")
    assert found.request == "add the hanging planter"


def test_a_supposition_is_never_a_request() -> None:
    for said in ("si je m'abonne à Folio, je peux résilier après ?",
                 "if I order the teapot now, when would it arrive?",
                 "when I subscribe, can I pause it?"):
        assert compound.split(said).question is None, said


def test_possible_to_have_a_thing_in_an_option_asks_about_the_thing() -> None:
    assert understand("is it possible to get the mug in white?")[0] == "details"
    assert understand("est-il possible d'avoir le mug classique en bleu ?")[0] == "details"
    assert understand("is it possible to pay later?")[0] == "policy"
    assert understand("would it be possible to get a refund in cash?")[0] == "policy"


@given(st.integers(min_value=2, max_value=40),
       st.sampled_from(["do you have {n} tiramisu?", "vous avez {n} tiramisus ?",
                        "have you got {n} espresso cup sets?", "ティラミスは{n}個ありますか？"]))
def test_do_you_have_a_number_asks_how_many_are_left(count: int, said: str) -> None:
    assert asks_enough(said.format(n=count))


def test_do_you_have_any_is_still_a_search() -> None:
    assert not asks_enough("do you have any vegan pizzas?")
    assert understand("do you have any vegan pizzas?")[0] == "search"


def test_an_item_without_options_says_it_comes_in_one_version() -> None:
    mat = {"name": "Cork Yoga Mat", "description": "A grippy cork mat.", "metadata": {}}
    said = facts.answer(mat, "is the yoga mat available in other colours?", "en")
    assert any("one version" in sentence for sentence in said)
    assert not any("one version" in sentence
                   for sentence in facts.answer(mat, "is the mat dishwasher safe?", "en"))


def test_changing_the_address_asked_is_a_question_about_the_order() -> None:
    for said in ("is it too late to change the address?",
                 "can I change the delivery address on my order?",
                 "je peux changer l'adresse de livraison ?", "配送先の住所を変更できますか？"):
        assert understand(said)[0] == "policy", said
    # an address given is a change asked for, not a question about one
    assert understand("can you change the address to 12 Oak St, Portland, OR 97202?")[0] != \
        "policy"


def test_a_refund_by_cancelling_asks_about_cancelling() -> None:
    from commerce_agent.agent.models.scripted.answers import topic_of
    assert topic_of("if I cancel now do I get my money back?") == "cancel"
    assert topic_of("est-ce que je peux être remboursé si j'annule ?") == "cancel"
    assert topic_of("can I return it and get a refund?") == "return"
