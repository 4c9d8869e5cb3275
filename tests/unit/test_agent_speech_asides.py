"""What the shopper does with the sentence (scripted/speech.py, requests.py, plan_verbs.py):
a dismissal opening an instruction declines nothing, a negated aside with its own subject is
not the instruction's negation, a tag question asks, and request verbs outside the plain ones
(enrol, reinstate, « mettre en veille », 「お休み」, "get me on", "give CODE a go") are read as
the acts they name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language.codes import read_code
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import dismissed, read_act, tagged

_DISMISSALS = ["never mind", "ugh never mind", "meh forget it", "oh whatever", "nah scrap that"]
_ACTS = [("clear the whole cart", "empty"), ("empty my basket", "empty"),
         ("cancel my order", "cancel"), ("cancel my membership", "sub_cancel"),
         ("pause my subscription", "sub_pause")]
_ASIDES = ["i dont have time for it", "i don't need it anymore", "i never use it",
           "we don't go any more"]


@settings(deadline=None)
@given(st.sampled_from(_DISMISSALS), st.sampled_from(_ACTS))
def test_a_dismissal_opening_an_act_leaves_the_act(dismissal: str, act: tuple[str, str]) -> None:
    said, kind = act
    assert dismissed(f"{dismissal} {said}") == said
    assert understand(f"{dismissal} {said}")[0] == kind


@pytest.mark.parametrize("text", ["never mind", "forget it", "nah"])
def test_a_dismissal_alone_is_still_a_no(text: str) -> None:
    assert understand(text)[0] == "no"


@settings(deadline=None)
@given(st.sampled_from(_ACTS), st.sampled_from(_ASIDES))
def test_a_negated_aside_is_not_the_instructions_negation(act: tuple[str, str],
                                                          aside: str) -> None:
    said, kind = act
    assert understand(f"{said} {aside}")[0] == kind


@pytest.mark.parametrize("text", ["I don't want the planter", "don't add it",
                                  "don't cancel my order"])
def test_a_negated_instruction_stays_negated(text: str) -> None:
    assert understand(text)[0] not in ("add", "cancel", "sub_cancel")


@pytest.mark.parametrize("text", [
    "the distributed systems book is a download, right?",
    "the rust bundle comes with the paperback too doesn't it",
    "is the python patterns book a pdf or what",
    "le livre Sourdough Year c'est un pdf ou quoi",
    "l'abonnement est mensuel, non ?",
    "玄米茶は200グラムですよね",
])
def test_a_tagged_statement_is_a_question(text: str) -> None:
    assert read_act(text).kind == "question"
    assert understand(text)[0] not in ("add", "buy", "book", "subscribe", "checkout")


@pytest.mark.parametrize("text", ["add the mug, no", "yes", "add two, right away"])
def test_an_instruction_is_no_tag_question(text: str) -> None:
    assert not tagged(text)


@pytest.mark.parametrize(("text", "kind"), [
    ("please enrol me in the folio unlimited plan", "subscribe"),
    ("register me for the unlimited studio membership", "subscribe"),
    ("je voudrais adhérer à Folio Unlimited", "subscribe"),
    ("reinstate my membership please", "sub_resume"),
    ("ok sign me back up", "sub_resume"),
    ("take my plan off hold", "sub_resume"),
    ("remettez mon abonnement en marche", "sub_resume"),
    ("mets mon abonnement en veille", "sub_pause"),
    ("メンバーシップをしばらくお休みしたい", "sub_pause"),
    ("get me on the sound bath workshop on 23 January at 4pm", "book"),
    ("count me in for the sound bath workshop on 23 january at 4pm", "book"),
    ("the vinyasa drop-in, 13 January, 7am", "book"),
])
def test_request_verbs_by_language(text: str, kind: str) -> None:
    assert understand(text)[0] == kind


@pytest.mark.parametrize("text", ["give FOLIO3 a go", "colle FOLIO3 dessus", "FOLIO3をつけて",
                                  "stick FOLIO3 on it"])
def test_a_code_with_an_everyday_verb(text: str) -> None:
    reading = read_code(text)
    assert reading.codes == ("FOLIO3",)
    assert reading.rest == ""
