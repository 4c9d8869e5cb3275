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
# "au lieu de la tasse", "à la place du tiramisu": with its article contracted
_INSTEAD = r"instead of|rather than|au lieu (?:de|du|des|d')|a la place (?:de|du|des|d')"
_PATTERNS = [
    # "swap the mug for the bowl", "replace the mug with a bowl", "remplacez la tasse par le bol"
    re.compile(rf"\b(?:{_VERB})\s+(?P<old>.+?)\s+(?:for|with|by|par|contre)\s+(?P<new>.+)"),
    # "instead of the mug, give me the bowl"
    re.compile(rf"\b(?:{_INSTEAD})\s+(?P<old>[^,;]+?)\s*"
               r"[,;]\s*(?P<new>.+)"),
    # "instead of the mug I'll take the cup": the taking verb ends what goes
    re.compile(rf"\b(?:{_INSTEAD})\s+(?P<old>[^,;]+?)\s+"
               r"(?P<new>(?:i'?ll|i'?d|i will|i would|i want|give me|get me|je|j'|mets|"
               r"ajoute)\b.+)"),
    # "the bowl instead of the mug", "le bol au lieu de la tasse"
    re.compile(rf"(?P<new>.+?)\s+(?:{_INSTEAD})\s+"
               r"(?P<old>.+)"),
    # "マグを皿に替えて", "マグじゃなくて皿にして"
    re.compile(r"(?P<old>[^、。をは]+?)(?:を|は)(?P<new>[^、。をは]+?)に(?:変えて|替えて|換えて|"
               r"交換|変更|取り替え)"),
    re.compile(r"(?P<old>[^、。をは]+?)(?:じゃなくて|ではなく(?:て)?)、?(?P<new>[^、。]+)"),
    # "玄米茶の代わりにほうじ茶にします"
    re.compile(r"(?P<old>[^、。をは]+?)の(?:代わりに|かわりに)、?(?P<new>[^、。]+)"),
]
# Words around the two phrases that belong to neither ("please", "give me", "in my cart").
_EDGES = re.compile(r"^(?:(?:please|pls|could you|can you|i'?ll take|i'?d like|give me|get me|"
                    r"add|i want|make it|just|i will take|i would like|je prends|je prendrai|"
                    r"je voudrais|j'aimerais|mets|ajoute)\s+)+|"
                    r"\s+(?:please|pls|instead|in my (?:cart|basket)|s'il (?:te|vous) plait)$|"
                    r"(?:に|で)(?:します|して|してください|お願いします)$|"
                    r"(?:が|の(?:方|ほう)が)(?:いい|良い)(?:です)?$")


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
