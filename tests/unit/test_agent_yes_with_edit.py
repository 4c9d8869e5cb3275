"""A yes that changes something (scripted/yes_with_edit.py), and the closings and confirmations
around the approval step: the checkout said in the shopper's words, "it's fine, go ahead" in
Japanese, the shopper's own resolve ("I'll take it")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.checkout_acts import read_checkout
from commerce_agent.agent.language.closing import concludes_it, resolves_on_it
from commerce_agent.agent.models.scripted import choices, sequence, words, yes_with_edit
from commerce_agent.agent.models.scripted.assent import acclaims, classify, goes_ahead
from commerce_agent.agent.models.scripted.intents import understand

_YES = ["yes", "yeah ok", "sure", "ok", "alright", "oui", "d'accord", "ouais"]
_BUT = ["but", "mais", "just", ""]


@given(st.sampled_from(_YES), st.sampled_from(_BUT), st.integers(min_value=1, max_value=40))
def test_a_yes_with_a_count_alone_is_that_count_then_the_order(yes: str, but: str,
                                                               count: int) -> None:
    said = f"{yes}, {but} {count} of them".replace("  ", " ")
    assert yes_with_edit.count_alone(said) == count
    assert yes_with_edit.edit_then_order("yes", said) == (
        "quantity", f"make it {count}, then check out")


@pytest.mark.parametrize(("said", "count"), [
    ("yeah ok, but 3 of them", 3), ("oui mais trois", 3), ("yes, 2 please", 2),
    ("はい、でも3つにしてください", 3), ("うん、2個で", 2)])
def test_counts_said_with_a_yes_in_each_language(said: str, count: int) -> None:
    assert yes_with_edit.count_alone(said) == count


@pytest.mark.parametrize("said", ["yes, the blue one", "ok but 2 teapots", "yes",
                                  "sure, add a tiramisu", "はい、抹茶を2つ"])
def test_a_count_beside_a_thing_named_is_no_count_alone(said: str) -> None:
    assert yes_with_edit.count_alone(said) is None


@pytest.mark.parametrize(("kind", "said", "wanted"), [
    ("quantity", "yes but make it 2", ("quantity", "make it 2, then check out")),
    ("quantity", "yes but the blue one", ("quantity", "yes but the blue one, then check out")),
    ("remove", "yes but remove the mug", ("remove", "yes but remove the mug, then check out")),
    ("add", "ok but add a tiramisu too", ("buy", "ok but add a tiramisu too")),
    ("yes", "yes", None), ("search", "yes, show me mugs", None)])
def test_the_edit_a_yes_makes_before_the_order_again(kind: str, said: str,
                                                     wanted: tuple[str, str] | None) -> None:
    assert yes_with_edit.edit_then_order(kind, said) == wanted


@pytest.mark.parametrize(("said", "wanted"), [
    ("sure, make it 4", "yes"), ("yes, 3 please", "yes"),
    ("sure, make it 4 then go ahead", "buy"), ("ok 3, and check out", "buy"),
    ("sure, two, and go ahead, pickup", "buy"), ("no, 3", None), ("3", None)])
def test_a_count_answering_the_offer(said: str, wanted: str | None) -> None:
    kind = "quantity" if wanted != "buy" or "make it" in said else "yes"
    assert yes_with_edit.count_for_the_offer(kind, said) == wanted


@pytest.mark.parametrize(("rest", "wanted"), [("yes", True), ("", True), ("yes but, first", True),
                                              ("はい", True), ("and a tiramisu", False)])
def test_only_a_yes_beside_a_code(rest: str, wanted: bool) -> None:
    assert yes_with_edit.only_a_yes(rest) is wanted


@pytest.mark.parametrize("said", [
    "I think that's it", "I guess that's everything", "all set, let's get this ordered",
    "changed my mind, place it after all", "let's get it done"])
def test_checking_out_in_the_shoppers_words(said: str) -> None:
    assert understand(said)[0] == "checkout"


@pytest.mark.parametrize("said", ["place it after all", "order it anyway", "ok buy it"])
def test_getting_what_is_in_view(said: str) -> None:
    assert concludes_it(said)


@pytest.mark.parametrize("said", ["I'll take it", "lovely, I'll take it", "we'll buy them",
                                  "let me get it", "ok I'll order it after all"])
def test_the_shoppers_resolve_about_what_is_in_view(said: str) -> None:
    assert resolves_on_it(said)
    assert not concludes_it(said)  # to an offer, it takes the offer (the dialogue state's)


@pytest.mark.parametrize("said", ["I'll take a look", "I'll take two", "I won't take it",
                                  "no, I'll take it later"])
def test_resolve_about_something_else_is_not_it(said: str) -> None:
    assert not resolves_on_it(said)


@pytest.mark.parametrize("said", ["let's get this ordered", "get it ordered please",
                                  "get everything paid for"])
def test_the_order_as_the_result_wanted_concludes(said: str) -> None:
    assert read_checkout(said).concludes


@pytest.mark.parametrize("said", ["大丈夫です、お願いします", "問題ないです、お願いします",
                                  "大丈夫、それでお願いします"])
def test_its_fine_before_a_request_to_go_on_is_a_yes(said: str) -> None:
    assert classify(said).act == "confirm"


@pytest.mark.parametrize("said", ["大丈夫です", "大丈夫です、ありがとう", "今はいいです"])
def test_its_fine_alone_is_still_no_thanks(said: str) -> None:
    assert classify(said).act == "decline"


@pytest.mark.parametrize("said", ["これでお願いします", "それでいいです", "それでお願い"])
def test_with_this_please_goes_ahead(said: str) -> None:
    assert goes_ahead(said)


@pytest.mark.parametrize("said", ["add a tiramisu first", "no, add a tiramisu first",
                                  "make it 2 first, then pay", "remove the mug first and pay"])
def test_first_as_when_picks_nothing(said: str) -> None:
    assert words.ordinal(said) is None


@pytest.mark.parametrize("said", ["the first", "first", "first one please", "the first one",
                                  "I'll take the first", "le premier"])
def test_first_as_which_still_picks(said: str) -> None:
    assert words.ordinal(said) == 0


def test_an_edit_the_state_read_is_served_before_the_checkout() -> None:
    said = "yes but the cobalt blue 16 oz one, then check out"
    assert sequence.concluded(said) is None  # the words alone name no edit
    assert sequence.concluded(said, "quantity") == ("yes but the cobalt blue 16 oz one",
                                                     "check out")


@pytest.mark.parametrize("said", ["sweet", "Sweet!", "oh nice, thanks", "nice one", "top merci",
                                  "trop bien", "最高！"])
def test_praise_alone_applauds(said: str) -> None:
    assert acclaims(said)


@pytest.mark.parametrize("said", ["something sweet", "sweet tea", "anything sweet for dessert?",
                                  "a nice mug"])
def test_praise_beside_a_thing_is_no_praise(said: str) -> None:
    assert not acclaims(said)


@pytest.mark.parametrize(("said", "count"), [
    ("yep, a couple", 2), ("sure, half a dozen", 6), ("ok, a pair", 2),
    ("yeah a couple of them", 2), ("oui, une douzaine", 12)])
def test_count_words_beside_a_yes_are_the_count(said: str, count: int) -> None:
    assert yes_with_edit.count_alone(said) == count


_PLANTER = words.content_words("Hanging Planter with Jute Cord")


@pytest.mark.parametrize(("said", "other"), [
    ("yes and also 2 dinner plates", "2 dinner plates"), ("sure, and a teapot too", "a teapot too"),
    ("oui, et aussi un tiramisu", "un tiramisu")])
def test_a_yes_naming_another_thing_asks_for_both(said: str, other: str) -> None:
    assert yes_with_edit.another_thing(said, _PLANTER) == other


@pytest.mark.parametrize("said", ["yes please", "yep, a couple", "sure, the cheaper one",
                                  "yes, the large one", "yes, the blue 16 oz one",
                                  "sure, the planter", "yes please, lovely"])
def test_a_yes_naming_only_the_offered_thing_or_its_options_names_no_other(said: str) -> None:
    assert yes_with_edit.another_thing(said, _PLANTER) is None


@pytest.mark.parametrize(("said", "kept"), [
    ("no but add 2 dinner plates", "no but add 2 dinner plates"),
    ("no thanks, but 2 dinner plates", "no thanks, but 2 dinner plates"),
    ("the kyusu, no gift wrap", "the kyusu,  ")])
def test_a_no_opening_another_request_declines_nothing_of_it(said: str, kept: str) -> None:
    assert choices.without_declined(said) == kept
