"""Changes of mind (scripted/mind.py), replacements said with "instead of" (language/swaps.py),
tips by amount and who they are for, pauses said as holds, and the offers a reply makes to
look for something similar or to pause (scripted/offers.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.swaps import find_swap
from commerce_agent.agent.language.tips import read_tip
from commerce_agent.agent.models.scripted import edits, mind, offers, words
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.messages import say


@pytest.mark.parametrize(("said", "meant"), [
    ("actually make it two", "quantity"), ("no wait, just one", "quantity"),
    ("finalement, trois", "quantity"), ("non, finalement deux", "quantity"),
    ("やっぱり2つにします", "quantity"), ("やっぱり1つでいいです", "quantity"),
    ("forget the plates", "remove"), ("actually, forget the teapot", "remove"),
    ("oublie les assiettes", "remove"), ("やっぱり茶筅はやめます", "remove"),
    ("茶筅はやめます", "remove"),
    ("やっぱりやめます", "undo"), ("actually, forget it", "undo"), ("I changed my mind", "undo"),
    ("scratch that", "undo"),
    ("scratch that, the large one", ""), ("on second thought remove the teapot", ""),
    ("en fait, enlève la théière", ""), ("hmm actually yes, add it", ""),
])
def test_a_change_of_mind_reads_by_its_shape(said: str, meant: str) -> None:
    change = mind.read(said)
    assert change is not None and change.intent == meant


@pytest.mark.parametrize("said", ["no, the blue one", "no thanks", "add two plates",
                                  "いえ、今はいいです", "注文をキャンセルしてください",
                                  "what's the teapot like?", "forget it"])
def test_what_takes_nothing_back(said: str) -> None:
    change = mind.read(said)
    assert change is None or change.intent not in ("remove", "quantity")


@pytest.mark.parametrize(("said", "meant"), [
    ("no wait, just one", "quantity"), ("forget the plates", "remove"),
    ("on second thought remove the teapot", "remove"), ("actually, no garlic bread", "remove"),
    ("やっぱりやめた", "no"), ("oh no, only one please", "quantity"),
    ("en fait, pas de théière", "remove"), ("nah, forget the mug", "remove"),
    ("やっぱりマグカップじゃなくてティーポットにします", "replace"), ("skip next month", "policy"),
    ("I'll skip the teapot", "remove"), ("actually, no problem", "yes"),
    ("oh wait, take the dripper out", "remove"),
    ("actually, I'll have the dripper instead", "replace"),
    ("やっぱり注文をキャンセルしてください", "cancel"), ("hmm actually yes, add it", "yes"),
    ("wait, how much is it?", "details"), ("actually, never mind", "no"),
])
def test_the_rest_is_read_as_any_message(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


@given(st.sampled_from(["make it two", "just one", "2つにします", "trois", "three please"]),
       st.sampled_from(["actually ", "actually, ", "no wait, ", "finalement, ", "en fait ",
                        "やっぱり", "on second thought, "]))
def test_a_marker_before_a_count_is_that_count(count: str, marker: str) -> None:
    change = mind.read(marker + count)
    assert change is not None and change.intent == "quantity"
    assert words.quantity(change.text) == words.quantity(count)


@pytest.mark.parametrize(("said", "old", "new"), [
    ("instead of the mug I'll take the espresso cup set", "the mug", "the espresso cup set"),
    ("au lieu de la tasse, je prends la théière", "la tasse", "la theiere"),
    ("à la place du tiramisu, des arancini", "tiramisu", "des arancini"),
    ("玄米茶の代わりにほうじ茶にします", "玄米茶", "ほうじ茶"),
])
def test_instead_of_names_what_goes_and_what_comes(said: str, old: str, new: str) -> None:
    swap = find_swap(words.fold(said))
    assert swap is not None and (swap.old, swap.new) == (old, new)


@pytest.mark.parametrize("said", [
    "add 15% for the kitchen", "tip the driver 3 dollars", "leave a 10% tip on the lasagna",
    "give the courier 5 dollars", "3 € pour le livreur", "je voudrais laisser un pourboire de 10 %",
    "チップを500円お願いします"])
def test_a_tip_is_an_amount_for_those_who_served(said: str) -> None:
    assert understand(said)[0] == "tip"
    assert read_tip(said) is not None


@pytest.mark.parametrize("said", ["add 2 plates for the kitchen", "can I tip the driver?",
                                  "any tips on caring for it?"])
def test_not_a_tip(said: str) -> None:
    assert understand(said)[0] != "tip"


@pytest.mark.parametrize(("said", "meant"), [
    ("put it on hold for a month", "sub_pause"), ("please put my membership on hold", "sub_pause"),
    ("can I put it on hold for a month?", "policy"), ("skip next month", "policy"),
    ("hold the prosciutto", "other")])
def test_a_hold_is_a_pause_and_a_question_is_answered(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_the_sold_out_reply_offers_to_look_for_similar(language: str) -> None:
    item = {"itemId": "item_serving_bowl_large", "name": "Large Serving Bowl"}
    offer = offers.similar_offered(say(language, "item_sold_out", name=item["name"]),
                                   {item["itemId"]: item})
    assert offer is not None and (offer.intent, offer.item_id) == (
        "similar", "item_serving_bowl_large")
    assert offers.similar_offered(say(language, "declined"), {item["itemId"]: item}) is None


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_the_pause_answer_offers_that_subscription_pause(language: str) -> None:
    told = say(language, "sub_pause", name="Folio Unlimited", id="ord_0123abcd")
    offer = offers.pause_offered(told)
    assert offer is not None and offer.intent == "sub_pause" and "ord_0123abcd" in offer.text
    assert offers.pause_offered(say(language, "declined")) is None


@pytest.mark.parametrize(("said", "read"), [
    ("drop the teapot and make the plates four",
     [("remove", "drop the teapot"), ("quantity", "make the plates four")]),
    ("ティーポットを削除して、皿を4つにして",
     [("remove", "ティーポットを削除して"), ("quantity", "皿を4つにして")]),
])
def test_several_edits_split_by_clause(said: str, read: list[tuple[str, str]]) -> None:
    assert edits.clauses(said) == read


@pytest.mark.parametrize("said", ["remove the cup and saucer set", "make the plates four",
                                  "remove the teapot and tell me the total",
                                  "remove the teapot and add a mug"])
def test_one_edit_or_not_only_edits_is_served_whole(said: str) -> None:
    assert edits.clauses(said) == []


@pytest.mark.parametrize(("said", "meant"), [
    ("one of the plates arrived chipped, i want to send it back", "return"),
    ("one of the plates arrived chipped", "other"),
    ("2 mugs came broken", "other"),
    ("two plates please", "add"),
    ("order arancini for pickup please", "buy"),
    ("can you order tiramisu for me", "buy"),
    ("order status?", "status"),
    ("order it", "checkout"),
])
def test_a_report_orders_nothing_and_order_said_first_buys(said: str, meant: str) -> None:
    assert understand(said)[0] == meant


@pytest.mark.parametrize(("said", "meant"), [
    ("non plutôt le dripper", "replace"), ("rather the teapot", "replace"),
    ("ugh wait, not the mat, the 10 class pass", "replace"),
    ("actually don't bother with the gift box", "remove"),
    ("finalement une seule", "quantity"), ("やっぱり3冊で", "quantity"),
    ("erm actually make it two", "quantity"),
])
def test_a_change_of_mind_by_class(said: str, meant: str) -> None:
    change = mind.read(said)
    assert change is not None and change.intent == meant


@pytest.mark.parametrize("said", ["rather than the mug, the plate", "not the 12, the 16"])
def test_no_count_read_where_a_size_or_swap_is_said(said: str) -> None:
    change = mind.read(said)
    assert change is None or change.intent != "quantity"


@pytest.mark.parametrize("said", ["plutôt une 12 avec champignons", "rather a small one",
                                  "instead a teapot too"])
def test_rather_before_a_new_thing_takes_nothing_in_place(said: str) -> None:
    # only a thing in view (the definite article, a pointer) is taken in place of the last
    assert mind.read(said) is None


@pytest.mark.parametrize(("said", "meant"), [
    ("not the mug, the other one", "other"),  # a choice among those shown, no swap
    ("not the large, the small one", "replace"),
    ("pas le premier, l'autre, j'en veux deux", "replace"),  # refused by its place
])
def test_a_refused_thing_then_only_the_other_is_no_swap(said: str, meant: str) -> None:
    assert (understand(said)[0] == "replace") == (meant == "replace")
