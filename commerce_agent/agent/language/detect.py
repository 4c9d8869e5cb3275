"""Which language a shopper wrote in: English, French or Japanese.

Japanese is told by its script (kana, kanji). English against French is told first by a table
of each language's common words (and French accents) when it is clear: two more of one
language's words than the other's, or some of one and none of the other. Otherwise by
`lingua-language-detector` (the `agent-nlp` extra), restricted to those two languages in its
low-accuracy mode, and never on a single word: loaded once on first use, it adds about 10 MB
of memory where the full models add about 90 MB. Text too short or too ambiguous to tell (or
with no extra, no clear word) keeps the caller's `default`: the conversation's language so far.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

Lang = str  # "en", "fr" or "ja"
LANGUAGES = ("en", "fr", "ja")

# Hiragana, katakana (and their half-width forms), CJK ideographs: no Latin language uses them.
# The katakana block's two punctuation marks (゠ and ・) are left out: punctuation alone tells
# no language.
_JAPANESE = re.compile(
    r"[\u3041-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f\u3400-\u4dbf"
    r"\u4e00-\u9fff]")
# Kana (with the katakana block's marks) or a common kanji: where a stage chooses how to read
# or join a piece of text. Narrower than `_JAPANESE`, which tells a message's language.
JAPANESE_SCRIPT = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
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
lundi mardi mercredi jeudi vendredi samedi dimanche janvier février mars avril mai juin juillet
août septembre octobre novembre décembre midi soir matin après demain veux voudrais prends
livrer livrez envoyer envoyez colis mes vos euros entre jusqu'à rien aussi encore cette celle
celui ceux ça voilà ici là lui moi toi quand comment pourquoi parce dont chose
y va vas allez fais faites passe passez prends prenez prendre valide validez valider confirme
confirmez envoie mets enlève enlevez annulez résilier résiliez abonnement emporter
ramasse rendue parfait bon ben vraiment finalement plutôt
abonne abonner abonnez désabonne desabonne achète achete achetez acheter mettez rajoute
rajoutez retirez enleve donne donnez garde gardez échange echange échanger echanger
échangez echangez remplace remplacer renvoyer renvoie rembourse pourrais pourriez aurais auriez
voudriez prendrais prendrai disons
assiettes tasses théières theieres bols carnets sachets bouteilles soucoupes cache-pots
""".split())
# French written as it is typed on phones (« jveux », « stp », « qqch », Québec's « pis »): no
# English shopper writes these, so one outweighs the English words a French shopper borrows
# (« add to cart le python book stp »).
_FRENCH_MARKERS = frozenset("""
stp svp jveux jvoudrais jvais jpeux jprends jsuis chui jai cest jcherche qqch qqc qqn qqun pcq pck
bcp tjrs mrc slt dac ouais pis ben bah celui celle mettez enlève enleve retire retirez plaît plait
allo allô coucou bonjour bonsoir
aide aidez qd pk koi jsp mtn tjs dsl ptet vrmt
""".split())  # (the last line: « aide » asked alone, and text-message shorthands)
_MARKER_WEIGHT = 3
# English words French shoppers use as French ("go", « le checkout », « mon cart »): in a
# conversation already in French they tell no language.
_ANGLICISMS = frozenset("""
go checkout check out cart ok okay cool shipping full deal cash top yes nice thanks thx please
pls sorry fine online ebook booking bye lol asap
""".split())
_FRENCH_ACCENTS = frozenset("àâçéèêëîïôûùüœ")
_ENGLISH_WORDS = frozenset("""
i i'm im you he she we they it the a an and or but is are am was were be been not no yes
please thanks thank hi hello hey want wanted would like need looking for to of in on at with
without from my your our their this that these those what which where when how much many
can could do does did have has get buy add put cart order checkout show find search me
cheapest cheaper price under less than more about some any one two three four five six
seven eight nine ten dozen couple pair cup mug teapot plate bowl blue red black white green
ship shipped shipping delivery deliver address cancel return refund size color colour
tomorrow today tonight okay sure yeah yep nope of it's what's where's
monday tuesday wednesday thursday friday saturday sunday morning evening afternoon noon
send deliver please thanks cheap cheaper expensive least most which one ones those these
just only also too more less than dollars pounds bucks euros between give take want
got will would should could did done don't can't won't isn't there here
gimme wanna gonna gotta pls plz thx ty lol btw asap hey yo
tea teas below above around over
""".split())  # (the last line: "tea max 1000 yen" is no French for saying "max")


def in_japanese_script(text: str) -> bool:
    """Whether `text` holds any kana or common kanji (`JAPANESE_SCRIPT`)."""
    return JAPANESE_SCRIPT.search(text) is not None


def detect_language(text: str, default: Lang = "en") -> Lang:
    """The language of `text`: "en", "fr" or "ja"; `default` when it cannot be told."""
    letters = "".join(_LETTERS.findall(text.replace("円", "")))
    # "3000円" is a price in any language; alone, it is Japanese.
    if _JAPANESE.search(text.replace("円", "")) or "円" in text and not letters:
        return "ja"
    if len(letters) < 2:
        return default
    return _latin_language(text.casefold(), default)


# One word, an id or a number ("oui", "ok", "ord_8f3", "2", "はい"): too little to change the
# conversation's language. Japanese runs have no spaces, so a short one counts as one word.
_ONE_WORD = re.compile(r"[^\s]+")
_SHORT_JAPANESE = 4


def reply_language(text: str, previous: Lang | None) -> Lang:
    """The language to answer `text` in, in a conversation so far in `previous` (None before
    the first message): the message's own, unless it is one word, which keeps the
    conversation's."""
    words = _ONE_WORD.findall(text.strip(" \t\n.,!?。、！？…"))
    if previous is not None and len(words) <= 1 and (
            not _JAPANESE.search(text) or len(text.strip()) <= _SHORT_JAPANESE):
        return previous
    return detect_language(text, previous or "en")


@lru_cache(maxsize=4096)
def _latin_language(folded: str, default: Lang) -> Lang:
    french, english = _word_scores(folded, borrowed=default == "fr")
    if abs(french - english) >= 2 or min(french, english) == 0 < max(french, english):
        return "fr" if french > english else "en"
    if french > english and not _FRENCH_MARKERS.isdisjoint(re.findall(r"[a-zà-ÿœæ]+", folded)):
        return "fr"  # a phone-typed French word decides a close count
    if default == "fr" and french == english == 0 and len(_LETTERS.findall(folded)) <= 3:
        return default  # « ok go », « nickel merci »: too little to leave French for
    detector = _detector()
    # Lingua's low-accuracy mode guesses wildly on a single word ("kyuusu" is 75 % French).
    several_words = sum(1 for word in _LETTERS.findall(folded) if len(word) > 1) >= 2
    best, confidence = (_lingua_guess(detector, folded) if detector is not None and several_words
                        else (None, 0.0))
    if best is not None and confidence >= _SURE:
        return best
    if french != english:
        return "fr" if french > english else "en"
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


def _word_scores(folded: str, borrowed: bool = False) -> tuple[int, int]:
    """How many common French and English words the text has (French accents count too, a
    phone-typed French marker thrice); with `borrowed`, English words French uses count for
    neither."""
    words = re.findall(r"[a-zà-ÿœæ]+", folded)
    french, english = _scores(words, folded, borrowed)
    if french == english == 0:  # only then a plural the tables know in the singular counts
        french, english = _scores([_singular(word) for word in words], folded, borrowed)
    return french, english


def _scores(words: list[str], folded: str, borrowed: bool) -> tuple[int, int]:
    french = sum(_MARKER_WEIGHT if word in _FRENCH_MARKERS else 1 for word in words
                 if word in _FRENCH_WORDS or word in _FRENCH_MARKERS)
    # "a" beside French words is « à » typed without its accent (« abonne moi a folio »)
    english = sum(1 for word in words if word in _ENGLISH_WORDS and
                  not (borrowed and word in _ANGLICISMS) and not (word == "a" and french))
    french += sum(1 for char in folded if char in _FRENCH_ACCENTS)
    return french, english


def _singular(word: str) -> str:
    """A plural the tables know in the singular ("orders", « commandes »), as the singular:
    a short message of store words ("3 arancini orders") is told by its one common word
    when no word is known as written. A word either table knows as written stays so."""
    if len(word) > 3 and word.endswith("s") and word not in _FRENCH_WORDS and \
            word not in _ENGLISH_WORDS and (word[:-1] in _FRENCH_WORDS) != (
                word[:-1] in _ENGLISH_WORDS):
        return word[:-1]
    return word


@lru_cache(maxsize=1)
def _detector() -> Any:
    """Lingua's English/French detector, built once; None when the extra is not installed."""
    try:
        from lingua import Language, LanguageDetectorBuilder
    except ImportError:
        return None
    builder = LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.FRENCH)
    return builder.with_low_accuracy_mode().build()
