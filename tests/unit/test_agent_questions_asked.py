"""Questions answered, never executed (ask15): a question opened by discourse words ("ok so…")
or closed by its wh-word ("…ships when") is asked, and never reads as a yes to the offer on
the table; what the shopper owes so far is the cart; a code asked about is described, not
applied; a weekday's hours; « résilier » ends a plan; 「まだ売ってる？」 asks for stock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.codes import codes_asked_about
from commerce_agent.agent.language.hours import day_asked, hours_on
from commerce_agent.agent.models.scripted import topics
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act, without_discourse

_OPENERS = ["ok", "okay", "so", "and", "hmm", "alright", "well", "oh", "hey"]
_QUESTIONS = ["is the classic mug in stock", "what do i owe so far", "how much is the planter",
              "does the teapot have a strainer", "is it dishwasher safe"]


@given(st.lists(st.sampled_from(_OPENERS), min_size=1, max_size=3),
       st.sampled_from(_QUESTIONS), st.sampled_from(["", "?", " ?"]))
def test_discourse_words_before_a_question_never_make_it_a_yes(
        openers: list[str], question: str, end: str) -> None:
    said = " ".join(openers) + " " + question + end
    assert read_act(said).kind == "question"
    assert understand(said)[0] not in ("yes", "add", "buy", "checkout")


@pytest.mark.parametrize("said", ["ok", "ok add it", "yes please", "so add two mugs"])
def test_discourse_words_before_a_request_or_alone_change_nothing(said: str) -> None:
    assert read_act(said).kind in ("confirmation", "instruction")


def test_without_discourse_keeps_a_message_made_only_of_them() -> None:
    assert without_discourse("ok so is it in stock") == "is it in stock"
    assert without_discourse("ok") == "ok"


@pytest.mark.parametrize("said", ["the shincha ships when", "and the kit costs how much",
                                  "delivery takes how long?"])
def test_a_wh_word_last_asks(said: str) -> None:
    assert read_act(said).kind == "question"


@pytest.mark.parametrize("said", ["ok so what do i owe so far", "what's the damage",
                                  "je vous dois combien ?", "今いくら？"])
def test_what_is_owed_so_far_is_the_cart(said: str) -> None:
    assert understand(said)[0] == "cart"


@pytest.mark.parametrize(("said", "codes"), [
    ("is SUMMER2020 still valid", ("SUMMER2020",)),
    ("can you tell me what FIVEOFF does", ("FIVEOFF",)),
    ("OCHA10はまだ有効ですか", ("OCHA10",)),
    ("le code FIVEOFF marche encore ?", ("FIVEOFF",)),
    ("is the book EPUB or PDF", ()),
    ("is the 12oz mug in stock", ()),
    ("is b57b94 shipped", ()),
])
def test_the_codes_a_question_names(said: str, codes: tuple[str, ...]) -> None:
    assert codes_asked_about(said) == codes


def test_a_store_code_in_any_case_is_named() -> None:
    assert codes_asked_about("does fiveoff work", frozenset({"FIVEOFF"})) == ("FIVEOFF",)


@pytest.mark.parametrize("said", ["is SUMMER2020 still valid", "does FIVEOFF still work?",
                                  "would it be cheaper with WELCOME10?",
                                  "OCHA10はまだ有効ですか", "le code FIVEOFF marche encore ?"])
def test_a_code_asked_about_is_described_never_applied(said: str) -> None:
    assert understand(said)[0] == "discounts"


def test_the_weekday_a_question_names() -> None:
    assert day_asked("are you open on sundays") == 6
    assert day_asked("vous etes ouverts le mardi") == 1
    assert day_asked("緑堂さんは火曜日何時から") == 1
    assert day_asked("est-ce que mon magasin ouvre") is None  # « mon » is "my"
    assert day_asked("open sat and sun?") is None


def test_hours_on_a_day_wrap_round_the_week_and_say_closed() -> None:
    assert hours_on(["We-Mo 10:30-18:30"], 1) is None
    assert hours_on(["We-Mo 10:30-18:30"], 0) == ("10:30", "18:30")
    assert hours_on(["Tu-Sa 10:00-18:00", "Su 11:00-16:00"], 6) == ("11:00", "16:00")
    assert hours_on(["by appointment"], 2) is False


def test_resilier_ends_a_plan_and_asked_how_is_a_question() -> None:
    assert understand("résilier mon abonnement")[0] == "sub_cancel"
    assert understand("et pour résilier plus tard, ça se passe comment ?")[0] == "policy"


def test_still_sold_asks_for_stock() -> None:
    assert topics.topic("楽焼の抹茶碗ってまだ売ってる？") == topics.Topic("stock", "item")
    assert topics.topic("do you still sell the raku bowl?") == topics.Topic("stock", "item")


@pytest.mark.parametrize("said", ["did I add the mug already?", "have I put the plates in?",
                                  "est-ce que j'ai ajouté le mug ?"])
def test_a_past_act_of_shopping_asked_about_is_the_cart(said: str) -> None:
    assert understand(said)[0] == "cart"


def test_the_last_one_asked_about_is_stock_but_pointing_at_it_is_not() -> None:
    assert topics.topic("yes, is it the last one?") == topics.Topic("stock", "item")
    assert topics.topic("how much is the last one?") != topics.Topic("stock", "item")


def test_a_day_then_doing_business_asks_the_hours() -> None:
    assert understand("トラットリア・フィアンマは月曜日やってますか")[0] == "policy"
    assert understand("ギフト包装やってますか")[0] != "policy"


@pytest.mark.parametrize("said", ["cancelling - how does that work",
                                  "pausing my plan, is that a thing",
                                  "l'annulation, ça marche comment"])
def test_a_question_after_its_topic_is_answered_never_done(said: str) -> None:
    assert read_act(said).kind == "question"
    assert understand(said)[0] == "policy"


def test_a_topic_said_as_an_order_then_asked_politely_stays_a_request() -> None:
    assert read_act("cancel my order, can you do that").kind != "question"


def test_codes_asked_about_together_stay_with_the_code_stage() -> None:
    assert understand("READMORE15 and FOLIO3 together?")[0] != "discounts"


@pytest.mark.parametrize("said", ["a margherita at 7, is that ok", "two mugs, is that possible",
                                  "would be great if you could add two mugs",
                                  "should be fine, check out", "do this one in blue"])
def test_requests_with_a_question_tail_or_a_modal_stay_requests(said: str) -> None:
    assert read_act(said).kind != "question"


def test_a_code_asked_whether_applied_stays_with_the_cart() -> None:
    assert understand("did FIVEOFF go through? was it applied")[0] != "discounts"


def test_a_yes_said_outright_then_a_question_still_says_yes() -> None:
    assert understand("yes, is it dishwasher safe?")[0] == "yes"
    assert understand("sure, but how many cups does it make")[0] != "yes"
