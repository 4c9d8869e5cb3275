"""Whole numbers typed by people or sent in headers, read one way everywhere."""

from __future__ import annotations


def whole_number(text: str) -> int | None:
    """`text` as a non-negative integer when it is ASCII digits only, else None.

    `str.isdigit` alone is not enough: it accepts "²" and other digits that `int()` refuses
    (a header is read as Latin-1, where byte 0xB2 is "²"), which made such input a 500."""
    return int(text) if text.isascii() and text.isdigit() else None
