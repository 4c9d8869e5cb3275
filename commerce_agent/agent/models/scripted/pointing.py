"""A request that points back at the thing in focus (just shown or just added) instead of
naming it: "another of those mugs", "throw in two more of the last thing", "same again",
"two of those", "I'll take it", in a message of its own or as one clause of several ("chuck
another of those mugs in and add a dinner plate").

Two kinds of pointing: one asks for MORE of it ("another of those", "two more of the last
thing", "same again", "one more"), the other only points ("two of those", "take it", "that
one"). More of a thing already in the cart is that line's count raised, its variant and
options kept (never "the other" variant: "another" here counts); a thing only shown is
added. Pointing at a thing already in the cart without asking for more is no request.

A word said beside the pointer must be one the focus item's name carries ("another of those
mugs" of the Classic Stoneware Mug); "another plate" after a mug names another thing.

Pure functions of the text and the focus item's name and lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from commerce_agent.agent.language import quantities
from commerce_agent.agent.models.scripted import words

_COUNT = r"(?:\d{1,3}|one|two|three|four|five|six|a couple|a pair)"
# Asking for more of the thing in focus.
_MORE = re.compile(
    r"\b(?:another(?: one)?(?: of (?:those|these|them|that|it|this|the same))?"
    rf"|{_COUNT} more(?: of (?:those|these|them|that|it|this|the same))?"
    r"|(?:the )?same (?:again|thing again|one again)|same again"
    r"|(?:another|more|one more|\d{1,3} more|two more|three more) of the last "
    r"(?:thing|one|item)(?: i added)?"
    r"|(?:a )?second one)\b")
# Pointing at it without asking for more.
_AT = re.compile(
    rf"\b(?:{_COUNT} of (?:those|these|them|that|the same)"
    r"|(?:take|have|get|grab|want|add|buy|order|throw|chuck|pop|put|need) "
    r"(?:it|that|that one|this one|them|those|these|this)"
    r"|that one|this one|the last (?:thing|one|item)(?: i (?:added|saw|looked at))?)\b")
# Words that say how or where, not what ("throw it in", "in my cart", "too").
_PLAIN = frozenset("in into cart basket bag as well too also please".split())


@dataclass(frozen=True)
class Pointed:
    """What a pointing request asks: `more` (raise the line, or add), and how many."""
    more: bool
    count: int


def pointed(text: str, focus_name: str) -> Pointed | None:
    """How `text` points at the focus item named `focus_name`, or None when it names a thing
    of its own (or points at nothing)."""
    if not focus_name:
        return None
    folded = words.fold(text)
    more = _MORE.search(folded)
    at = _AT.search(folded)
    if more is None and at is None:
        return None
    rest = _MORE.sub(" ", _AT.sub(" ", folded))
    own = {words.stem(word) for word in words.content_words(focus_name)}
    left = {words.stem(word) for word in words.content_words(rest)} - _PLAIN - own
    if left:
        return None  # "another plate" after a mug: a thing of its own
    return Pointed(more is not None, _count(folded, more is not None))


def _count(folded: str, more: bool) -> int:
    change = quantities.change(folded) if more else None
    if change is not None and change > 0:
        return change
    said = words.quantity(folded)
    return said if said is not None and said > 0 else 1


@dataclass(frozen=True)
class Focus:
    """The thing in focus as a message starts: its item, name, and its cart line (None when
    it is not in a cart), which is or is not the line last handled."""
    item_id: str
    name: str
    line: dict[str, Any] | None
    line_is_last: bool


def focus_of(items: dict[str, dict[str, Any]], focus: str | None, carts: list[dict[str, Any]],
             last_line: str | None) -> Focus | None:
    """The focus item with its cart line: the line last added or changed when it is one of
    the item's, else its first."""
    item = items.get(focus or "")
    if focus is None or item is None:
        return None
    mine = [line for cart in carts for line in cart.get("items", [])
            if line.get("itemId") == focus]
    line = next((line for line in mine if line.get("cartItemId") == last_line),
                mine[0] if mine else None)
    return Focus(focus, str(item.get("name", "")), line,
                 line is not None and line.get("cartItemId") == last_line)


def raised(focus: Focus, count: int) -> str:
    """The words of a count change raising the focus item's line by `count`: the line is the
    one last handled ("1 more"), or named ("1 more Cork & Natural Rubber Yoga Mat")."""
    name = "" if focus.line is None or focus.line_is_last else f" {focus.line.get('name', '')}"
    return f"{count} more{name}"
