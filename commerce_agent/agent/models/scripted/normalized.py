"""The normalize stage (`commerce_agent.agent.language`) as this model reads it: one cached
`Reading` per message, and the few facts the slot readers take from it (counts, price limits
with their currency, addresses)."""

from __future__ import annotations

import re
from functools import lru_cache

from commerce_agent.agent.language import Reading, read

# A count followed by one of these is a size of the thing or of the party, not how many
# ("5 seats" is the font licence's option; "for 2 people" is who comes).
_NOT_COUNTED = re.compile(r"\s*(?:seats?|people|persons?|personnes?|places?|名|人)\b")
# A number the shopper refuses is never how many they want: "a 12 inch diavola, not the 16",
# "2 mugs, not 3", "pas la 16", "16じゃなくて12", "3個はいらない".
_REFUSED_BEFORE = re.compile(r"\b(?:not|no|pas|non|never|jamais)\s+(?:(?:the|a|an|le|la|les|"
                             r"l'|un|une|des)\s*)?$")
_REFUSED_AFTER = re.compile(r"\s*(?:[^\s、。,.]{0,3}?)(?:じゃなく|ではなく|はいらない|は要らない|"
                            r"はいりません|は結構)")


@lru_cache(maxsize=4096)
def reading(text: str) -> Reading:
    return read(text)


def count(text: str) -> int | None:
    """How many the message asks for, per the normalize stage; None when it says none."""
    found = reading(text)
    for counted in found.counts:
        start, end = counted.span
        if _NOT_COUNTED.match(found.folded[end:]) or _REFUSED_BEFORE.search(
                found.folded[:start]) or _REFUSED_AFTER.match(found.folded[end:]):
            continue
        return max(1, int(counted.value))
    return None


def consumed_numbers(text: str) -> bool:
    """Whether the message's numbers are a price, a date or time, or an address."""
    found = reading(text)
    return bool(found.price or found.when or found.address)


def price_limit(text: str) -> tuple[dict[str, str], str | None]:
    """({"minPrice"…, "maxPrice"…}, currency) for "under €15", "1500円くらいまで"."""
    bound = reading(text).price
    if bound is None:
        return {}, None
    limits = {key: str(value) for key, value in (("minPrice", bound.min),
                                                  ("maxPrice", bound.max)) if value is not None}
    return limits, bound.currency


def address(text: str) -> dict[str, str] | None:
    found = reading(text).address
    if found is None:
        return None
    return {"address": found.text, **({"countryCode": found.country_code}
                                      if found.country_code else {})}


def ordinal(text: str) -> int | None:
    """The position named, 0-based (-1 is the last), per the normalize stage."""
    found = reading(text).ordinals
    if not found:
        return None
    position = int(found[0].position)
    return position - 1 if position > 0 else position
