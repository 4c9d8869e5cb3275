"""How many of a line already bought a message takes: a part of a known whole.

An after-sale request names its count against what the shopper holds, in shapes a count to
buy never takes: "one of the plates", "2 of the 4 mugs", "two out of four", « un seul des
mugs », « l'une des assiettes », 「4枚のうち1枚」 (a part); "all but one", "keep one and send
the rest back", « tout sauf deux », 「1枚は残して」「1枚以外」 (the whole less a part); "all of
them", « tous », 「全部」 (the whole); "half of them", « la moitié », 「半分」. A plain count
said beside a whole ("2 plates, everything else is fine") is the count, not the whole.

`taken(text, whole)` reads one of these against a line of `whole`, or None when the message
says none of them (the caller then reads a plain count: "return 2 plates"). Numbers in words
are already digits in the reading's folded text ("two" → 2), except "one", « un », « une »,
which stay words where they name no count; they are read here as one.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.quantities import COUNTER, how_many
from commerce_agent.agent.language.reading import read_message

_ONE = r"(?:one|a single|un|une|l'un|l'une|l un|l une)"


def _n(name: str) -> str:
    """A count, digits or "one" in words, as the group `name` (each alternative its own)."""
    return rf"(?P<{name}>\d{{1,3}}|{_ONE})"



# The whole less a part: "all but one", "everything except 2", « tout sauf deux », « tous sauf
# un », "keep one (and) send the rest back", « je garde une assiette et renvoie le reste »,
# 「1枚は残して」「1つ以外」「1個だけ残して」.
_REST = r"(?:rest|others?|remaining|remainder|reste|autres)"
_LESS = re.compile(
    rf"\b(?:all|everything|every one|the lot|tout|tous|toutes)\b(?:\s+(?:of\s+)?(?:them|those|"
    rf"the\s+\w+|les\s+\w+))?\s+(?:but|except|save|sauf|excepte|hormis)(?:\s+for)?\s+{_n('n1')}\b"
    rf"|\b(?:keep|keeping|garde[rz]?|gardant|conserve[rz]?)\s+(?:just\s+|only\s+|juste\s+|"
    rf"seulement\s+)?{_n('n2')}\b.{{0,60}}\b{_REST}\b"
    rf"|\b{_REST}\b.{{0,60}}\b(?:keep|keeping|garde[rz]?|gardant|conserve[rz]?)\s+(?:just\s+|"
    rf"only\s+|juste\s+|seulement\s+)?{_n('n3')}\b"
    rf"|(?P<ja>\d{{1,3}}){COUNTER}?(?:だけ)?(?:は|を)?(?:残し|残す|手元に|キープ|以外)")
# A part of the whole: "one of the plates", "2 of the 4", "two out of four", « un seul des
# mugs », « deux des assiettes », « 2 sur les 4 », 「4枚のうち1枚」「4個中2個」.
_PART = re.compile(
    rf"\b{_n('n1')}(?:\s+(?:seule?s?|single|only))?\s+(?:of|out of|des|d'entre|sur les)\b"
    rf"|\d{{1,3}}{COUNTER}?(?:の)?(?:うち|中)(?:の)?(?P<ja>\d{{1,3}})")
_WHOLE = re.compile(r"\b(?:all(?: of)? (?:them|those|these|it)|all \d+|every one|everything|"
                    r"the (?:whole )?lot|(?:the )?(?:whole|entire) (?:order|thing)|tous|toutes|"
                    r"la totalite)\b|全部|すべて|全て|ぜんぶ")
_HALF = re.compile(r"\bhalf\b|\bmoitie\b|半分")


def _value(match: re.Match[str]) -> int:
    said = next((group for group in match.groupdict().values() if group), "1")
    return int(said) if said.isdigit() else 1


def taken(text: str, whole: int) -> int | None:
    """How many of a line of `whole` the message takes, from 1 to `whole`; None when it
    says no part, no remainder and no whole of it (nor one the line can give)."""
    folded = read_message(text).folded
    if match := _LESS.search(folded):
        left = whole - _value(match)
        return left if left >= 1 else None
    if match := _PART.search(folded):
        part = _value(match)
        return part if 1 <= part <= whole else None
    if how_many(text) is not None:  # "2 plates, everything else was fine": the count said
        return None
    if _HALF.search(folded):
        return max(1, whole // 2)
    if _WHOLE.search(folded):
        return whole
    return None
