"""Question topics (agent/models/scripted/topics.py), questions inside a request
(scripted/compound.py) and the item data that answers each topic (scripted/facts.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import compound, facts, topics, words
from commerce_agent.agent.models.scripted.intents import understand
from tests.support.sample_items import sample_item


@pytest.mark.parametrize(("said", "name", "about"), [
    ("I was wondering whether you're open on Sundays?", "hours", "store"),
    ("est-ce que vous êtes ouverts le lundi ?", "hours", "store"),
    ("何時まで開いていますか", "hours", "store"),
    ("do you guys have a faster shipping option?", "shipping", "store"),
    ("la livraison est-elle gratuite ?", "shipping", "store"),
    ("送料はいくらかかりますか", "shipping", "store"),
    ("any chance there's a minimum order?", "minimum", "store"),
    ("how long do I have to send it back?", "returns", "store"),
    ("返品はできますか？", "returns", "store"),
    ("how long does the tea ceremony workshop last?", "duration", "item"),
    ("combien de temps dure l'atelier ?", "duration", "item"),
    ("茶道体験は何分くらいですか", "duration", "item"),
    ("where does the sound bath workshop take place?", "place", "item"),
    ("how much does it hold?", "capacity", "item"),
    ("この急須の容量はどれくらいですか", "capacity", "item"),
    ("il pèse combien ?", "weight", "item"),
    ("does it contain any nuts?", "contents", "item"),
    ("is there a free trial?", "trial", "item"),
])
def test_a_question_names_its_topic_in_any_language(said: str, name: str, about: str) -> None:
    assert topics.topic(said) == topics.Topic(name, about)


def test_delivery_time_is_the_stores_not_an_items_duration() -> None:
    assert topics.topic("how long does delivery take?") == topics.Topic("shipping", "store")
    # a subscription's commitment is answered from the plan's terms, not the store's minimum
    assert topics.topic("is there a minimum term on the membership?") is None


@pytest.mark.parametrize(("said", "named"), [
    ("how long does the tea ceremony workshop last?", True),
    ("il pèse combien ?", True),  # "il": the item in view
    ("この急須の容量はどれくらいですか", True),
    ("how long is it?", False),  # a duration needs a thing named
])
def test_an_item_topic_needs_a_thing_named_or_pointed_at(said: str, named: bool) -> None:
    found = topics.topic(said)
    assert found is not None
    assert topics.names_an_item(said, found) is named


@pytest.mark.parametrize(("said", "meant"), [
    ("I was wondering whether you're open on Sundays?", "policy"),
    ("how much does it hold?", "details"),
    ("il pèse combien ?", "details"),
    ("does it contain any nuts?", "details"),
    ("combien de temps dure l'atelier bain sonore ?", "details"),
])
def test_questions_are_routed_by_topic_never_searched(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


def test_topic_words_are_not_product_words() -> None:
    assert words.content_words(topics.without_topic("how much does it hold?")) == frozenset()
    assert "workshop" in topics.without_topic("where does the sound bath workshop take place?")


@pytest.mark.parametrize(("said", "request_part", "question"), [
    ("add the limited glaze mug — is shipping free over $50?", "add the limited glaze mug",
     "is shipping free over $50?"),
    ("put two espresso cup sets in my cart, and what's your return window?",
     "put two espresso cup sets in my cart", "what's your return window?"),
    ("je prendrai l'encre kaki, et c'est combien la livraison ?", "je prendrai l'encre kaki",
     "c'est combien la livraison ?"),
    ("急須を1つカートに入れてください。返品はできますか？", "急須を1つカートに入れてください。",
     "返品はできますか？"),
])
def test_a_question_inside_a_request_is_set_apart(said: str, request_part: str,
                                                  question: str) -> None:
    assert compound.split(said) == compound.Split(request_part, question)


@pytest.mark.parametrize("said", [
    "add the blue mug, 12 oz",  # options, no question
    "is shipping free over $50?",  # a question alone
    "une douzaine d'arancini, s'il vous plaît",
    "青いのを1つ、12ozでお願いします",
    "what's your return window? and the opening hours?",  # questions only: nothing to do
])
def test_a_message_that_is_one_thing_is_not_split(said: str) -> None:
    assert compound.split(said) == compound.Split(said)


@given(st.text(max_size=80))
def test_splitting_never_loses_the_request(said: str) -> None:
    parts = compound.split(said)
    assert parts.question is None or parts.request.strip()
    assert parts.question is not None or parts.request == said


@pytest.mark.parametrize(("item_id", "question", "lang", "said"), [
    ("item_sound_bath_workshop", "where does it take place?", "en", "Main room"),
    ("item_tea_ceremony_workshop", "どこで行われますか", "ja", "tatami room"),
    ("item_celadon_teapot", "how much does it hold?", "en", "700 ml"),
    ("item_online_yoga_monthly", "is there a free trial?", "en", "7-day"),
    ("item_unlimited_studio_monthly", "y a-t-il un essai gratuit ?", "fr", "pas d'essai"),
])
def test_each_topic_is_answered_from_the_items_data(item_id: str, question: str, lang: str,
                                                    said: str) -> None:
    assert said in " ".join(facts.answer(sample_item(item_id), question, lang))


def test_a_topic_the_data_lacks_adds_nothing_made_up() -> None:
    # the mug names no volume, and it is no class: no place, no capacity invented
    answer = " ".join(facts.answer(sample_item("item_limited_glaze_mug"), "where is it held?",
                                   "en"))
    assert "takes place" not in answer and "holds" not in answer


def test_asking_to_be_told_inside_a_request_is_a_question() -> None:
    parts = compound.split("add 2 genmaicha and tell me how long delivery takes")
    assert parts == compound.Split("add 2 genmaicha", "tell me how long delivery takes")


def test_a_search_question_stays_with_the_request_it_opens() -> None:
    said = "et des mugs ? j'en prends un bleu de 12 oz"
    assert compound.split(said) == compound.Split(said)


@pytest.mark.parametrize(("said", "meant"), [
    ("do you guys do gift wrapping?", "details"),  # the add-ons of the item in view
    ("do you have any vegan pizzas?", "search"),  # things of a kind: a search
    ("what if I want to put my membership on hold?", "policy"),  # a pause, not a capacity
])
def test_topic_words_do_not_turn_searches_or_terms_into_item_questions(said: str,
                                                                       meant: str) -> None:
    assert understand(said)[0] == meant


def test_add_ons_and_a_volume_in_the_description_are_answered() -> None:
    kyusu, glaze = sample_item("item_tokoname_kyusu"), sample_item("item_limited_glaze_mug")
    assert "Furoshiki" in " ".join(facts.answer(kyusu, "do you do gift wrapping?", "en"))
    assert "10 oz" in " ".join(facts.answer(glaze, "how much does it hold?", "en"))


@pytest.mark.parametrize(("said", "phrases"), [
    ("マグカップを2個、青で、12ozでお願いします", ("マグカップを2個、青で、12ozでお願いします",)),
    ("玄米茶を2つ、和紙ノートを1冊", ("玄米茶を2つ", "和紙ノートを1冊")),
])
def test_a_japanese_phrase_of_options_only_stays_with_its_item(said: str,
                                                             phrases: tuple[str, ...]) -> None:
    assert words.item_phrases(said) == phrases


@pytest.mark.parametrize(("said", "query"), [
    ("はい、1枚ください", ""),
    ("この急須の容量はどれくらいですか", "急須 容量"),
])
def test_japanese_assent_and_demonstratives_are_not_product_words(said: str, query: str) -> None:
    assert words.japanese_query(said) == query


@pytest.mark.parametrize(("said", "asked"), [
    ("add the planter? is it in stock", "planter - is it in stock?"),
    ("put the celadon teapot in my cart? is it still available",
     "celadon teapot - is it still available?"),
    ("check out? how much is shipping", "how much is shipping?"),
    ("ajoute la théière ? elle est en stock ?", "theiere - elle est en stock?")])
def test_a_request_put_as_a_question_waits_on_the_answer(said: str, asked: str) -> None:
    """"add the planter? is it in stock": only the question is served (about the thing
    named), and nothing is added or ordered."""
    assert compound.split(said) == compound.Split(asked)


@pytest.mark.parametrize("said", ["can you add the planter? is it in stock",
                                  "add the mug - is it dishwasher safe?"])
def test_a_request_said_as_one_is_done_beside_its_question(said: str) -> None:
    assert compound.split(said).question is not None
