"""The French request-frame stage (language/request_frames.py): the verb and pronouns that ask
for a thing go, the count and the thing stay, and a frame of getting asks to add."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language.request_frames import asks_for, without_request_frame
from commerce_agent.agent.models.scripted.intents import understand

# Imperatives with their pronouns, statements with a modal or a verb of getting, in tu and
# vous, France, Belgium, Switzerland and Québec.
FRAMES = [
    "Envoyez-moi", "Mettez-m'en", "Rajoute-moi", "Donnez-nous", "Faites-moi parvenir",
    "Fais-moi livrer", "Sers-moi", "Apportez-nous", "Gardez-moi", "Pourriez-vous me mettre",
    "Peux-tu m'ajouter", "Pouvez-vous m'envoyer", "Je vais prendre", "Je vais vous prendre",
    "Je vais vous demander", "Il me faudrait", "Il me faut", "Ce serait pour", "Ce sera",
    "J'aurais besoin de", "Je prendrais bien", "Je vous prendrai", "Tu peux me mettre",
    "Vous pouvez m'envoyer", "J'voudrais", "Je voudrais bien", "On va prendre",
]
THINGS = ["deux tiramisus", "une salade César", "un kit de poterie pour débutant",
          "trois exemplaires de Practical Rust", "la carte de dix cours",
          "une planche à découper en bambou"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(FRAMES), st.sampled_from(THINGS))
def test_a_frame_goes_and_what_it_asks_for_stays(frame: str, thing: str) -> None:
    assert without_request_frame(f"{frame} {thing}") == thing
    assert asks_for(f"{frame} {thing}")


@pytest.mark.parametrize(("said", "kept"), [
    ("Mettez-m'en trois", "trois"),  # the count stays
    ("Mettez-le-moi dans le panier", "dans le panier"),
    ("Y a-t-il du matcha ?", "Y du matcha ?"),
    ("Est-ce que je pourrais avoir une théière", "Est-ce que une théière"),
])
def test_only_the_frame_goes(said: str, kept: str) -> None:
    assert without_request_frame(said) == kept


@pytest.mark.parametrize("said", [
    "Vous avez des assiettes plates ?",  # a bare "avez" / "a" / "est" asks for nothing
    "il a des mugs ?",
    "c'est une théière en grès",
    "Cache-pot suspendu, corde en jute",  # a hyphenated name is no imperative
    "la pizza est pour emporter",
    "I'd like the blue mug",
])
def test_words_that_frame_nothing_are_kept(said: str) -> None:
    assert without_request_frame(said) == said


@pytest.mark.parametrize("said", [
    "Pourriez-vous me dire si le mug va au lave-vaisselle ?",  # to be told, not to get
    "Vous avez des assiettes plates ?",
])
def test_a_frame_that_asks_to_be_told_asks_for_nothing(said: str) -> None:
    assert not asks_for(said)


@pytest.mark.parametrize("said", [
    "Faites-moi parvenir un kit de poterie pour débutant",
    "Ce serait pour une salade César",
    "J'aurais besoin d'un tapis de yoga",
    "Je vous prendrai un tapis de yoga",
])
def test_a_frame_of_getting_is_an_add(said: str) -> None:
    assert understand(said)[0] == "add"
