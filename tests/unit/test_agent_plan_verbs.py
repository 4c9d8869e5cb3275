"""The lexicon of a plan's life (plan_verbs): each act said in English, French and Japanese,
verbs that need a plan named beside them, questions answered rather than done, and a plan
asked for going to its checkout unless the cart is named."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted import plan_verbs, words
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.typed import typed


@pytest.mark.parametrize(("said", "wanted"), [
    # starting a plan
    ("subscribe me to Folio Unlimited", "subscribe"),
    ("can you sign me up for the online membership", "subscribe"),
    ("I was hoping to sign up for the monthly plan", "subscribe"),
    ("I want to join the unlimited studio membership", "subscribe"),
    ("start me on the Lumen Online membership", "subscribe"),
    ("abonnez-moi à Folio Unlimited", "subscribe"),
    ("je veux m'inscrire à l'abonnement en ligne", "subscribe"),
    ("ルーメン・オンラインの会員になりたい", "subscribe"),
    ("月額プランを申し込みたいです", "subscribe"),
    ("ルーメン・オンラインの月額メンバーシップに入りたい", "subscribe"),
    ("folio unlimited subscription please", "subscribe"),
    ("l'abonnement Folio Unlimited s'il vous plait", "subscribe"),
    ("je voudrais prendre l'abonnement Folio", "subscribe"),
    # pausing
    ("freeze my membership please", "sub_pause"),
    ("put my reading plan on ice for a bit", "sub_pause"),
    ("suspend my subscription", "sub_pause"),
    ("put my membership on hold", "sub_pause"),
    ("suspends mon abonnement", "sub_pause"),
    ("gelez mon abonnement", "sub_pause"),
    ("メンバーシップを休会したいです", "sub_pause"),
    ("プランを一時停止してください", "sub_pause"),
    # resuming
    ("unfreeze my membership", "sub_resume"),
    ("reactivate my plan", "sub_resume"),
    ("turn my membership back on", "sub_resume"),
    ("réactivez mon abonnement", "sub_resume"),
    ("dégelez mon abonnement", "sub_resume"),
    ("会員を再開してください", "sub_resume"),
    # ending
    ("please terminate my Folio subscription", "sub_cancel"),
    ("stop charging me for Folio", "sub_cancel"),
    ("je veux résilier mon abonnement", "sub_cancel"),
    ("プランを停止してください", "sub_cancel"),
    ("会員を退会したい", "sub_cancel"),
])
def test_each_act_of_a_plan_in_three_languages(said: str, wanted: str) -> None:
    assert understand(said)[0] == wanted


@pytest.mark.parametrize("said", [
    "can I freeze my membership if I go away?",
    "est-ce que je peux geler mon abonnement ?",
    "how do I unfreeze it later?",
])
def test_a_question_about_a_plan_act_is_answered_never_done(said: str) -> None:
    assert understand(said)[0] == "policy"


@pytest.mark.parametrize(("act", "said"), [
    ("cancel", "stop"),  # a verb that needs the plan named
    ("cancel", "ハンギングプランターはいらない"),  # a planter is no plan
    ("pause", "unfreeze my membership"),  # the un- form is the other act
    ("cancel", "leave out the planter"),
])
def test_words_that_do_not_say_the_act(act: str, said: str) -> None:
    assert not plan_verbs.says(act, words.fold(said))


@pytest.mark.parametrize(("said", "to_the_cart"), [
    ("add the Folio Unlimited plan to my cart", True),
    ("ajoute l'abonnement Folio Unlimited à mon panier", True),
    ("Folio Unlimitedの月額プランをカートに入れて", True),
    ("get me the Folio Unlimited plan", False),
    ("I'd like the Lumen Online membership", False),
    ("je voudrais l'abonnement studio illimité", False),
])
def test_a_plan_goes_to_the_cart_only_when_the_cart_is_said(said: str, to_the_cart: bool) -> None:
    assert bool(plan_verbs.TO_THE_CART.search(words.fold(said))) is to_the_cart


@pytest.mark.parametrize("said", [
    "switch my membership to yearly billing",
    "can I pay for the plan annually instead?",
    "passer mon abonnement en annuel",
    "プランを年払いに変更したい",
])
def test_another_billing_frequency_is_answered_never_done(said: str) -> None:
    assert understand(said)[0] == "policy"


def test_a_plan_act_named_beside_its_billing_is_that_act() -> None:
    assert understand("I pay monthly for my plan, please pause it")[0] == "sub_pause"


def test_a_billing_frequency_is_no_typo_of_cancelling() -> None:
    # « annuel » is a typo away from « annuler »: read as typed, it never cancels
    assert "annuel" in typed("je voudrais passer mon abonnement en annuel")


@pytest.mark.parametrize(("said", "held"), [
    ("mettez mon abonnement en veille", True),
    ("put my reading plan somewhere", True),
    ("I'd like the Lumen Online membership", False),
    ("get me the Folio Unlimited plan", False),
])
def test_a_plan_spoken_of_as_ones_own_is_held_not_started(said: str, held: bool) -> None:
    assert bool(plan_verbs.HELD.search(words.fold(said))) is held


@pytest.mark.parametrize("said", [
    "my subscription please", "subscription details please", "membership options please",
    "お気に入りのプラン",
])
def test_a_plan_named_with_its_details_or_as_held_starts_none(said: str) -> None:
    assert understand(said)[0] != "subscribe"


@pytest.mark.parametrize(("said", "query"), [
    ("スタジオ通い放題メンバーシップはいつでも解約できますか？",
     "スタジオ通い放題メンバーシップ"),
    ("ルーメン・オンラインの月額メンバーシップに入りたい",
     "ルーメン・オンライン 月額メンバーシップ"),
    ("Folio Unlimitedの月額プランに申し込みたいです", "folio unlimited 月額プラン"),
])
def test_a_plans_acts_name_no_product_in_japanese(said: str, query: str) -> None:
    assert words.japanese_query(said) == query


def test_the_verbs_of_joining_name_no_product() -> None:
    assert words.content_words("ok sounds good, sign me up for it") == frozenset()


@pytest.mark.parametrize("said", [
    "I want to stop paying for the yoga thing", "take me off the folio plan",
    "get me off the membership", "I don't want to be billed anymore", "ne me facturez plus",
    "résiliez mon adhésion",
])
def test_billing_no_longer_wanted_ends_the_plan(said: str) -> None:
    assert understand(said)[0] == "sub_cancel"


@pytest.mark.parametrize("said", [
    "I'm thinking about cancelling my subscription", "thinking of pausing my plan",
    "je pense à résilier mon abonnement", "j'envisage de suspendre mon abonnement",
    "サブスクの解約を考えています",
])
def test_an_act_only_weighed_is_answered_never_done(said: str) -> None:
    assert understand(said)[0] == "policy"


@pytest.mark.parametrize("said", [
    "make it weekly",
    "can it be every two weeks instead",
    "switch to biweekly",
    "weekly instead",
    "passez-le en hebdomadaire",
    "毎週に変更して",
    "I want it every week",
    "I'd like it delivered weekly",
    "je voudrais le payer chaque semaine",
])
def test_a_billing_frequency_said_of_it_is_answered_never_a_count(said: str) -> None:
    assert understand(typed(said))[0] == "policy"


@pytest.mark.parametrize("said", [
    "make it 2", "make it the blue one", "make it a large", "I want the weekly planner",
    "put the Folio Unlimited monthly plan in my cart",
])
def test_a_count_an_option_or_a_plan_named_is_no_frequency(said: str) -> None:
    assert understand(typed(said))[0] != "policy"
