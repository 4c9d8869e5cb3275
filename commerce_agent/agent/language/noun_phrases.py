"""The head of a French noun phrase: the thing it names.

French names the thing first and describes it after: « planche à découper en bambou » is a
board (« à découper », « en bambou » say which), « tasse à café en grès bleu » a cup, « pot de
confiture » a pot, « coffret de trois thés » a box. So the head of a request's product words,
read in order once the frame, articles and links (« à », « de », « en », « pour ») are gone,
is the first word that is no adjective placed before its noun (« petite théière », « grand
saladier »: the teapot, the bowl); every word after it is a modifier. English puts its head
last and Japanese too, so this reading is French only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The adjectives French places before the noun (folded, every gender and number).
_BEFORE_THE_NOUN = frozenset("""
petit petite petits petites grand grande grands grandes gros grosse grosses bon bonne bons
bonnes beau bel belle beaux belles joli jolie jolis jolies nouveau nouvel nouvelle nouveaux
nouvelles vieux vieil vieille vieilles jeune jeunes long longue longs longues haut haute hauts
hautes mauvais mauvaise mauvaises meilleur meilleure meilleurs meilleures premier premiere
premiers premieres dernier derniere derniers dernieres autre autres meme memes seul seule
seuls seules vrai vraie vrais vraies enorme enormes super mini double triple demi
""".split())


@dataclass(frozen=True, slots=True)
class NounPhrase:
    """A French phrase's head noun and the words that describe it, in the order said."""

    head: str
    modifiers: tuple[str, ...]


def french_phrase(words: Sequence[str]) -> NounPhrase | None:
    """The head and modifiers of a French request's product words (folded, in order, no
    articles or links); None when no word can be a head."""
    for at, word in enumerate(words):
        if word in _BEFORE_THE_NOUN or any(ch.isdigit() for ch in word):
            continue
        return NounPhrase(word, tuple(words[at + 1:]))
    return None
