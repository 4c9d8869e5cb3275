"""Which language a shopper wrote in: English, French or Japanese.

Japanese is told by its script (kana, kanji). English against French is told by
`lingua-language-detector` (the `agent-nlp` extra), restricted to those two languages and in its
low-accuracy mode: loaded once on first use, it adds about 10 MB of memory where the full models
add about 90 MB, and the short texts shoppers type do not need more. Without the extra, a small
table of each language's common words and French's accents decides; both fall back to the
caller's `default` (the conversation's language so far) when the text is too short or too
ambiguous to say.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

Lang = str  # "en", "fr" or "ja"
LANGUAGES = ("en", "fr", "ja")

# Hiragana, katakana (and their half-width forms), CJK ideographs: no Latin language uses them.
_JAPANESE = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f\u3400-\u4dbf\u4e00-\u9fff]")
_LETTERS = re.compile(r"[^\W\d_]+")
# Lingua's confidence below which the word table is asked too.
_SURE = 0.8
_LEANING = 0.6

_FRENCH_WORDS = frozenset("""
je j tu il elle nous vous ils elles le la les un une des du de d au aux et ou mais est sont
suis ai avez avons pas ne n plus moins que qui quoi quel quelle quels quelles où pour avec sans
dans sur sous chez ce cet cette ces mon ma mes ton ta tes son sa ses notre votre leur leurs
oui non merci bonjour bonsoir salut voudrais veux voulez aimerais ajoute ajouter ajoutez
mettre mets panier commande commander acheter cherche trouve montre combien prix livraison
adresse annuler annule rembourser retour taille couleur bleu bleue rouge noir noire blanc
blanche vert verte moins cher chère pas très bien d'accord daccord s'il plaît svp c'est
peux pouvez puis-je quand demain aujourd'hui soir matin jusqu'à vingt trente deux trois
quatre cinq six sept huit neuf dix douze douzaine quelques paire tasse théière assiette
""".split())
_ENGLISH_WORDS = frozenset("""
i i'm im you he she we they it the a an and or but is are am was were be been not no yes
please thanks thank hi hello hey want wanted would like need looking for to of in on at with
without from my your our their this that these those what which where when how much many
can could do does did have has get buy add put cart order checkout show find search me
cheapest cheaper price under less than more about some any one two three four five six
seven eight nine ten dozen couple pair cup mug teapot plate bowl blue red black white green
ship shipped shipping delivery deliver address cancel return refund size color colour
tomorrow today tonight okay sure yeah yep nope of it's what's where's
""".split())


def detect_language(text: str, default: Lang = "en") -> Lang:
    """The language of `text`: "en", "fr" or "ja"; `default` when it cannot be told."""
    if _JAPANESE.search(text):
        return "ja"
    letters = "".join(_LETTERS.findall(text))
    if len(letters) < 2:
        return default
    return _latin_language(text.casefold(), default)


@lru_cache(maxsize=4096)
def _latin_language(folded: str, default: Lang) -> Lang:
    detector = _detector()
    if detector is None:
        return _by_words(folded) or default
    best, confidence = _lingua_guess(detector, folded)
    if best is not None and confidence >= _SURE:
        return best
    by_words = _by_words(folded)
    if by_words is not None:
        return by_words
    if best is not None and confidence >= _LEANING:
        return best
    return default


def _lingua_guess(detector: Any, folded: str) -> tuple[Lang | None, float]:
    values = detector.compute_language_confidence_values(folded)
    if not values:
        return None, 0.0
    top = values[0]
    code = "fr" if top.language.name == "FRENCH" else "en"
    return code, float(top.value)


def _by_words(folded: str) -> Lang | None:
    """The language whose common words (and, for French, accents) the text uses more."""
    words = re.findall(r"[a-zà-ÿœæ']+", folded)
    french = sum(1 for word in words if word in _FRENCH_WORDS)
    english = sum(1 for word in words if word in _ENGLISH_WORDS)
    french += sum(1 for char in folded if unicodedata.decomposition(char).split()[1:2] in (
        ["0300"], ["0301"], ["0302"], ["0327"], ["0308"]))
    if french > english:
        return "fr"
    if english > french:
        return "en"
    return None


@lru_cache(maxsize=1)
def _detector() -> Any:
    """Lingua's English/French detector, built once; None when the extra is not installed."""
    try:
        from lingua import Language, LanguageDetectorBuilder
    except ImportError:
        return None
    builder = LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.FRENCH)
    return builder.with_low_accuracy_mode().build()
