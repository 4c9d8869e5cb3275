"""Positions in a list just shown: "the second one", "la 3e", "2番目", "the last one"; and
the group a choice is made among ("the cheaper of the two", « le plus cher des deux »,
"which of the three", 「2つのうち」), whose number is no count.

`fold_numbers` has already written ordinal words as digits ("second" → "2nd", "troisième" →
"3ème", "二番目" → "2番目"); this reads them back as positions, 1 for the first, -1 for the last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from commerce_agent.agent.language.spans import Span, overlaps


@dataclass(frozen=True, slots=True)
class Ordinal:
    """A position: 1 is the first, -1 the last."""

    position: int
    span: Span


_ORDINAL = re.compile(
    r"(?<![\w.,#])(\d{1,3})(?:st|nd|rd|th|ème|eme|ième|e|er|ère|re)(?![a-z])"
    # 番目, and a counter with 目: "2つ目", "3個目", "2冊目" (the second, not two)
    r"|(?<![\d.,])(\d{1,3})(?:番目|(?:つ|個|本|枚|冊|点|杯|袋)目)"
    r"|(?<![\w-])(last|latest|dernière|dernier|second|seconde)(?![\w-])"
    r"|(最後|一番最後)"
)
_SECOND = frozenset({"second", "seconde"})
# An index said as an English word, or as a numbered option ("number 2", "no. 3", a lone "2"),
# read before the normalize stage (which reads "le premier", "2番目"): 0 is the first.
ORDINAL_WORDS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2,
                 "fourth": 3, "4th": 3, "fifth": 4, "5th": 4, "sixth": 5, "6th": 5, "last": -1}
_WORD = re.compile(r"[a-z0-9]+")
_NUMBERED = re.compile(r"\b(?:number|no\.?|#|option)\s*(\d{1,2})\b")
_DIGIT_ALONE = re.compile(r"\s*(\d)\s*[.)]?\s*")


# "first" as when, not which: after a thing or a count, ending its clause ("add a tiramisu
# first, then check out", "make it 2 first"), it orders the requests and picks nothing.
_FIRST_AS_WHEN = re.compile(
    r"(?<=[a-z0-9])(?<!\bthe)(?<!\bthis)(?<!\bthat)(?<!\bmy)(?<!\byour)\s+(?:first|1st)"
    r"(?=\s*(?:$|[,.;!?]|(?:then|and|before|please|pls)\b))")


def find_ordinals(folded: str, taken: list[Span]) -> tuple[Ordinal, ...]:
    """The positions named in `folded` outside the `taken` spans."""
    found: list[Ordinal] = []
    when = [match.span() for match in _FIRST_AS_WHEN.finditer(folded)]
    for match in _ORDINAL.finditer(folded):
        if overlaps(match.span(), taken) or overlaps(match.span(), when):
            continue
        digits = match.group(1) or match.group(2)
        word = match.group(3)
        if digits:
            position = int(digits)
        elif word in _SECOND:
            position = 2
        else:
            position = -1
        if position != 0:
            found.append(Ordinal(position, match.span()))
    return tuple(found)


def index_named(folded: str) -> int | None:
    """The list index `folded` names by a word ("the second one": 1, "the last": -1), by a
    number ("number 2", "option 2", a lone "2": 1) or by 最初 (0); None when it names none so."""
    folded = _FIRST_AS_WHEN.sub(" ", folded)
    for word in _WORD.findall(folded):
        if word in ORDINAL_WORDS:
            return ORDINAL_WORDS[word]
    match = _NUMBERED.search(folded) or _DIGIT_ALONE.fullmatch(folded)
    if match:
        return int(match.group(1)) - 1
    if "最初" in folded:
        return 0
    return None


# "of the two", "of those 3", "des 2", "parmi les 3", "d'entre les 2", "2つのうち", "2つの中で":
# the number of things chosen among (number words are digits by now).
_AMONG = re.compile(
    r"(?<![\w-])(?:of|among|between)\s+(?:the|these|those|them|all)\s+\d{1,2}(?!\w|[.,]\d)|"
    r"(?<![\w-])(?:des|parmi (?:les|ces|ceux-ci|ceux-la)|d'entre (?:les|ces))\s+\d{1,2}"
    r"(?!\w|[.,]\d)|"
    r"\d{1,2}\s*(?:つ|個|点)?\s*(?:のうち|の中で|の中から|のなかで)")


def find_among(folded: str, taken: list[Span]) -> tuple[Span, ...]:
    """The spans naming the group a choice is made among, outside the `taken` spans."""
    return tuple(match.span() for match in _AMONG.finditer(folded)
                 if not overlaps(match.span(), taken))
