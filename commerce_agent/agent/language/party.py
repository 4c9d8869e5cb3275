"""How many people a booking is for: "for two", "two places", "me and my partner", "the three
of us", "pour nous deux", "pour 2 personnes", "2名", "3人で".

Read only for items booked by time slot (a class, a workshop): there a party is how many
places to book. On other items the same words size an option ("a 5-seat licence") or name
the item ("a feast for four"), so the quantities stage does not count them.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.reading import read_message
from commerce_agent.agent.language.spans import Span

# Words after a number that make it the size of a party.
_PEOPLE = (r"(?:people|persons?|places?|seats?|spots?|spaces?|tickets?|guests?|adults?|"
           r"participants?|of us|personnes?|participants?|billets?|adultes?)")
# Someone who comes along with the shopper: "me and my partner", "moi et ma sœur".
_COMPANION = r"(?:my|a|an|one|mon|ma|un|une)\s+[a-zà-ÿ'-]+"
_PARTY = re.compile(
    rf"(?<![\w.,])(?P<counted>\d{{1,2}})\s+(?:more\s+)?{_PEOPLE}(?![a-z])"
    rf"|(?<![a-z])(?:for|pour)\s+(?:nous\s+)?(?P<for>\d{{1,2}})(?![\w.,:]|\s*(?:[ap]\.?m|h\d|"
    rf"o'?clock|heures?|hours?|minutes?|mins?|days?|nights?|weeks?|months?|jours?|"
    rf"semaines?|mois|ans?|years?|[a-z]{{3,}}\s+(?:of|de|d'))(?![a-z]))"
    rf"|(?<![a-z])(?:the|all)\s+(?P<of_us>\d{{1,2}})\s+of\s+us(?![a-z])"
    rf"|(?<![a-z])(?P<both>both of us|nous deux|tous les deux|toutes les deux)(?![a-z])"
    rf"|(?<![a-z])(?:me|myself|moi)\s+(?:and|et|\+|&)\s+(?:(?P<more>\d{{1,2}})\s+[a-z]+"
    rf"|(?P<one>{_COMPANION}))"
    rf"|(?<![\d.,])(?P<japanese>\d{{1,2}})\s?(?:名|人)(?:様|で|分)?"
)


def party_size(text: str) -> int | None:
    """How many people `text` books for, or None when it does not say."""
    found = read_message(text)
    said_when = list(found.when.parts or (found.when.span,)) if found.when else []
    folded = _without(found.folded, said_when)
    match = _PARTY.search(folded)
    if match is None:
        return None
    said = match.groupdict()
    if said["both"]:
        return 2
    if said["one"]:
        return 2
    if said["more"]:
        return int(said["more"]) + 1
    number = int(next(value for key, value in said.items() if value and key in (
        "counted", "for", "of_us", "japanese")))
    return number if number > 0 else None


def _without(text: str, spans: list[Span]) -> str:
    characters = list(text)
    for start, end in spans:
        characters[start:end] = " " * (end - start)
    return "".join(characters)
