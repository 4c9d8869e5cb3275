"""The items just shown, taken as a set: all of them ("both", "all of them", « les deux »,
「両方」「全部」), or the first or last few ("the first two", "the last 3", « les deux
premiers », 「最初の2つ」). Read on folded text; which items they are is the list's."""

from __future__ import annotations

import re
from dataclasses import dataclass

# "both", "all of them", "les deux", "両方": every item just shown, not a product name ("the
# cheaper of those two", « le moins cher de ces deux »: one of them is picked, not the set).
_EVERY = re.compile(r"\b(?:both|all (?:of )?(?:them|those|these|three|four|five)|"
                    r"(?<!\bof )(?<!\bde )(?:those|these|ces) "
                    r"(?:two|three|four|deux|trois)(?! of\b)|"
                    r"each of (?:them|those|these)|every one|les deux|tous les \w+|"
                    r"toutes les \w+|tous|toutes)\b|両方|全部|どちらも|すべて|"
                    r"(?:その|この)(?:2|3)つ")
_HOW_MANY = {"both": 2, "deux": 2, "two": 2, "three": 3, "trois": 3, "four": 4, "five": 5,
             "両方": 2, "どちらも": 2, "2つ": 2, "3つ": 3}
# "the first two", "the last 3", « les deux premiers », « les 2 dernières », 「最初の2つ」.
_FEW = re.compile(
    r"\b(?:the\s+)?(?:first|(?P<last>last))\s+(?P<n>two|three|four|\d)\b|"
    r"\b(?:les\s+)?(?P<n2>deux|trois|quatre|\d)\s+(?:premier|premiere|(?P<last2>dernier|"
    r"derniere))s\b|(?:最初|(?P<last3>最後))の\s*(?P<n3>\d|[二三四])\s*(?:つ|個|点)?")
_COUNTS = {"two": 2, "three": 3, "four": 4, "deux": 2, "trois": 3, "quatre": 4, "二": 2,
           "三": 3, "四": 4}


@dataclass(frozen=True, slots=True)
class ShownSet:
    """How many of the items shown are taken (`count`, at most), from the end when `last`,
    and where the words that say so are (`span`)."""

    count: int
    last: bool
    span: tuple[int, int]


def shown_set(folded: str) -> ShownSet | None:
    """The set of shown items `folded` takes, or None when it takes none so."""
    few = _FEW.search(folded)
    if few is not None:
        said = few.group("n") or few.group("n2") or few.group("n3")
        count = int(said) if said.isdigit() else _COUNTS.get(said, 0)
        last = any(few.group(name) for name in ("last", "last2", "last3"))
        return ShownSet(count, last, few.span()) if count > 0 else None
    every = _EVERY.search(folded)
    if every is None:
        return None
    count = next((n for word, n in _HOW_MANY.items() if word in every.group(0)), 5)
    return ShownSet(count, False, every.span())


def takes_shown(folded: str, names_only_options: bool) -> ShownSet | None:
    """The set taken when the message says nothing else of which items (`names_only_options`:
    its other words name no product), nor picks them by position ("the first and the third,
    both 12 inch": "both" is what each is said with)."""
    found = shown_set(folded)
    if found is None or not names_only_options or _POSITION.search(without_shown_set(folded)):
        return None
    return found


# A position said besides the set: the items are those picked, the set words say their options.
_POSITION = re.compile(r"\b(?:first|second|third|fourth|fifth|last|\d+(?:st|nd|rd|th)|premier|"
                       r"premiere|deuxieme|troisieme|dernier|derniere)\b|番目")


def without_shown_set(folded: str) -> str:
    """`folded` without the words that take the shown items as a set."""
    found = shown_set(folded)
    if found is None:
        return folded
    start, end = found.span
    return f"{folded[:start]} {folded[end:]}".strip(" ,.!")
