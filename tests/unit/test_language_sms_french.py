"""French typed as text messages, written out before any stage reads it
(language/sms_french.py): shorthands with one reading always, the others only beside French
words and where the word they stand for goes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.sms_french import ALWAYS, spelled_out


@pytest.mark.parametrize(("typed", "read"), [
    ("cb ca coute le dripper", "combien ca coute le dripper"),
    ("slt cb coute l assiette", "slt combien coute l assiette"),
    ("ca fait cb en tout", "ca fait combien en tout"),
    ("c bon je commande", "c'est bon je commande"),
    ("c combien la theiere ?", "c'est combien la theiere ?"),
    ("ok c parti", "ok c'est parti"),
    ("g un code: FIVEOFF", "j'ai un code: FIVEOFF"),
    ("g pas recu ma commande", "j'ai pas recu ma commande"),
    ("vs avez des bols ?", "vous avez des bols ?"),
    ("commande tt de suite", "commande tout de suite"),
    ("2 tiramisus pr moi stp", "2 tiramisus pour moi stp"),
    ("qd est ce que ca arrive", "quand est ce que ca arrive"),
    ("pk c si cher", "pourquoi c'est si cher"),
    ("Qd est-ce que ça part ?", "Quand est-ce que ça part ?"),
])
def test_shorthands_are_written_out(typed: str, read: str) -> None:
    assert spelled_out(typed) == read


@pytest.mark.parametrize("typed", [
    "je paie par cb",  # a bank card, not « combien »
    "payer avec ma cb",
    "size c please",  # a size, in English
    "the vs one",
    "compare the mug vs the cup",
    "tt",  # nothing French around it
    "add 2 mugs",
    "玉露を2つ",
])
def test_what_is_no_shorthand_stays(typed: str) -> None:
    assert spelled_out(typed) == typed


@given(st.sampled_from(sorted(ALWAYS)), st.sampled_from(["", "ok ", "bon "]),
       st.sampled_from(["", " ?", " stp"]))
def test_a_one_reading_shorthand_is_written_out_anywhere(short: str, before: str,
                                                         after: str) -> None:
    assert spelled_out(f"{before}{short}{after}") == f"{before}{ALWAYS[short]}{after}"
