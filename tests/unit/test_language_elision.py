"""French typed without its apostrophes and hyphens, and French questions asked in the
negative: two passes of the normalize stage (language/elision.py,
language/negative_questions.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent.agent.language.elision import restored
from commerce_agent.agent.language.negative_questions import asked_plainly


@pytest.mark.parametrize(("typed", "read"), [
    ("jen prends deux", "j'en prends deux"),
    ("jai un code promo", "j'ai un code promo"),
    ("j ai un code promo", "j'ai un code promo"),
    ("Jaimerais echanger le mug", "J'aimerais echanger le mug"),
    ("cest combien", "c'est combien"),
    ("c est combien", "c'est combien"),
    ("daccord je le prends", "d'accord je le prends"),
    ("quest-ce que cest", "qu'est-ce que c'est"),
    ("vous n auriez pas de tasses", "vous n'auriez pas de tasses"),
    ("ya des assiettes ?", "il y a des assiettes ?"),
    ("y a t il du matcha", "y a-t-il du matcha"),
    ("tas des theieres ?", "t'as des theieres ?"),
    ("jla prends", "je la prends"),
    ("jveux annuler", "je veux annuler"),
    ("mets men deux", "mets-m'en deux"),
    ("mets ca dans mon panier", "mets ça dans mon panier"),
    ("ca fait combien en tout ?", "ça fait combien en tout ?"),
    ("abonne moi a folio", "abonne-moi a folio"),
    ("mets le en pause stp", "mets-le en pause stp"),
    ("sil vous plait", "s'il vous plait"),
    ("une dizaine d assiettes", "une dizaine d'assiettes"),
    ("l assiette plate", "l'assiette plate"),
    ("ouverts aujourd hui ?", "ouverts aujourd'hui ?"),
])
def test_french_elisions_are_written_out(typed: str, read: str) -> None:
    assert restored(typed) == read


@pytest.mark.parametrize("typed", [
    "55 Water Street, Brooklyn, NY 11201",  # no « n'y »
    "1 Main St, Sacramento, CA 95814",  # California, no « ça »
    "12 N Elm St", "ya", "ya sure", "yeah ya add it", "ten mugs", "the men's mug",
    "quelle couleur", "tes assiettes", "mets le mug dans le panier", "passe la commande",
    "chez moi", "jute", "Jaune", "un jean", "茶筅をカートに入れて", "I d like a mug", "apt d east",
])
def test_words_that_are_words_as_typed_stay(typed: str) -> None:
    assert restored(typed) == typed


_ENGLISH = st.lists(st.sampled_from(
    "add the a mug plates to my cart please ship it NY CA TX 11201 N S Elm St yes no ya "
    "ten men cancel order teapot two three and check out".split()), max_size=12)


@given(_ENGLISH)
def test_english_is_never_touched(words: list[str]) -> None:
    text = " ".join(words)
    assert restored(text) == text


@pytest.mark.parametrize(("typed", "read"), [
    ("vous auriez pas des mugs ?", "vous avez des mugs ?"),
    ("vous n'avez pas de théière ?", "vous avez des théière ?"),
    ("tu as pas de tasses ?", "tu as des tasses ?"),
    ("t'as pas de tasses", "tu as des tasses"),
    ("vous vendez plus de cache-pots ?", "vous avez des cache-pots ?"),
    ("il y a pas de matcha ?", "il y a des matcha ?"),
    ("il n'y a plus de thé ?", "il y a des thé ?"),
])
def test_a_question_in_the_negative_is_asked_plainly(typed: str, read: str) -> None:
    assert asked_plainly(typed) == read


@pytest.mark.parametrize("typed", [
    "il n'y a pas de tasses dans ma commande",  # says something is missing: no "?"
    "une pizza, pas d'olives", "sans olives svp", "je ne veux pas de coffret",
    "vous avez des mugs ?",
])
def test_other_negations_stay(typed: str) -> None:
    assert asked_plainly(typed) == typed


@pytest.mark.parametrize(("typed", "read"), [
    ("cest ou ma commande la", "c'est ou ma commande la"),  # « là », after a noun: no order
    ("ma commande la elle arrive quand", "ma commande la elle arrive quand"),
    ("commande la stp", "commande-la stp"),
    ("enleves-en une", "enleve-en une"),
    ("rajoutes-en deux", "rajoute-en deux"),
    ("vas-y", "vas-y"),
])
def test_a_verb_after_a_determiner_is_a_noun_and_an_imperative_keeps_its_s_apart(
        typed: str, read: str) -> None:
    assert restored(typed) == read
