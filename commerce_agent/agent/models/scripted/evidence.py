"""What an item says it is, in every language its store serves: the words a shopper may name
it by though the store's name for it in their language does not say so (加賀棒茶 is a
hojicha only in its French name and its Japanese description; the Takayama Chasen is a
« fouet à matcha » in French).

An item's evidence is every name and description it has in every locale read (the search's
own results, in the shopper's language, and its catalogs read in the others), folded and read
the same way: Latin words by their content words (accents folded, plurals and typos
forgiven), Japanese ones written inside a text or read by sound (`readings`), and the kinds
its texts say it is (`kinds`: a « fouet » is a whisk). A word no text of the item says in any
language is no evidence for it.

Built once per item text (an item's texts are its catalog's version: a catalog read again
unchanged costs nothing), never per turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from commerce_agent.agent.language import fuzzy, kinds, readings
from commerce_agent.agent.models.scripted import words

# The languages a store's catalog is read in (the agent's own).
LANGUAGES = ("en", "fr", "ja")
# A Latin word this long or longer may be misspelt or inflected (« torréfié » for
# « torréfiées »).
_FUZZY_LENGTH = 5
_FUZZY_SCORE = 85

Texts = tuple[tuple[str, str], ...]  # (name, description) in each locale read


@dataclass(frozen=True)
class Evidence:
    """Every text of one item, folded for matching."""

    names: tuple[str, ...]
    name_words: frozenset[str]
    text_words: frozenset[str]
    name_kinds: frozenset[str]
    text_kinds: frozenset[str]
    japanese_names: tuple[str, ...]
    japanese_texts: tuple[str, ...]

    def says(self, word: str, names_only: bool = False) -> bool:
        """Whether a name (or, unless `names_only`, any text) of the item says `word`."""
        kind = kinds.kind_of(word)
        if kind and kind in (self.name_kinds if names_only else self.text_kinds):
            return True
        japanese = self.japanese_names if names_only else self.japanese_texts
        if words.re_japanese(word):
            folded = words.fold(word)
            return any(len(folded) >= 2 and folded in words.fold(text) or
                       readings.names_by_sound(word, text) for text in japanese)
        known = self.name_words if names_only else self.text_words
        if word in known:
            return True
        return len(word) >= _FUZZY_LENGTH and any(
            fuzzy.similarity(word, other) >= _FUZZY_SCORE for other in known if len(other) > 3)

    def score(self, said: Iterable[str]) -> tuple[int, int]:
        """(how many of the words any text says, how many a name says)."""
        plain = list(said)
        return (sum(self.says(word) for word in plain),
                sum(self.says(word, names_only=True) for word in plain))


@lru_cache(maxsize=4096)
def of_texts(texts: Texts) -> Evidence:
    """The evidence of one item's texts (cached by the texts themselves)."""
    names = tuple(name for name, _ in texts if name)
    every = tuple(text for pair in texts for text in pair if text)
    return Evidence(
        names=names,
        name_words=_latin(names), text_words=_latin(every),
        name_kinds=frozenset().union(*(kinds.kinds_in(text) for text in names)),
        text_kinds=frozenset().union(*(kinds.kinds_in(text) for text in every)),
        japanese_names=tuple(text for text in names if words.re_japanese(text)),
        japanese_texts=tuple(text for text in every if words.re_japanese(text)))


def _latin(texts: Iterable[str]) -> frozenset[str]:
    return frozenset().union(*(words.content_words(text) for text in texts))


def texts_of(item: dict[str, Any], catalogs: Iterable[dict[str, Any]]) -> Texts:
    """The item's (name, description) as the search showed it and in every catalog read."""
    found = [(str(item.get("name", "")), str(item.get("description", "")))]
    for catalog in catalogs:
        for entry in catalog.get("items", []) if isinstance(catalog, dict) else []:
            if isinstance(entry, dict) and entry.get("itemId") == item.get("itemId"):
                found.append((str(entry.get("name", "")), str(entry.get("description", ""))))
    return tuple(dict.fromkeys(found))
