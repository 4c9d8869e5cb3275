"""French and Japanese shoppers' questions, reasons and requests read by their class: « où »
said in place, a greeting before a question, a reason said in the negative beside a return,
a kind within a price limit asked for politely (models/scripted/speech.py, intents.py)."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.typed import typed


@pytest.mark.parametrize(("said", "kind"), [
    ("cest ou ma commande la", "status"),
    ("c'est où ma commande", "status"),
    ("elle en est ou ma commande", "status"),
    ("slt cb coute l assiette en gres stp", "details"),
    ("bonjour, combien coute l'assiette", "details"),
    ("jveux retourner le mug il me plait pas", "return"),
    ("je veux renvoyer la tasse elle est pas belle", "return"),
    ("気に入らないので急須を返品したい", "return"),
    ("un livre a moins de vingt euros svp", "search"),
    ("a book under 20 euros please", "search"),
    ("add a mug under 25", "add"),
    ("c bon jcommande", "checkout"),
    ("commande tt de suite", "checkout"),
])
def test_each_class_is_read_for_what_it_asks(said: str, kind: str) -> None:
    assert understand(typed(said))[0] == kind


@pytest.mark.parametrize("said", ["je veux pas le mug", "c'est le bleu ou le blanc que tu veux"])
def test_what_is_no_question_or_reason_stays_as_it_was(said: str) -> None:
    assert understand(typed(said))[0] not in ("status", "details", "return")
