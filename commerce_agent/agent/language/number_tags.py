"""One tag for every number in a message: what it is, before anything uses it.

`read()` hands each part of the message to its reader in turn (address, measures, price, day
and time, sizes, ordinals); this stage then labels every run of digits in the folded text by
the reading whose span holds it. A number no reader took and that is not a count (part of an
id such as "ord_8f3", a reference "#12", a year, a zero) is an "id". So "two 300 ml kyusu"
tags 2 as a count and 300 as a measure, and later stages ask the tags rather than read digits
again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from commerce_agent.agent.language.spans import Span

NumberKind = Literal["count", "measure", "price", "ordinal", "time", "address", "id"]


@dataclass(frozen=True, slots=True)
class NumberTag:
    """A number as written (`text`, digits after folding), what it is, and where it is."""

    text: str
    kind: NumberKind
    span: Span


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def tag_numbers(folded: str, readings: list[tuple[NumberKind, Span]]) -> tuple[NumberTag, ...]:
    """Every run of digits in `folded`, tagged by the first of `readings` whose span holds it
    (the readers' order: an address before a measure before a count), else "id"."""
    tags: list[NumberTag] = []
    for match in _DIGITS.finditer(folded):
        start, end = match.span()
        kind: NumberKind = next((kind for kind, (low, high) in readings
                                 if low <= start and end <= high), "id")
        tags.append(NumberTag(match.group(), kind, (start, end)))
    return tuple(tags)
