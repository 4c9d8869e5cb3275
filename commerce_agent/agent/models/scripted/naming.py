"""Which item a shopper's words name: every candidate item (of every store a search reached)
scored against what was said, in the shopper's language.

A word counts when the item's name (as the search returned it: in the shopper's language
where the store translates it) carries it: Latin words by their content words, Japanese
phrases by being written inside the name (茶道 in 抹茶・茶道体験). Of two items that carry as
many of the words, the one carrying the rarer words wins: a word many of the candidates
share ("workshop", "studio", a store's own name in its items' names) tells them apart less
than one only this item has (茶道). Items equal on both are a true tie, for the caller to ask
about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from commerce_agent.agent.models.scripted import words

# Where a written-together Japanese compound changes script (茶道|ワークショップ, 和紙|ノート):
# its parts are the words a search can find apart.
_SCRIPT_CHANGE = re.compile(
    r"(?<=[\u4e00-\u9fff])(?=[\u30a0-\u30ff])|"
    r"(?<=[\u30a0-\u30ff])(?=[\u4e00-\u9fff])"
)


def wanted(query: str) -> frozenset[str]:
    """The words of a query that can name an item: its content words and its Japanese
    phrases."""
    return words.content_words(query) | frozenset(
        phrase for phrase in words.japanese_query(query).split() if words.re_japanese(phrase)
    )


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
        word for word in said if words.re_japanese(word) and words.fold(word) in folded
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
    head: str | None = None,
) -> list[dict[str, Any]]:
    """The items that fit the words said best: one, or a true tie (the item carrying the
    head of the phrase, then the store in view or named, settle a tie)."""
    if not items:
        return []
    weights = rarity(items, said)
    top = max(fit(item, said, weights) for item in items)
    tied = [item for item in items if fit(item, said, weights) == top]
    if head and len(tied) > 1:
        tied = [item for item in tied if head in carried(item, said)] or tied
    if preferred_store and len(tied) > 1:
        mine = [item for item in tied if item.get("storeId") == preferred_store]
        tied = mine or tied
    return tied


def any_named(items: Iterable[dict[str, Any]], said: frozenset[str]) -> bool:
    return any(name_score(item, said) > 0 for item in items)
