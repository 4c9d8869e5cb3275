"""The head of a French noun phrase: the thing it names.

French names the thing first and describes it after: « planche à découper en bambou » is a
board (« à découper », « en bambou » say which), « tasse à café en grès bleu » a cup, « pot de
confiture » a pot, « coffret de trois thés » a box. So the head of a request's product words,
read in order once the frame, articles and links (« à », « de », « en », « pour ») are gone,
is the first word that is no adjective placed before its noun (« petite théière », « grand
saladier »: the teapot, the bowl); the words after it describe it, and those after a link
are its complements: an item that carries only complements is not the thing asked for.
English puts its head last and Japanese too, so this reading is French only.
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


# The words that open a noun phrase (folded; « l' », « d' » come apart).
_DETERMINERS = frozenset("""
un une le la l les des du de d mon ma me mes ton ta tes son sa ses notre nos votre vos leur
leurs ce cet cette ces quelque quelques plusieurs chaque deux trois quatre cinq six sept huit
neuf dix onze douze
""".split())
# The words that join a complement to its noun (folded; « d' » and « l' » come apart).
_LINKS = frozenset("a de d du des en pour au aux avec sur sans par".split())


@dataclass(frozen=True, slots=True)
class NounPhrase:
    """A French phrase's head noun, the words that describe it before any link (its
    adjectives, a name it is part of: « assiette plate », "Classic Stoneware Mug"), and its
    complements, each after a link (« à découper », « en bambou »), in the order said."""

    head: str
    describing: tuple[str, ...]
    complements: tuple[str, ...]


def french_phrase(words: Sequence[str], text: str = "") -> NounPhrase | None:
    """The head and what describes it of a French request's product words (folded, in
    order, no articles or links), placed by the request's own words (`text`: folded, split
    by spaces). A noun comes with its determiner (« une saucière », « deux tiramisus »,
    « l'eau »): a word the text shows without one is a verb or a name the frame left
    (« m'abonner à Folio »), and a request whose words show no determined noun has no head to
    judge, nor one whose head the text does not show (a kind put in the catalogs' English:
    « livre numérique » → "ebook"). Without a text, every word after the head is a
    complement. None when no word can be a head."""
    said = text.split()
    for at, word in enumerate(words):
        if word in _BEFORE_THE_NOUN or any(ch.isdigit() for ch in word):
            continue
        rest = tuple(words[at + 1:])
        if said and word not in said:
            return None  # put in other words ("livre numérique" as "ebook"): not judged
        if not said:
            return NounPhrase(word, (), rest)
        place = said.index(word)
        before = [token for token in said[:place] if token not in _BEFORE_THE_NOUN]
        if not before or not (before[-1] in _DETERMINERS or before[-1].isdigit()):
            continue
        after = said[place + 1:]
        linked = next((n for n, token in enumerate(after) if token in _LINKS), len(after))
        group = set(after[:linked])
        return NounPhrase(word, tuple(w for w in rest if w in group),
                          tuple(w for w in rest if w not in group))
    return None
