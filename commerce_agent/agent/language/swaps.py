"""Replacing one thing with another: "swap the mug for the bowl", "the plate instead of the
mug", "remplace la tasse par l'assiette", "マグを皿に替えて".

The stage only splits the sentence into what goes (`old`) and what comes (`new`); whether
`new` is another product or an option of the same one ("swap it for the 16 oz") is for the
policy to tell, from the catalog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Swap:
    old: str
    new: str


_VERB = (r"swap|switch|exchange|replace|trade|change|substitute|"
         r"remplace[rz]?|echange[rz]?|change[rz]?")
_PATTERNS = [
    # "swap the mug for the bowl", "replace the mug with a bowl", "remplacez la tasse par le bol"
    re.compile(rf"\b(?:{_VERB})\s+(?P<old>.+?)\s+(?:for|with|by|par|contre)\s+(?P<new>.+)"),
    # "instead of the mug, give me the bowl"
    re.compile(r"\b(?:instead of|rather than|au lieu de|a la place de)\s+(?P<old>[^,;]+?)\s*"
               r"[,;]\s*(?P<new>.+)"),
    # "the bowl instead of the mug", "le bol au lieu de la tasse"
    re.compile(r"(?P<new>.+?)\s+(?:instead of|rather than|au lieu de|a la place de)\s+"
               r"(?P<old>.+)"),
    # "マグを皿に替えて", "マグじゃなくて皿にして"
    re.compile(r"(?P<old>[^、。をは]+?)(?:を|は)(?P<new>[^、。をは]+?)に(?:変えて|替えて|換えて|"
               r"交換|変更|取り替え)"),
    re.compile(r"(?P<old>[^、。をは]+?)(?:じゃなくて|ではなく(?:て)?)、?(?P<new>[^、。]+)"),
]
# Words around the two phrases that belong to neither ("please", "give me", "in my cart").
_EDGES = re.compile(r"^(?:(?:please|pls|could you|can you|i'?ll take|i'?d like|give me|get me|"
                    r"add|i want|make it|just)\s+)+|"
                    r"\s+(?:please|pls|instead|in my (?:cart|basket)|s'il (?:te|vous) plait)$")


def find_swap(folded: str) -> Swap | None:
    """The two things a replacement names, in folded text, or None when it names no swap."""
    for pattern in _PATTERNS:
        match = pattern.search(folded)
        if match is None:
            continue
        old, new = (_trim(match.group(name)) for name in ("old", "new"))
        if old and new and old != new:
            return Swap(old, new)
    return None


def _trim(phrase: str) -> str:
    phrase = phrase.strip(" ,.!?;:、。！？")
    previous = None
    while previous != phrase:
        previous, phrase = phrase, _EDGES.sub("", phrase).strip(" ,.!?;:、。！？")
    return phrase
