"""How much of a request a search's results say: the measure that keeps a turn's best results.

A turn may search more than once: the request's words, then its head noun alone, then one
word of it. A narrower search must not replace what the fuller one found when its items say
fewer of the request's words ("anything for making pour over coffee at home?" found the
dripper, filed under Brewers; the search for "home" alone found a glazing guide). Each
item's words are its name and the categories its store files it under.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from commerce_agent.agent.models.scripted import words

_HYPHENED = re.compile(r"[^\W\d_]+(?:[-‐–][^\W\d_]+)+")
# The shortest word matched as the start of a longer one ("brew" of "brewers").
_PREFIX = 4


def said_by(item: dict[str, Any]) -> frozenset[str]:
    """The words an item's name and categories say (a hyphened compound also closed up,
    "pourover"); not its description, whose words also tell of other things ("press kits" of
    a headshot session is no French press)."""
    filed = item.get("categories") or []
    text = " ".join([str(item.get("name", "")),
                     *(str(name) for name in filed if isinstance(name, str))])
    closed = " ".join(re.sub(r"[-‐–]", "", found) for found in _HYPHENED.findall(text))
    return words.content_words(f"{text} {closed}")


def says(item: dict[str, Any], word: str) -> bool:
    """Whether the item's data says the word, or a longer word it starts."""
    known = said_by(item)
    return word in known or len(word) >= _PREFIX and any(
        other.startswith(word) for other in known)


def covered(items: Iterable[dict[str, Any]], said: frozenset[str]) -> int:
    """The most of the words any one of the items says (0 for no items or no words)."""
    return max((sum(1 for word in said if says(item, word)) for item in items), default=0)
