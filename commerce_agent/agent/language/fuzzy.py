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


def mentions(text: str, name: str, cutoff: float = 85) -> bool:
    """True when `text` contains `name` (a word or a few), allowing a typo or a missing space."""
    from rapidfuzz import fuzz

    compact_name = _compact(name)
    if not compact_name:
        return False
    if len(compact_name) < 4:
        return compact_name in fold_name(text).split()
    return fuzz.partial_ratio(compact_name, _compact(text)) >= cutoff


def best_matches(query: str, names: Iterable[str], *, cutoff: float = 80,
                 limit: int = 5) -> list[tuple[str, float]]:
    """The `names` most like `query`, best first, each scoring at least `cutoff`."""
    scored = [(name, similarity(query, name)) for name in names]
    ranked = sorted((pair for pair in scored if pair[1] >= cutoff), key=lambda pair: -pair[1])
    return ranked[:limit]
