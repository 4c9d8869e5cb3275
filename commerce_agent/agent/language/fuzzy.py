"""Typo-tolerant name matching: "kyuusu" finds "Kyusu", "tea pot" finds "Teapot".

`rapidfuzz` scores (0 to 100) two folded forms of each name: spaced words, compared as sorted
token sets, and the letters alone, so a space or a hyphen more or less costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from commerce_agent.agent.language.folding import fold_accents

_NOT_WORD = re.compile(r"[^\w]+")


@lru_cache(maxsize=8192)
def fold_name(text: str) -> str:
    """Lowercase words without accents or punctuation: "Théière, 700 ml" → "theiere 700 ml"."""
    return _NOT_WORD.sub(" ", fold_accents(text)).strip()


def _compact(text: str) -> str:
    return fold_name(text).replace(" ", "")


def similarity(query: str, name: str) -> float:
    """How alike two names are, 0 to 100, forgiving typos, spacing and word order."""
    from rapidfuzz import fuzz

    return max(fuzz.ratio(_compact(query), _compact(name)),
               fuzz.token_sort_ratio(fold_name(query), fold_name(name)))


def mentions(text: str, name: str, cutoff: float = 80) -> bool:
    """True when every word of `name` is in `text`, in any order, allowing a typo in each and a
    space more or less ("tea pot celadon" mentions "Celadon Teapot"). Words under four letters
    must be exact."""
    words = fold_name(name).split()
    if not words:
        return False
    candidates = _joined_neighbours(fold_name(text).split())
    position = 0
    while position < len(words):
        if _found(words[position], candidates, cutoff):
            position += 1
        elif (position + 1 < len(words)
              and _found(words[position] + words[position + 1], candidates, cutoff)):
            position += 2
        else:
            return False
    return True


def _joined_neighbours(words: list[str]) -> frozenset[str]:
    """The words, and each two or three neighbours written as one ("tea pot" → "teapot")."""
    joined = set(words)
    for size in (2, 3):
        joined.update("".join(words[start:start + size]) for start in range(len(words) - 1))
    return frozenset(joined)


def _found(word: str, candidates: frozenset[str], cutoff: float) -> bool:
    from rapidfuzz import fuzz, process

    if len(word) < 4:
        return word in candidates
    return process.extractOne(word, candidates, scorer=fuzz.ratio, score_cutoff=cutoff) is not None


def names_like(names: Iterable[str], phrases: Iterable[str], cutoff: float = 75) -> list[int]:
    """For each name, how many of the `phrases` (a word under five letters never is) are one of
    its words mistyped beyond a search's own typo budget ("gyokru": Gyokuro, two edits): the same
    first letter and a `rapidfuzz` ratio of `cutoff` or more."""
    from rapidfuzz import fuzz
    from rapidfuzz.distance import OSA

    typed = [fold_name(phrase) for phrase in phrases if phrase.isalpha()]
    counts = []
    for name in names:
        own = [word for word in fold_name(name).split() if len(word) >= 4]
        # two edits at most, the same first letter and about the same length: « résilier »
        # is no "relié", though most of its letters are there
        counts.append(sum(len(said) >= 5 and any(
            word[0] == said[0] and abs(len(word) - len(said)) <= 1
            and fuzz.ratio(said, word) >= cutoff
            and OSA.distance(said, word, score_cutoff=2) <= 2 for word in own) for said in typed))
    return counts


def best_matches(query: str, names: Iterable[str], *, cutoff: float = 80,
                 limit: int = 5) -> list[tuple[str, float]]:
    """The `names` most like `query`, best first, each scoring at least `cutoff`."""
    scored = [(name, similarity(query, name)) for name in names]
    ranked = sorted((pair for pair in scored if pair[1] >= cutoff), key=lambda pair: -pair[1])
    return ranked[:limit]


def is_typo_of(word: str, other: str) -> bool:
    """Whether `word` is `other` mistyped, closely enough to correct without asking: the
    same first letter, one edit (two from eight letters on; a swap of neighbours is one). A
    real word two edits from a shorter one is another word: « plateau » is no "plate"."""
    from rapidfuzz.distance import OSA

    if word == other or not word or not other or word[0] != other[0]:
        return word == other
    budget = 1 if len(word) < 8 else 2
    return OSA.distance(word, other, score_cutoff=budget) <= budget


_LETTERS = re.compile(r"(?<![\w'])[^\W\d_]{4,}(?![\w'])")


def correct_words(text: str, vocabulary: frozenset[str], known: frozenset[str] = frozenset()
                  ) -> str:
    """`text` with each misspelt word of four letters or more replaced by the `vocabulary`
    word it is one edit from (two for words of eight letters or more; a swap of neighbours is
    one edit, and the first letter must agree): "cancle my ordr" → "cancel my order". Words in
    the vocabulary or in `known` (real words that sit one edit from a vocabulary word: "were"
    is not "where") are kept, and so is everything else in the text."""
    def fixed(found: re.Match[str]) -> str:
        word = found.group()
        return _nearest(word.lower(), vocabulary, known) or word

    return _LETTERS.sub(fixed, text)


@lru_cache(maxsize=8192)
def _nearest(word: str, vocabulary: frozenset[str], known: frozenset[str]) -> str | None:
    from rapidfuzz.distance import OSA

    if word in vocabulary or word in known:
        return None
    budget = 1 if len(word) < 8 else 2
    best: tuple[int, str] | None = None
    for candidate in vocabulary:
        if candidate[0] != word[0] or abs(len(candidate) - len(word)) > budget:
            continue
        distance = OSA.distance(word, candidate, score_cutoff=budget)
        if distance <= budget and (best is None or (distance, candidate) < best):
            best = (distance, candidate)
    return best[1] if best else None
