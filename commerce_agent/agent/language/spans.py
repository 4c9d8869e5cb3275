"""Spans: where in the folded text a reading was found, and the text that is left around them."""

from __future__ import annotations

import re

Span = tuple[int, int]

_SPACES = re.compile(r"\s+")
# Sentence punctuation says nothing about products: "tiramisu?" is searched as "tiramisu".
_PUNCTUATION = re.compile(r"[,;:!?¿¡、。「」()\[\]]|\.(?!\w)")


def overlaps(span: Span, taken: list[Span]) -> bool:
    """True when `span` shares a character with any span in `taken`."""
    start, end = span
    return any(start < other_end and other_start < end for other_start, other_end in taken)


def remove_spans(text: str, spans: list[Span]) -> str:
    """`text` without the characters of `spans` and without punctuation, spaces collapsed."""
    kept: list[str] = []
    position = 0
    for start, end in sorted(spans):
        if start > position:
            kept.append(text[position:start])
        position = max(position, end)
    kept.append(text[position:])
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", " ".join(kept))).strip()
