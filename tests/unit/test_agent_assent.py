"""The speech act of a reply to an offer (scripted/assent.py), the offer it answers
(scripted/offers.py), and another time for a turned-down booking."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.models.scripted import offers
from commerce_agent.agent.models.scripted.assent import classify
from commerce_agent.agent.models.scripted.intents import Frame, understand
from commerce_agent.operations.policy import REJECTED

_ASSENT = ["yes", "yep", "sure", "ok", "okay", "alright", "fine", "sounds good", "go ahead",
           "go for it", "do it", "let's do it", "please proceed", "why not", "👍",
           "oui", "d'accord", "vas-y", "allez-y", "pourquoi pas", "ça marche"]
_REFUSAL = ["no", "nah", "nope", "not now", "no thanks", "maybe later", "I changed my mind",
            "never mind", "I'll pass", "non merci", "pas maintenant", "laisse tomber",
            "j'ai changé d'avis", "👎"]
_POLITE = ["please", "thanks", "thank you", "then", "merci", "s'il vous plaît"]
_HEDGES = ["hmm", "well", "um", "actually", "euh", "bon"]
_ENDS = ["", "!", ".", " :)", " 🙂"]


@pytest.mark.parametrize("said", [
    "sure, go ahead", "yep do it", "sounds good", "ok fine", "let's do it!", "please proceed",
    "👍", "that would be great, thanks", "no problem, go ahead", "oui, vas-y",
    "d'accord, allez-y", "ok, pourquoi pas", "はい、お願いします", "それでお願いします",
    "いいですね、ください", "うん、それにする", "OKです", "okey", "yesss", "ok 👍",
    # Québec, Belgium, Switzerland
    "c'est correct", "ouais c'est beau", "ça roule", "ça joue", "nickel", "c'est correct, "
    "mets-la dans mon panier"])
def test_everyday_confirmations(said: str) -> None:
    assert classify(said).act == "confirm"


@pytest.mark.parametrize("said", [
    "nah", "not now", "I changed my mind", "nope, changed my mind", "no thanks, that's all",
    "nah, not for me", "not ok", "I'll pass, thanks", "non merci", "pas maintenant",
    "やめておきます", "結構です", "いえ、今はいいです", "いいえ", "no, that's fine",
    "not at the moment", "non, pas pour l'instant", "I don't think so", "no I don't want it",
    "いや、いいです", "nooo", "non attends", "finalement non", "en fait non"])
def test_everyday_refusals(said: str) -> None:
    assert classify(said).act == "decline"


@pytest.mark.parametrize("said", ["hmm, how much is shipping?", "is it dishwasher safe?",
                                  "combien coûte la livraison ?", "送料はいくらですか？"])
def test_a_hedged_question_is_a_question(said: str) -> None:
    assert classify(said).act == "question"


@pytest.mark.parametrize("said", ["maybe", "I'm not sure", "hmm", "je ne sais pas"])
def test_a_hedge_is_neither_yes_nor_no(said: str) -> None:
    assert classify(said).act == "other"


@pytest.mark.parametrize("said", [
    "yes, cancel it", "yes please add two", "no, the blue one", "ok the cobalt blue 12 oz then",
    "no, cancel my order", "non, ajoute deux", "はい、2つください", "je passe commande",
    "I don't want it anymore", "je n'en veux plus"])
def test_a_yes_or_no_that_asks_for_more_is_an_instruction(said: str) -> None:
    assert classify(said).act == "instruction"


@given(st.lists(st.sampled_from(_HEDGES), max_size=1), st.sampled_from(_ASSENT),
       st.lists(st.sampled_from(_POLITE), max_size=2), st.sampled_from(_ENDS))
def test_any_assent_with_hedges_and_politeness_confirms(hedge: list[str], assent: str,
                                                         polite: list[str], end: str) -> None:
    said = ", ".join([*hedge, assent, *polite]) + end
    assert classify(said).act == "confirm", said


@given(st.lists(st.sampled_from(_HEDGES), max_size=1), st.sampled_from(_REFUSAL),
       st.lists(st.sampled_from(_POLITE), max_size=2), st.sampled_from(_ENDS))
def test_any_refusal_with_hedges_and_politeness_declines(hedge: list[str], refusal: str,
                                                          polite: list[str], end: str) -> None:
    said = ", ".join([*hedge, refusal, *polite]) + end
    assert classify(said).act == "decline", said


@given(st.sampled_from(["not", "don't", "pas"]),
       st.sampled_from(["ok", "sure", "good", "fine", "d'accord"]))
def test_a_negated_yes_is_no_yes(negator: str, assent: str) -> None:
    assert classify(f"{negator} {assent}").act != "confirm"


@given(st.sampled_from(_ASSENT + _REFUSAL),
       st.sampled_from(["the blue one", "two of them", "cancel my order", "the 16 oz",
                        "ship it to 1 Main St", "3", "le bleu"]))
def test_a_yes_or_no_with_something_else_said_is_never_a_bare_answer(answer: str,
                                                                      more: str) -> None:
    assert classify(f"{answer}, {more}").act not in ("confirm", "decline")


@given(st.sampled_from(["yes", "ok", "no", "nope", "oui", "non"]), st.integers(2, 5))
def test_a_stretched_yes_or_no_reads_as_typed_once(word: str, times: int) -> None:
    stretched = word[:-1] + word[-1] * times
    assert classify(stretched).act == classify(word).act


@given(st.text(max_size=40))
def test_any_message_reads_as_one_act(said: str) -> None:
    assert classify(said).act in ("confirm", "decline", "question", "instruction", "other")


@pytest.mark.parametrize(("said", "intent"), [
    ("don't add it to my cart, I just want the price of the teapot", "details"),
    ("don't cancel it, just tell me when it ships", "status"),
    ("ne l'annulez pas, dites-moi seulement quand elle arrive", "status"),
    ("a lasagna bolognese, no garlic bread", "add"),
    ("a margherita, not the 16 inch, the 12 inch", "add")])
def test_an_action_said_not_to_be_done_is_never_read(said: str, intent: str) -> None:
    assert understand(said)[0] == intent


def test_a_hedge_or_a_no_leaves_the_offer_and_a_later_yes_takes_it() -> None:
    offer = Frame("add", ("add it",))
    assert offers.taken_up(offer, offer, "policy", "question") == (offer, offer)
    assert offers.taken_up(None, offer, "no", "refusal") == (None, offer)
    assert offers.taken_up(Frame("no", ("nah",)), offer, "yes", "confirmation") == (offer, None)
    other = Frame("search", ("show me mugs",))
    assert offers.taken_up(other, offer, "search", "instruction") == (other, None)


def test_a_turned_down_order_is_offered_again_as_its_checkout() -> None:
    buying = Frame("buy", ("buy the glaze mug",))
    rejected = {"code": REJECTED, "changed": False}
    offered = offers.after_rejection("place_order", rejected, buying, None)
    assert offered is not None and offered.intent == "checkout"
    assert offers.order_turned_down(offered)
    cancelling = Frame("cancel", ("cancel my order",))
    assert offers.after_rejection("cancel_order", rejected, cancelling, None) == cancelling
    assert offers.after_rejection("place_order", {"code": "out_of_stock"}, buying, None) is None


def _workshop() -> dict[str, Any]:
    slots = [("slot_a_1000", "2027-03-13T10:00:00+09:00", True),
             ("slot_a_1400", "2027-03-13T14:00:00+09:00", True),
             ("slot_b_1400", "2027-04-03T14:00:00+09:00", True)]
    return {"itemId": "item_w", "name": "Workshop", "metadata": {
        "dev.commerce.service.scheduling": {"timeSlots": [
            {"id": key, "startTime": start, "available": free} for key, start, free in slots]}}}


@pytest.mark.parametrize("said", ["the 2pm then", "plutôt 14h", "14時で", "2:00 pm instead"])
def test_another_time_is_read_on_the_booked_day_first(said: str) -> None:
    cart = {"cartId": "cart_1", "items": [
        {"cartItemId": "line_1", "itemId": "item_w", "quantity": 1, "timeSlotId": "slot_a_1000"}]}
    found = offers.other_slot([cart], {"item_w": _workshop()}, said)
    assert found is not None and found[2].id == "slot_a_1400"


def test_no_time_named_is_no_other_slot() -> None:
    cart = {"cartId": "cart_1", "items": [
        {"cartItemId": "line_1", "itemId": "item_w", "quantity": 1, "timeSlotId": "slot_a_1000"}]}
    assert offers.other_slot([cart], {"item_w": _workshop()}, "ok fine") is None


# A reply that puts the offer off ("hold off", "I'll decide later", « je vais attendre »,
# 「後にします」) is a no to it now, in every language; a strong yes word negated after it
# ("absolutely not", « certainement pas ») is a no, never the yes it opens with.
@pytest.mark.parametrize("said", [
    "hold off", "let's hold off for now", "I'd rather wait", "not just yet", "I'll decide later",
    "maybe some other day", "nothing for now", "I'll come back later", "let me sleep on it",
    "absolutely not", "definitely not", "of course not", "no — not now",
    "je vais attendre", "pas encore", "absolument pas", "certainement pas", "on verra",
    "やめて", "後にします", "また今度にします", "ちょっと考えます", "まだいいです"])
def test_putting_the_offer_off_is_a_refusal(said: str) -> None:
    assert classify(said).act == "decline"


@pytest.mark.parametrize("said", ["you bet", "mhm", "uh huh", "y", "right", "for sure",
                                  "sorry, misclicked - yes please", "oui oui", "c'est ça",
                                  "はーい", "うんうん"])
def test_short_and_spoken_yeses(said: str) -> None:
    assert classify(said).act == "confirm"


@given(st.sampled_from([word for word in _ASSENT if word.isascii()]),
       st.sampled_from(["not", "pas"]))
def test_a_yes_word_negated_right_after_is_never_a_yes(yes: str, negator: str) -> None:
    assert classify(f"{yes} {negator}").act != "confirm"
