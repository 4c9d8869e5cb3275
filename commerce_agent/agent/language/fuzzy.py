"""Typo-tolerant name matching: "kyuusu" finds "Kyusu", "tea pot" finds "Teapot".

`rapidfuzz` scores (0 to 100) two folded forms of each name: spaced words, compared as sorted
token sets, and the letters alone, so a space or a hyphen more or less costs nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_NOT_WORD = re.compile(r"[^\w]+")


@lru_cache(maxsize=8192)
def fold_name(text: str) -> str:
    """Lowercase words without accents or punctuation: "Théière, 700 ml" → "theiere 700 ml"."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _NOT_WORD.sub(" ", plain).strip()


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


def best_matches(query: str, names: Iterable[str], *, cutoff: float = 80,
                 limit: int = 5) -> list[tuple[str, float]]:
    """The `names` most like `query`, best first, each scoring at least `cutoff`."""
    scored = [(name, similarity(query, name)) for name in names]
    ranked = sorted((pair for pair in scored if pair[1] >= cutoff), key=lambda pair: -pair[1])
    return ranked[:limit]
