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
# Refusing one thing: "not", "pas"…
# ("I don't want the blue mug, I want the speckled one" is read by the request stages: the
# option refused goes with the thing asked for)
_REFUSING = r"not|pas"
# …where what is refused is no thing: a time ("not now, maybe later"), a degree ("not really,
# thanks"), the order itself ("don't want it, just tell me when it ships" is no swap).
_NOT_A_THING = (r"(?:now|yet|today|tonight|right now|really|sure|quite|exactly|anymore|it|"
                r"(?:that|this)(?! one)|them|anything|maintenant|encore|tout de suite|"
                r"aujourd'hui|vraiment|sur|ca|cela|rien|"
                # a time or a day ("not the 5pm, the 6pm one", "not monday, tuesday"): a
                # booking's, read by the booking stages
                r"(?:the |this |next |le |la |ce |cette )?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|h)|"
                r"\d{1,2}(?:st|nd|rd|th)|morning|afternoon|evening|night|week|weekend|month|"
                r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|matin|soir|apres-midi|"
                r"semaine|mois|demain|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)|"
                r"\d{1,2}(?::\d{2})?\s*(?:am|pm|h\d*)|\d{1,2}時)\b")
# …said as a thing, by its article or pointer ("pas besoin de payer" refuses no thing)
_THING_SAID = (r"(?:the|a|an|that|this|those|these|my|le|la|les|l'|un|une|ce|cet|cette|ces|"
               r"celui|celle|mon|ma|mes)\b\s*")
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
    # the one refused, then the one wanted: "not the mat, the class pass", "not the large but
    # the small one", « pas la tasse mais le bol »
    re.compile(rf"(?:^|[,;]\s*)(?:(?:no|non|nope|nah)[\s,]+)?(?:{_REFUSING})\s+"
               rf"(?!{_NOT_A_THING})(?P<old>{_THING_SAID}[^,;]*?)\s*"
               r"(?:[,;]\s*(?:but\s+|mais\s+)?|\s+(?:but|mais)\s+)(?P<new>.+)"),
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


_REFUSED_FIRST = re.compile(rf"^\s*(?:(?:no|non|nope|nah)[\s,.!]+)?(?:{_REFUSING})\s+"
                            rf"(?!{_NOT_A_THING})")


def refuses_first(folded: str) -> bool:
    """Whether the message opens by refusing a thing ("not the large, the small one", « pas
    la tasse mais le bol »): what follows is wanted in its place."""
    return _REFUSED_FIRST.match(folded) is not None


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
