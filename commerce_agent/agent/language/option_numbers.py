"""Numbers that name an option, not a count: "make it a 12", "the 16 instead", « la 16 »,
"not the 16, make it a 12".

A number said with an article and no noun after it ("a 12", "the 16 then") stands for a thing
of that number, as a size is named; a number said beside a refused number ("not the 16 …
12") is of the same kind as the one refused. Where an item's option carries that number
("12-inch"), the option is meant; how many is left as it was.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.folding import fold_accents

_ARTICLE_NUMBER = re.compile(
    r"\b(?:a|an|the|le|la|un|une)\s+(\d{1,3})(?=\s*(?:$|[,.!?;]|(?:one|ones|instead|then|"
    r"please|pls|plz|thanks|plutot|alors|stp|svp|merci|inch|inches|in|pouces?)\b))")
_REFUSED_NUMBER = re.compile(r"\b(?:not|pas)\s+(?:(?:the|a|an|le|la|un|une)\s+)?(\d{1,3})\b")


def option_numbers(text: str) -> set[str]:
    """The numbers of `text` that stand for a thing of that number rather than a count."""
    folded = fold_accents(text.lower())
    found = set(_ARTICLE_NUMBER.findall(folded))
    if _REFUSED_NUMBER.search(folded):
        found |= set(re.findall(r"(?<![\d.,])\d{1,3}(?![\d.,])", folded))
    return found
