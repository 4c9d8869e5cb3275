"""A yes with a condition on the price: "ok if it's under 40 bucks", "only if it's less than
$50", "sure, as long as it's below £70", « oui si c'est moins de 30 € », 「5000円以下ならお願い」.

The condition is read (a conditional word and a price limit, by `prices.find_price`) and
judged against the price of the thing offered: met, the yes stands; not met, it is a no, and
the reply says the price. A condition in another currency than the price's cannot be judged,
and is never taken as met.
"""

from __future__ import annotations

import re
from decimal import Decimal

from commerce_agent.agent.language.folding import fold
from commerce_agent.agent.language.prices import PriceBound, find_price

# What makes the rest of a sentence a condition, in English, French and Japanese.
_IF = re.compile(r"\b(?:if|only if|as long as|so long as|provided(?: that)?|providing|assuming|"
                 r"si|s'il|tant que|a condition que|pourvu que)\b|"
                 r"(?:なら|ならば|であれば|だったら|でしたら|なら、)")


def price_condition(text: str) -> PriceBound | None:
    """The price limit a message makes its yes depend on, or None."""
    folded = fold(text)
    condition = _IF.search(folded)
    if condition is None:
        return None
    bound = find_price(folded, [])
    if bound is None or (bound.max is None and bound.min is None):
        return None
    if bound.min is not None and bound.max is not None and bound.min == bound.max:
        return None  # "if it's $25": a price said, no limit
    return bound


def met(bound: PriceBound, price: Decimal, currency: str) -> bool:
    """Whether `price` (in `currency`) keeps within the limit."""
    if bound.currency is not None and bound.currency != currency:
        return False
    if bound.max is not None and (price > bound.max or bound.max_excluded and
                                  price == bound.max):
        return False
    return not (bound.min is not None and (price < bound.min or bound.min_excluded and
                                          price == bound.min))
