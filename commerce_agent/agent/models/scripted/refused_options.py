"""One of the options on offer refused: "not the blue one", « pas le bleu », 「青じゃない方」.

Said while the agent waits for a choice among an item's variants or options ("Cobalt Blue or
Speckled Oat?"), such a refusal answers that question: the option refused is left out and the
choice is made among the others (asked again when more than one is left). It never declines the
item itself, and it adds nothing the shopper had not already asked for.
"""

from __future__ import annotations

import re
from typing import Any

from commerce_agent.agent.language.option_words import english_option_words
from commerce_agent.agent.models.scripted import choices, words
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS

# The whole message refuses one thing: "not the blue one", "no, not cobalt", "nah not the 16
# oz thanks", « non, pas le bleu », « pas celui en bleu ».
_REFUSED = re.compile(
    r"^(?:(?:no|non|nope|nah|hmm+|um+|euh|ah|oh)[\s,.!]+)*"
    r"(?:not|pas|no)\s+(?:(?:the|a|an|le|la|les|l'|celui|celle)\s*)?(?:(?:en|in)\s+)?"
    r"(?P<thing>[\w' -]+?)(?:\s+(?:one|ones|please|pls|thanks|merci|stp|svp))*[\s.!]*$")
# 「青じゃない方」「ブルーじゃないのがいい」「16オンスではないほうで」
_REFUSED_JA = re.compile(r"^(?P<thing>[^、。\s]+?)(?:じゃ|では)(?:ない|なく)(?:方|ほう|の|やつ)?"
                         r"(?:で|が(?:いい|良い))?(?:です|お願いします)?[。!！\s]*$")


def refused_words(text: str) -> set[str]:
    """The words of the one thing a message refuses (its option words in English as well),
    or the empty set when the message is not such a refusal."""
    found = _REFUSED.match(words.fold(text).strip()) or _REFUSED_JA.match(text.strip())
    if found is None:
        return set()
    thing = found.group("thing")
    said = set(words.words(thing)) | set(re.findall(r"\d+", thing))
    return said | set(english_option_words(thing))


def _labels(item: dict[str, Any]) -> list[str]:
    values = [str(value) for variant in choices.meta(item, VARIANTS).get("variants", [])
              for value in variant.get("values", [])]
    return values + [str(option["name"]) for group in choices.groups(item)
                     for option in group.get("options", [])]


def refuses_an_option(item: dict[str, Any] | None, text: str) -> bool:
    """Whether `text` refuses one of the item's own options (a variant value, a customization
    option), as opposed to the item or the offer as a whole ("not now", "no thanks")."""
    if not item:
        return False
    said = refused_words(text)
    return bool(said) and any(choices.matches(label, said) for label in _labels(item))
