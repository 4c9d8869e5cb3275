"""Negation and questions that change nothing (issue 21, round 17): what a message keeps is
no part of what it removes; a refused option answers "which one?"; a number said as a thing
names an option; a correction never rewrites a refused value; a purchase held back still
fills the cart; a count priced is answered, never added; questions without a question mark
or asking whether a thing comes a certain way are questions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.held_purchase import refused_purchase
from commerce_agent.agent.language.kept_things import kept_clause, without_kept
from commerce_agent.agent.language.option_numbers import option_numbers
from commerce_agent.agent.language.refused_acts import refuses_an_act
from commerce_agent.agent.models.scripted import mind
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.priced_counts import count_priced, priced
from commerce_agent.agent.models.scripted.refused_options import refuses_an_option
from commerce_agent.agent.models.scripted.speech import asks_a_way, read_act
from tests.support.sample_items import sample_item

# -- what stays is not what goes ------------------------------------------------------------


@pytest.mark.parametrize(("said", "rest"), [
    ("I don't want the mug anymore, just the plates", "I don't want the mug anymore"),
    ("leave the plates, remove the mugs", "remove the mugs"),
    ("je veux plus le mug, juste les assiettes", "je veux plus le mug"),
    ("remove the teapot but keep the plates", "remove the teapot"),
    ("garde les assiettes, enlève le mug", "enlève le mug"),
])
def test_a_clause_naming_what_stays_is_cut_from_a_removal(said: str, rest: str) -> None:
    assert without_kept(said) == rest


@pytest.mark.parametrize("clause", ["leave out the plates", "leave it off", "laisse tomber",
                                    "just remove the mug", "remove the mugs"])
def test_letting_go_is_no_clause_of_what_stays(clause: str) -> None:
    assert not kept_clause(clause)


@pytest.mark.parametrize(("said", "removed"), [
    ("I don't want the mug anymore, just the plates", "mug"),
    ("leave the plates, remove the mugs", "mugs"),
    ("actually i dont want the teapot, only the mug", "teapot"),
])
def test_the_line_removed_is_the_one_let_go(said: str, removed: str) -> None:
    kind, text = understand(said)
    assert kind == "remove"
    assert removed in text
    assert "plate" not in text or removed == "plate"


# -- a refused option answers "which one?" ----------------------------------------------------

MUG = sample_item("item_classic_mug")
DIAVOLA = sample_item("item_pizza_diavola")


@pytest.mark.parametrize("said", ["not the blue one", "pas le bleu", "no, not cobalt",
                                  "nah not the 16 oz thanks", "青じゃない方"])
def test_refusing_one_of_the_options_offered(said: str) -> None:
    assert refuses_an_option(MUG, said)


@pytest.mark.parametrize("said", ["no thanks", "not now", "not that one", "pas pour le moment",
                                  "not the teapot"])
def test_a_plain_no_refuses_no_option(said: str) -> None:
    assert not refuses_an_option(MUG, said)


def test_a_refused_size_of_a_pizza_is_an_option() -> None:
    assert refuses_an_option(DIAVOLA, "not the 16")
    assert not refuses_an_option(None, "not the 16")


# -- numbers said as things ---------------------------------------------------------------------


@pytest.mark.parametrize(("said", "numbers"), [
    ("make it a 12", {"12"}), ("the 16 instead", {"16"}), ("no, the 12 please", {"12"}),
    ("not the 16, the 12", {"16", "12"}), ("make it 12", set()), ("add 2 plates", set()),
    ("a 12 inch one", {"12"}),
])
def test_a_number_said_as_a_thing(said: str, numbers: set[str]) -> None:
    assert option_numbers(said) == numbers


@given(st.integers(min_value=2, max_value=999))
def test_a_bare_count_is_never_an_option_number(count: int) -> None:
    assert option_numbers(f"make it {count}") == set()
    assert option_numbers(f"add {count} plates please") == set()


def test_a_correction_never_rewrites_the_value_refused() -> None:
    assert mind.corrected("no not the 16, make it a 12") == "no not the 16, make it a 12"
    assert mind.corrected("add 3 plates, no wait, make it 2") != "add 3 plates, no wait, make it 2"


# -- a purchase held back -------------------------------------------------------------------------


@pytest.mark.parametrize(("clause", "thing"), [
    ("don't buy the gyokuro yet", "the gyokuro"), ("dont order it yet", "it"),
    ("n'achète pas encore le gyokuro", "le gyokuro"), ("玉露はまだ買わないで", "玉露"),
    ("don't check out", ""),
])
def test_a_refusal_to_buy_now_names_its_thing(clause: str, thing: str) -> None:
    assert refused_purchase(clause) == thing


@pytest.mark.parametrize("clause", ["don't add the gyokuro", "i don't want the mug",
                                    "ne mets pas le mug"])
def test_other_refusals_are_not_a_purchase_held_back(clause: str) -> None:
    assert refused_purchase(clause) is None


@pytest.mark.parametrize("said", ["don't buy the gyokuro yet, just put it in my cart",
                                  "n'achète pas encore le gyokuro, mets-le dans mon panier",
                                  "玉露はまだ買わないで、カートに入れておいて"])
def test_held_back_the_thing_goes_in_the_cart(said: str) -> None:
    kind, text = understand(said)
    assert kind == "add"
    assert "gyokuro" in text.lower() or "玉露" in text


# -- prices for a count -------------------------------------------------------------------------

PLATE = sample_item("item_stoneware_dinner_plate")


@given(st.integers(min_value=2, max_value=99))
def test_a_count_priced_is_that_many_times_the_price(count: int) -> None:
    assert count_priced(PLATE, f"how much would {count} plates be") == count
    total = priced(PLATE, count)
    assert total == {"amount": f"{22 * count:.2f}", "currency": "USD"}


def test_a_price_asked_without_a_count_or_with_the_names_number() -> None:
    assert count_priced(PLATE, "how much is the dinner plate") is None
    assert count_priced(PLATE, "how much is the 27 cm plate") is None
    assert count_priced(PLATE, "add 3 plates") is None  # no price asked


def test_variants_at_several_prices_are_left_to_their_listing() -> None:
    assert priced(MUG, 3) is None


# -- questions in all forms -------------------------------------------------------------------


@pytest.mark.parametrize("said", ["can I get it gluten free?", "could I have that without olives",
                                  "can we get them in blue?"])
def test_asking_whether_it_comes_a_way(said: str) -> None:
    assert asks_a_way(said)
    assert read_act(said).kind == "question"
    assert understand(said)[0] not in ("add", "buy")


@pytest.mark.parametrize("said", ["can I get two margheritas?", "can i get it tomorrow?",
                                  "can I get it in my cart"])
def test_asking_for_a_thing_is_no_question_of_its_way(said: str) -> None:
    assert not asks_a_way(said)


@pytest.mark.parametrize("said", ["you guys still have the espresso cups",
                                  "u still got the celadon teapot", "you ship to canada",
                                  "vous livrez au canada"])
def test_a_question_in_statement_order_without_a_question_mark(said: str) -> None:
    assert read_act(said).kind == "question"
    assert understand(said)[0] not in ("add", "buy", "search")


def test_a_purchase_weighed_in_japanese_is_asked_about() -> None:
    assert understand("常滑の急須を買おうかなと思ってるんですが、何ml入りますか")[0] == "details"


# -- a verb of buying asked about ---------------------------------------------------------------


@pytest.mark.parametrize(("said", "asked"), [
    ("should I buy the gyokuro?", "details"), ("did you add the mug?", "cart"),
    ("why did you add the mug?", "cart"), ("aren't you adding the mug?", "details"),
    ("玉露は買わないの？", "details"), ("玉露を買ったほうがいいですか？", "details"),
    ("どうして追加したの？", "cart"), ("pourquoi tu as ajouté le mug ?", "cart"),
    ("je devrais acheter le gyokuro ?", "details"),
])
def test_a_question_about_buying_is_answered_never_done(said: str, asked: str) -> None:
    assert understand(said)[0] == asked


@pytest.mark.parametrize("said", ["add the mug?", "could you add the mug?", "buy the gyokuro?"])
def test_a_verb_said_first_is_still_a_request(said: str) -> None:
    assert understand(said)[0] in ("add", "buy")


# -- "no need to", tags typed bare, what happens if ------------------------------------------


@pytest.mark.parametrize("said", ["解約はしなくていいです", "返品しなくていい",
                                  "一時停止はしなくてもいいです"])
def test_no_need_to_in_japanese_does_nothing(said: str) -> None:
    assert understand(said)[0] == "no"


@pytest.mark.parametrize("said", ["it doesnt come with a gift box right",
                                  "the return is free correct", "shipping is 8.50 right"])
def test_a_tag_typed_without_comma_or_question_mark_asks(said: str) -> None:
    assert read_act(said).kind == "question"


def test_the_one_on_the_right_is_no_tag() -> None:
    assert read_act("add the one on the right").kind != "question"


@pytest.mark.parametrize("said", ["キャンセルしたらどうなりますか", "一時停止したらどうなる？",
                                  "返品したらどうなるの"])
def test_what_happens_if_asks_the_terms(said: str) -> None:
    assert understand(said)[0] == "policy"


# -- an act refused as a whole --------------------------------------------------------------------


@pytest.mark.parametrize("said", ["no tip thanks", "skip the tip", "pas de pourboire",
                                  "I don't want to check out yet", "no I dont want to pay now",
                                  "je ne veux pas encore passer commande", "キャンセルは結構です",
                                  "チップはなし", "返品は大丈夫です"])
def test_an_act_refused_as_a_whole_is_a_no(said: str) -> None:
    assert refuses_an_act(said)
    assert understand(said)[0] == "no"


@pytest.mark.parametrize("said", ["tip 10%", "I don't want to cancel, just tell me when it ships",
                                  "I don't want the mug anymore", "check out"])
def test_other_messages_refuse_no_act_as_a_whole(said: str) -> None:
    assert not refuses_an_act(said)


@pytest.mark.parametrize(("said", "asked"), [
    ("no thanks, is shipping free though", "policy"),
    ("don't sign me up yet, what does it cost", "details"),
    ("nah, how long does shipping take", "policy"),
])
def test_a_question_after_a_refusal_is_asked(said: str, asked: str) -> None:
    assert understand(said)[0] == asked


@pytest.mark.parametrize("said", ["no thanks", "nope, all good", "no, not now"])
def test_a_refusal_alone_stays_a_no(said: str) -> None:
    assert understand(said)[0] == "no"


@pytest.mark.parametrize("said", [
    "could I book a spot at the tea ceremony workshop on the 13th of March, the afternoon one?",
    "would I be able to order two plates?", "shall we order the teapot?"])
def test_a_modal_with_its_subject_asks_for_it(said: str) -> None:
    from commerce_agent.agent.language.doing_asked import doing_asked
    assert doing_asked(said) is None
