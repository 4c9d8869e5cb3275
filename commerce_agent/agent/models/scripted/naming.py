"""Which item a shopper's words name: every candidate item (of every store a search reached)
scored against what was said, in the shopper's language.

A word counts when the item's name (as the search returned it: in the shopper's language
where the store translates it) carries it: Latin words by their content words, Japanese
phrases by being written inside the name (茶道 in 抹茶・茶道体験). Of two items that carry as
many of the words, the one carrying the rarer words wins: a word many of the candidates
share ("workshop", "studio", a store's own name in its items' names) tells them apart less
than one only this item has (茶道). Items equal on both are a true tie, for the caller to ask
about.

Before counting, the words must name the thing itself: an item whose head noun (the noun its
name is about: "Workshop" in "Matcha Tea Ceremony Workshop", « Atelier » in « Atelier
cérémonie du thé matcha ») is among the words fits better than one that
carries only its modifiers, and a word that is an option value ("ceremonial", « cérémonie »)
names an option, not an item. An item that carries none of the words but option words only
fits too weakly to be added: it is offered or asked about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from commerce_agent.agent.language import fuzzy, readings
from commerce_agent.agent.language.noun_phrases import NounPhrase, french_phrase
from commerce_agent.agent.language.option_words import ENGLISH_OPTION_WORDS, english_option_words
from commerce_agent.agent.language.spoken_counts import MEASURE_NOUNS, says_how_counted
from commerce_agent.agent.models.scripted import choices, words

# Where a written-together Japanese compound changes script (茶道|ワークショップ, 和紙|ノート):
# its parts are the words a search can find apart.
_SCRIPT_CHANGE = re.compile(
    r"(?<=[\u4e00-\u9fff])(?=[\u30a0-\u30ff])|"
    r"(?<=[\u30a0-\u30ff])(?=[\u4e00-\u9fff])"
)


# A name's parts: its segments ("Practical Rust — Paperback + eBook") and glosses in brackets.
_SEGMENTS = re.compile(r"\s[—–-]\s|[:,;()（）+＋「」]")
# The words that end the noun phrase a name starts with ("Family Feast for Four", « Thé
# matcha d'Uji », « Tasses à expresso »): what follows describes the head.
_LINKS = frozenset("with for of in at on from by de du des à a au aux en pour avec sur par".split())


def heads(name: str) -> frozenset[str]:
    """The words that can be the head noun of an item's name, in the name's own language: of
    each segment's leading noun phrase, its last word (English puts the head last) and its
    first (French puts it first). Japanese names are not read so: a shopper's 茶道ワーク
    ショップ is the 茶道体験, so any phrase of two characters the name writes counts."""
    found: set[str] = set()
    for segment in _SEGMENTS.split(_BRACKETED.sub(",", name)):
        run: list[frozenset[str]] = []
        for token in segment.split():
            if words.fold(token) in _LINKS or ("'" in token and run):
                if run:
                    break
                continue
            content = words.content_words(token)
            content = frozenset(word for word in content if len(word) > 1)  # "200 g"
            if content:
                run.append(content)
        if run:
            found |= run[0] | run[-1]
    return frozenset(found)


_BRACKETED = re.compile(r"[(（][^)）]*[)）]")


def is_option_word(word: str, lang: str = "en") -> bool:
    """A word that names an option value rather than an item ("ceremonial", « cérémonie »,
    「お点前」), read in the shopper's language (an English "mat" is a mat, a French one matte)."""
    if word in ENGLISH_OPTION_WORDS:
        return True
    return (lang != "en" or words.re_japanese(word)) and bool(english_option_words(word))


def head_named(item: dict[str, Any], said: frozenset[str], lang: str = "en") -> bool:
    """Whether the words said name the item's head noun (not only an option value)."""
    name = _name(item)
    if words.re_japanese(name):
        return names_it(item, said, lang)
    return bool((said & heads(name)) - {word for word in said if is_option_word(word, lang)})


def strength(item: dict[str, Any], said: frozenset[str], lang: str = "en") -> tuple[int, int]:
    """(the head noun is said, how many words that are no option value the name carries)."""
    found = carried(item, said)
    return int(head_named(item, said, lang)), len(
        [word for word in found if not is_option_word(word, lang)])


def names_it(item: dict[str, Any], said: frozenset[str], lang: str = "en") -> bool:
    """Whether the words name the item well enough to add it: a word of them that is no
    option value is in its name (a Latin one maybe misspelt or plural: "driper",
    "tiramisus"; a Japanese one of two characters at least, 茶 alone being in every tea's
    name, unless the name glosses itself so: （お皿）), or is the other name its description
    gives in brackets (「石川の焙じ茎茶（ほうじ
    茶）」); a word in kana in either kana (まぐ names クラシックマグ). A word of a greeting,
    a story or an address the search happened to find in a description names nothing."""
    name = _name(item)
    glosses = " ".join(_BRACKETED.findall(str(item.get("description", ""))))
    for word in said:
        if is_option_word(word, lang):
            continue
        if words.re_japanese(word):  # or a part of it: 茶道ワークショップ is 茶道 ワークショップ
            own = " ".join(_BRACKETED.findall(name))  # 皿 alone names 炻器ディナープレート（お皿）
            if any(words.fold(part) in words.fold(own) or len(part) >= 2 and (
                    words.fold(part) in words.fold(name) or words.fold(part) in words.fold(glosses))
                   for part in {word, *compound_parts(word).split(), *head_parts(word),
                                *kanji_heads(word), *words.kana_spellings(word)}):
                return True
            if readings.names_by_sound(word, name):  # げんまいちゃ: 抹茶入り玄米茶 read aloud
                return True
        elif word in words.content_words(name) or (len(word) >= 4 and any(
                fuzzy.similarity(word, other) >= 80 for other in words.content_words(name))):
            return True
    return False


def wanted(query: str) -> frozenset[str]:
    """The words of a query that can name an item: its content words and its Japanese
    phrases (a word written in kana also whole: らざにあ is no らざ and あ; two side by side
    also as one: わし のと)."""
    return words.content_words(query) | frozenset(
        phrase for phrase in words.japanese_query(query).split() if words.re_japanese(phrase)
    ) | frozenset(phrase for phrase in (*query.split(), *readings.said_together(query.split()))
                  if readings.is_kana(phrase) and not readings.names_nothing(phrase))


# Where a Japanese phrase changes script (棒|ほうじ茶, 抹茶|アイス): a modifier may end there.
_ANY_SCRIPT_CHANGE = re.compile(
    r"(?<=[\u4e00-\u9fff])(?=[\u3040-\u30ff])|(?<=[\u3040-\u309f])(?=[\u4e00-\u9fff\u30a0-\u30ff])|"
    r"(?<=[\u30a0-\u30ff])(?=[\u4e00-\u9fff\u3040-\u309f])")
# Hiragana that are particles, never the first sound of a name's word.
_PARTICLES = frozenset("をはがにでともへやの")


def head_parts(phrase: str) -> list[str]:
    """The tails of a Japanese phrase that start where its script changes, longest first
    (棒ほうじ茶 → ほうじ茶): what it names once a modifier written before it is dropped (棒
    of 棒ほうじ茶, the 加賀棒茶 whose description calls it ほうじ茶). A tail of one character,
    or starting on a particle, is no word."""
    return [phrase[cut.start():] for cut in _ANY_SCRIPT_CHANGE.finditer(phrase)
            if 0 < cut.start() and len(phrase) - cut.start() >= 3
            and phrase[cut.start()] not in _PARTICLES]


# The kanji that end a phrase (常滑急須, 手削り茶筅): a compound of nouns, headed by its end.
_KANJI_TAIL = re.compile(r"[\u4e00-\u9fff]+$")


def kanji_heads(phrase: str) -> list[str]:
    """The head nouns a phrase ending in kanji may name its thing by, longest first: a
    Japanese compound ends on what it is (常滑急須 is a 急須, 抹茶茶筅 a 茶筅), and the catalog
    may write its modifier apart (常滑焼 急須) or not at all (竹茶筅). Of three kanji or more,
    its last three and last two; of a kanji run after kana (手削り茶筅), the run itself."""
    tail = _KANJI_TAIL.search(phrase)
    if tail is None:
        return []
    run = tail.group()
    heads = [run[-size:] for size in (3, 2) if len(run) > size]
    if len(run) >= 2 and len(run) < len(phrase):
        heads.insert(0, run)
    return heads


def compound_parts(query: str) -> str:
    """A Japanese query with each compound split where its script changes ("茶道ワークショップ"
    → "茶道 ワークショップ"); the query unchanged when none does."""
    return " ".join(part for phrase in query.split() for part in _SCRIPT_CHANGE.split(phrase))


def _name(item: dict[str, Any]) -> str:
    return str(item.get("name", ""))


def carried(item: dict[str, Any], said: frozenset[str]) -> frozenset[str]:
    """The words of `said` the item's name carries."""
    name = _name(item)
    folded = words.fold(name)
    return (said & words.content_words(name)) | frozenset(
        word for word in said if words.re_japanese(word) and (
            words.fold(word) in folded or readings.names_by_sound(word, name))
    )


def name_score(item: dict[str, Any], said: frozenset[str]) -> int:
    """How many of the words said the item's name carries."""
    return len(carried(item, said))


def rarity(items: Sequence[dict[str, Any]], said: frozenset[str]) -> dict[str, float]:
    """Each word's weight among `items`: 1 over how many of their names carry it."""
    counts = {word: sum(word in carried(item, said) for item in items) for word in said}
    return {word: 1 / count for word, count in counts.items() if count}


def fit(item: dict[str, Any], said: frozenset[str], weights: dict[str, float]) -> tuple[int, float]:
    """(how many words said the name carries, how rare those words are among the
    candidates): compare fits as tuples, the larger fits better."""
    found = carried(item, said)
    return len(found), round(sum(weights.get(word, 0.0) for word in found), 6)


def japanese_head(query: str) -> str | None:
    """The phrase a Japanese query of several names the thing by: the last, since a Japanese
    noun phrase ends on its head (宇治抹茶の茶筅 is a whisk, its 宇治抹茶 only describes it)."""
    phrases = [phrase for phrase in words.japanese_query(query).split()
               if words.re_japanese(phrase)]
    return phrases[-1] if len(phrases) > 1 else None


def best(
    items: Sequence[dict[str, Any]], said: frozenset[str], preferred_store: str | None = None,
    head: str | None = None, lang: str = "en",
) -> list[dict[str, Any]]:
    """The items that fit the words said best: one, or a true tie (the item carrying the
    head of the phrase, then the store in view or named, settle a tie)."""
    if not items:
        return []
    weights = rarity(items, said)

    def rank(item: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, float]]:
        return strength(item, said, lang), fit(item, said, weights)

    top = max(rank(item) for item in items)
    tied = [item for item in items if rank(item) == top]
    if head and len(tied) > 1:
        tied = [item for item in tied if head in carried(item, said)] or tied
    if preferred_store and len(tied) > 1:
        mine = [item for item in tied if item.get("storeId") == preferred_store]
        tied = mine or tied
    return tied


def any_named(items: Iterable[dict[str, Any]], said: frozenset[str]) -> bool:
    return any(name_score(item, said) > 0 for item in items)


def any_named_well(items: Iterable[dict[str, Any]], said: frozenset[str], lang: str = "en"
                   ) -> bool:
    return any(names_it(item, said, lang) for item in items)


# Words that join a thing to what describes it ("a bag of hojicha", "matcha for baking",
# « planche à découper en bambou »), or end its clause ("…, and try the code"): the head is in
# the phrase before them.
_PHRASE_LINKS = frozenset(
    "with for of in on at from by to that which without and then as de du des a au aux en "
    "pour avec sur par sans et puis".split())
# A short request names one thing; past this many words a message tells a story, whose head
# no one place holds.
_SHORT_PHRASE = 4


def phrase_heads(text: str, said: frozenset[str], lang: str = "en",
                 found_by: frozenset[str] = frozenset()) -> frozenset[str]:
    """The words a short item phrase may name its thing by. The phrase is cut into noun
    phrases at joining words and commas; the one holding a word the item was found by (else
    the first) names the thing, by its last word ("bamboo cutting board": board) and in
    French by its first too (« planche à découper »: planche; a title kept in English still
    ends on its head), measures passed over ("a bag of hojicha": hojicha). Only the words
    `said` (the request's product words) count. Empty for one word, a long message, or
    Japanese."""
    if words.re_japanese(text):
        return frozenset()
    tokens = [word for word in re.findall(r"[\w'-]+|,", words.fold(text))
              if word == "," or word in _PHRASE_LINKS or words.stem(word) in said]
    if not 2 <= len([word for word in tokens if word != "," and word not in _PHRASE_LINKS]
                    ) <= _SHORT_PHRASE:
        return frozenset()
    runs: list[list[str]] = [[]]
    for word in tokens:
        if word == "," or word in _PHRASE_LINKS:
            if runs[-1]:
                runs.append([])
            continue
        if words.stem(word) not in MEASURE_NOUNS:  # "a bag of hojicha": no part of the name
            runs[-1].append(word)
    runs = [run for run in runs if run]
    if not runs:
        return frozenset()
    run = next((run for run in runs if {words.stem(word) for word in run} & found_by), runs[0])
    return frozenset(words.stem(word) for word in (run[-1], *(run[:1] if lang == "fr" else ())))


def _evidence_words(item: dict[str, Any]) -> frozenset[str]:
    """The words an item's data says it is: its name, description and categories."""
    meta = item.get("metadata") or {}
    categories = " ".join(str(entry.get("name", "")) for entry in (
        meta.get("dev.commerce.product.categorization") or {}).get("items", []))
    text = f"{_name(item)} {item.get('description', '')} {categories}"
    # a hyphened compound also closed up, as shoppers write it: "Pour-Over" is "pourover"
    closed = " ".join(re.sub(r"[-‐–]", "", found) for found in _HYPHENED.findall(text))
    return words.content_words(f"{text} {closed}")


_HYPHENED = re.compile(r"[^\W\d_]+(?:[-‐–][^\W\d_]+)+")


def supports(item: dict[str, Any], word: str) -> bool:
    """Whether the item's data carries the word (maybe misspelt, or as part of a compound:
    "book" in "eBook")."""
    known = _evidence_words(item)
    return word in known or any(
        len(word) >= 4 and (fuzzy.similarity(word, other) >= 80 or other.endswith(word))
        for other in known)


def describes(item: dict[str, Any], word: str) -> bool:
    """Whether the item's data says the word, or a longer word it starts ("hang" of
    "hanging"): what a request that describes the thing is matched by."""
    return supports(item, word) or len(word) >= 4 and any(
        other.startswith(word) for other in _evidence_words(item))


def closely_supports(item: dict[str, Any], word: str) -> bool:
    """Whether the item's data says the word itself: as written, as the start or end of one
    of its words ("classic" of « classique », "book" of "eBook"), or mistyped closely in its
    name or description, which are in the shopper's language (« théire », "tirramisu"). A
    far correction is no support, nor one into a word of its categories, which are English
    whatever the shopper speaks (« saucière » is no "Saucers")."""
    known = _evidence_words(item)
    if word in known or any(len(word) >= 5 and (other.startswith(word) or other.endswith(word))
                            for other in known):
        return True
    own = words.content_words(f"{_name(item)} {item.get('description', '')}")
    return len(word) >= 4 and any(fuzzy.is_typo_of(word, other) for other in own)


def head_fit(item: dict[str, Any], query: str, text: str, lang: str) -> str:
    """How an item fits the head of a French request (language/noun_phrases.py): "head" when
    its data says the head, or the request has no head to judge (another language, one
    option or measure word); "modifiers" when it carries only words that describe the head
    (« en bambou » of a « planche à découper en bambou » in a bamboo whisk's name, placed by
    the request's `text`; "Classic Stoneware Mug" is a mug, not a classic of mugs); "none"
    when it carries no word at all, found by a far correction of the head alone (« saucière »
    found "Saucers"). A head the item's data shows nothing like was maybe matched in the
    name the search also reads in another language: it is trusted unless a modifier is
    what the item carries."""
    phrase = _french_phrase(item, query, text, lang)
    if phrase is None or any(closely_supports(item, word)
                             for word in (phrase.head, *phrase.describing)):
        return "head"
    if any(closely_supports(item, word) for word in phrase.complements):
        return "modifiers"
    return "none" if supports(item, phrase.head) else "head"


def _french_phrase(item: dict[str, Any], query: str, text: str, lang: str
                   ) -> NounPhrase | None:
    """The French request's noun phrase, without the item's own option words (« matcha
    cérémonie »: the grade) and measures: a word that is some other item's option (« coffret »
    of a gift box add-on) is still a head here."""
    if lang != "fr":
        return None
    labels = choices.option_labels(item)
    local = item.get("optionNames") or {}
    own = words.content_words(" ".join([*labels, *(str(local.get(label, "")) for label in labels)]))
    stems = [words.stem(word) for word in query.split() if not says_how_counted(word)]
    if len(stems) > _SHORT_PHRASE:
        return None  # a story: its head is not its first noun (« ma fille part en coloc… »)
    said = " ".join(words.stem(word) for word in re.findall(
        r"[\w'-]+", words.without_elision(words.fold(text))))
    return french_phrase([word for word in stems if word not in MEASURE_NOUNS and not (
        word in own or english_option_words(word) & own)], said)


def weak_evidence(item: dict[str, Any], text: str, said: frozenset[str], lang: str = "en"
                  ) -> bool:
    """Whether the words said fit the item too weakly to add it. A short phrase names its
    thing by its head noun: when the item's data never says that head, the item carries
    only modifiers of it ("bamboo" of a bamboo cutting board in a bamboo whisk's name, "tea"
    of a silk tea towel, "pizza" of a pizza cutter) unless most of the words and a head of
    its own name are said; when it does say it, but only in its description and the name
    carries no word said, most of the words must still be its ("cream" of a matcha ice
    cream in a tiramisu's description is not enough)."""
    plain = frozenset(word for word in said if not is_option_word(word, lang)
                      and word not in MEASURE_NOUNS)
    backed = {word for word in plain if supports(item, word)}
    if not backed:  # found by words its data here does not show (its name in another language)
        return False
    shown = {words.stem(word) for word in re.findall(r"[\w'-]+", words.fold(text))}
    if backed & heads(_name(item)) - shown:
        return False  # its head noun, from the shopper's own word for it (« tasse »: mug)
    named_by = phrase_heads(text, plain, lang, frozenset(backed))
    if not named_by:
        return False
    if any(supports(item, head) for head in named_by):
        return not carried(item, plain) and len(backed) < len(plain - backed)
    return len(backed) <= len(plain - backed) or not (backed & heads(_name(item)))
