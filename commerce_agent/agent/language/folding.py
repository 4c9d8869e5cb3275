"""The plain forms words are matched in: `fold` for a message (Latin accents gone, Japanese
kept whole) and `fold_accents` for names in a table (every mark gone, case folded)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Lower case, Latin accents and curly quotes gone, full-width forms made plain ("２つ"
    is "2つ"): the form every matcher reads. Japanese keeps its voiced marks (ど is not と)."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(_plain(ch) if ch < "\u0250" else ch for ch in text)
    return text.replace("’", "'").replace("‘", "'").lower().translate(_LIGATURES)


# Ligatures no decomposition splits: « œuf » is written "oeuf" as often.
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})


def _plain(ch: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))


@lru_cache(maxsize=8192)
def fold_accents(text: str) -> str:
    """Case folded and every combining mark gone, in any script ("États-Unis" → "etats-unis"):
    the form of the names in a word table."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))
