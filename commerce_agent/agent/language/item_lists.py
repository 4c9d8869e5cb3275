"""The layout of a list of items in one message, read before its items are: where the lines
of a written list are, and a count said once for every item.

- A list written on lines or as bullets ("can you add:\\n- 2 tiramisu\\n- 1 lasagna";
  "genmaicha x2, washi notebook x3") holds one item or more per line, whatever
  word starts the line; a line that names no thing of its own is the frame before the list
  ("can you add:") or what goes with the line before it ("16 inch").
- A lead-in ending on a colon ("3 pizzas: a big margherita, a small diavola") only
  announces the list after it.
- A count said once for the whole list ("a tiramisu and an arancini, two of each", « deux de
  chaque », 「玄米茶と棒茶を2つずつ」) is each item's count.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# A line break, or a bullet mark opening a line or standing between items (the normalize
# stage has written each line break as a comma: "…: - 2 tiramisu, - 1 lasagna"). A semicolon
# joins clauses ("the diavola; large size please"), not the lines of a list.
_LINE = re.compile(r"\s*(?:[\n\r]+\s*(?:[-*•·]\s+|\d{1,2}[.)]\s+)?|[,:]\s*[-*•·]\s+|"
                   r"[,:]\s+\d{1,2}[.)]\s+|(?<=\S)\s+[•·]\s+)\s*")
_BULLET_FIRST = re.compile(r"^\s*(?:[-*•·]\s+|\d{1,2}[.)]\s+)")
# A count written as a tally on each line ("genmaicha x2, washi notebook x3", "2× tiramisu").
_TALLY = re.compile(r"(?:^|\s)(?:[x×]\s*\d{1,3}|\d{1,3}\s*[x×])(?=\s|$|[.!])")
# The lead-in of a list: words, then a colon, then the list ("my order: …"); not a time
# ("at 7:30").
_COLON = re.compile(r"^[^:\n]{0,60}?(?<!\d):\s+(?=\S)")

_COUNT_WORD = (r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|a couple|"
               r"a dozen|half a dozen|un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix)")
_COURTESY = r"(?:\s*,?\s*(?:please|pls|plz|thanks|thank you|svp|stp|merci|s'il (?:vous|te) plait))?"
# "…, two of each", "2 each", "x2 each", « deux de chaque », « deux chacun »: said at the end.
_EACH = re.compile(
    rf"[,;]?\s*(?:x\s*)?\b({_COUNT_WORD})\s+(?:of each(?: one| of them)?|each|apiece|"
    rf"de chaque|de chacun|de chacune|chacun|chacune)\b{_COURTESY}[\s.!]*$")
_JA_COUNTER = r"(?:つ|個|冊|枚|本|杯|点|箱|袋|缶|セット)"
# 「2つずつ」「3袋ずつ」「ひとつずつ」: the count each of the listed items is wanted in.
_JA_NUMBER = r"(?:\d{1,3}|[一二三四五六七八九十]+)"
_JA_EACH = re.compile(rf"({_JA_NUMBER}{_JA_COUNTER}?|ひとつ|ふたつ|みっつ)ずつ")
_JA_COUNTED = re.compile(rf"{_JA_NUMBER}{_JA_COUNTER}|ひとつ|ふたつ|みっつ")
_DETERMINER = re.compile(r"^\s*(?:a|an|one|the|some|un|une|le|la|les|l'|des|du|de la)\s+")


def listed_lines(text: str, names_a_thing: Callable[[str], bool]) -> list[str]:
    """The lines of a list written on lines, each holding what it names, or the list after a
    colon's lead-in; `text` itself when it is no such list (the caller reads whether the
    list after a lead-in holds several items)."""
    body = text
    lead = _COLON.match(body)
    if lead is not None and not _LINE.search(body[:lead.end()]):
        body = body[lead.end():]
    lines = [line for line in _LINE.split(_BULLET_FIRST.sub("", body)) if line.strip()]
    if len(lines) < 2 and body.count(",") and all(
            _TALLY.search(piece) for piece in body.split(",")):
        lines = body.split(",")
    if len(lines) < 2:
        lines = _pieces(body, names_a_thing)
    if len(lines) < 2:
        return [body]
    kept: list[str] = []
    waiting = ""  # a line before the first thing named: the request's frame
    for line in lines:
        if names_a_thing(line):
            kept.append(f"{waiting} {line}".strip())
            waiting = ""
        elif kept:
            kept[-1] = f"{kept[-1]}, {line}"
        else:
            waiting = f"{waiting} {line}".strip()
    return kept if len(kept) > 1 else [text]


# A piece of a list opening with its own count: "2 lasagna", "half a dozen genmaicha".
_COUNTED_FIRST = re.compile(rf"^\s*(?:{_COUNT_WORD}|a|an)\b|^\s*{_JA_NUMBER}{_JA_COUNTER}")


def _pieces(body: str, names_a_thing: Callable[[str], bool]) -> list[str]:
    """A list written on one line (its line breaks read as commas): after a lead-in that names
    nothing ("pls add, 2 washi notebooks, 1 chasen, …"), or with semicolons between pieces that
    each open with their own count ("2 lasagna; 1 caesar salad; 3 pellegrino"); [] otherwise."""
    pieces = [piece for piece in re.split(r"\s*[,;]\s*", body) if piece.strip()]
    if len(pieces) > 2 and not names_a_thing(pieces[0]) and \
            sum(map(names_a_thing, pieces[1:])) > 1:
        return pieces
    if ";" in body and len(pieces) > 1 and all(map(_COUNTED_FIRST.match, pieces)):
        return pieces
    return []


def count_for_each(text: str) -> tuple[str, str | None]:
    """`text` without a count said for each item of its list, and that count ("two",
    "2つ"); (`text`, None) when it says none."""
    found = _EACH.search(text)
    if found is not None:
        return text[:found.start()].rstrip(" ,;"), found.group(1)
    found = _JA_EACH.search(text)
    if found is not None:
        return text[:found.start()] + found.group(1) + text[found.end():], found.group(1)
    return text, None


def with_count(piece: str, count: str) -> str:
    """`piece` asked for `count` times: its own count or article replaced ("an arancini" →
    "two arancini"); a Japanese piece with its count already ("棒茶を2つ") as it is."""
    if _JA_COUNTED.fullmatch(count):
        return piece if _JA_COUNTED.search(piece) else f"{piece}を{count}"
    bare = _DETERMINER.sub("", piece)
    bare = re.sub(rf"^\s*{_COUNT_WORD}\s+", "", bare)
    return f"{count} {bare.strip()}"
