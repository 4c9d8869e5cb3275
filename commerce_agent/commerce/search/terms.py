"""A shopper's words as safe FTS5 query terms, and the edit distance that corrects typos."""

from __future__ import annotations

import re

MAX_TERMS = 10

# Words that carry no product meaning in what shoppers and agents type ("find me the ...").
STOPWORDS = frozenset("""
a about an and any are as at be buy by can cheap cheaper cheapest could do does find for from
get give have i im
in is it looking me my need of on or please see show some something that the them this
to want we what with would you your
""".split())


# A price said in words ("under $20", "less than 15", "£50") bounds the price, not the words
# an item must contain: it is left out of matching (minPrice and maxPrice bound prices).
_PRICE = re.compile(
    r"(?:\b(?:under|below|over|above|(?:less|more|cheaper|dearer)\s+than|up\s+to|max|min|"
    r"at\s+most|at\s+least|around|about)\s*)?[$€£¥]?\s*\d+(?:[.,]\d+)?\s*"
    r"(?:\b(?:usd|eur|gbp|jpy|dollars?|euros?|pounds?|yen)\b)?",
    re.IGNORECASE)
_PRICE_CUE = re.compile(r"[$€£¥]|\b(?:under|below|over|above|than|up\s+to|max|min|at\s+most|"
                        r"at\s+least|around|about|usd|eur|gbp|jpy|dollars?|euros?|pounds?|yen)\b",
                        re.IGNORECASE)


def without_prices(query: str) -> str:
    """The query without price phrases; numbers that are not prices ("12 oz") stay."""
    return _PRICE.sub(lambda found: " " if _PRICE_CUE.search(found.group()) else found.group(),
                      query)


def words_of(query: str, limit: int | None = MAX_TERMS) -> list[str]:
    """The query's words: two letters or more, or one character of a script without spaces
    (茶 is a word)."""
    return [word for word in re.findall(r"\w+", query.lower())
            if len(word) > 1 or unspaced(word)][:limit]


# Scripts written without spaces between words: the index holds whole runs of them.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")


def unspaced(word: str) -> bool:
    """Whether the word is written in a script without spaces (Japanese, Chinese)."""
    return bool(_UNSPACED.search(word))


def terms_of(query: str) -> list[str]:
    """The query's meaningful words, each once; only stopwords means search for those."""
    words = list(dict.fromkeys(words_of(without_prices(query))))
    meaningful = [word for word in words if word not in STOPWORDS]
    return meaningful or words


def phrase(word: str) -> str:
    """One FTS5 string: quoted, so `NEAR`, `*`, `(` or `"` in a query are only text."""
    return '"' + word.replace('"', '""') + '"'


def prefix(word: str) -> str:
    return phrase(word) + "*"


def any_of(words: list[str]) -> str:
    return " OR ".join(phrase(word) for word in words)


def trigrams(word: str) -> str:
    """An OR of the word's trigrams, for the trigram index of names."""
    return any_of(sorted({word[index:index + 3] for index in range(len(word) - 2)}))


def typo_budget(word: str) -> int:
    """Edits allowed between a typed word and a real one: none for short words."""
    if len(word) < 4:
        return 0
    return 1 if len(word) < 7 else 2


def edit_distance(left: str, right: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, swaps."""
    previous_row: list[int] = []
    row = list(range(len(right) + 1))
    for i in range(1, len(left) + 1):
        before, previous_row, row = previous_row, row, [i] + [0] * len(right)
        for j in range(1, len(right) + 1):
            cost = left[i - 1] != right[j - 1]
            row[j] = min(previous_row[j] + 1, row[j - 1] + 1, previous_row[j - 1] + cost)
            if (i > 1 and j > 1 and left[i - 1] == right[j - 2]
                    and left[i - 2] == right[j - 1]):
                row[j] = min(row[j], before[j - 2] + 1)
    return row[-1]


def corrections(word: str, texts: list[str]) -> list[str]:
    """The words in `texts` closest to a misspelt `word`, within its typo budget."""
    budget = typo_budget(word)
    if budget == 0:
        return []
    candidates = {found for text in texts for found in words_of(text)
                  if abs(len(found) - len(word)) <= budget}
    scored = [(edit_distance(word, found), found) for found in candidates]
    best = min((distance for distance, _ in scored), default=budget + 1)
    return sorted(found for distance, found in scored if distance == best <= budget)
