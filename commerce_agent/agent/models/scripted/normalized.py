"""The normalize stage (`commerce_agent.agent.language`) as this model reads it: one cached
`Reading` per message, and the few facts the slot readers take from it (price limits with
their currency, addresses, positions). Counts are `language.quantities`'."""

from __future__ import annotations

from decimal import Decimal

from commerce_agent.agent.language import Reading
from commerce_agent.agent.language.reading import read_message


def reading(text: str) -> Reading:
    return read_message(text)


def price_limit(text: str) -> tuple[dict[str, str], str | None]:
    """({"minPrice"…, "maxPrice"…}, currency) for "under €15", "1500円くらいまで"."""
    bound = reading(text).price
    if bound is None:
        return {}, None
    limits = {key: str(value) for key, value in (("minPrice", bound.min),
                                                  ("maxPrice", bound.max)) if value is not None}
    return limits, bound.currency


def excluded_limits(text: str) -> frozenset[Decimal]:
    """The amounts a price limit leaves out ("under 29 euros": 29; "up to 29": none), which a
    search's own bounds (inclusive) let through."""
    bound = reading(text).price
    if bound is None:
        return frozenset()
    return frozenset(amount for amount, excluded in ((bound.max, bound.max_excluded),
                                                     (bound.min, bound.min_excluded))
                     if excluded and amount is not None)


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
