"""What a number of one item would cost, asked before anything is added: "how much would 3
plates be", "how much for 2 tiramisu?", « combien pour trois assiettes ? », 「お皿3枚でいくら？」.

A question never adds: the answer is the count times the item's price, from its own data (an
item with variants at several prices is left to its listing, which names each price).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from commerce_agent.agent.language import quantities
from commerce_agent.agent.models.scripted import choices, words
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS

_PRICE_ASKED = re.compile(r"\b(?:how much|cost\w*|price\w*|total|combien|prix|coute\w*|"
                          r"cout\w*)\b|いくら|値段|価格|合計")


def count_priced(item: dict[str, Any], question: str) -> int | None:
    """The count a price question asks about (more than one), else None."""
    if not _PRICE_ASKED.search(words.fold(question)):
        return None
    text = words.without_measures(quantities.without_named_numbers(question, (
        str(item.get("name", "")),)))
    count = words.quantity(text)
    return count if count is not None and count > 1 else None


def priced(item: dict[str, Any], count: int) -> dict[str, str] | None:
    """`count` of the item at its one price, as Money; None when its variants' prices differ."""
    prices = {str((variant.get("price") or {}).get("amount")) for variant in choices.meta(
        item, VARIANTS).get("variants", []) if isinstance(variant, dict)}
    price = item.get("price") or {}
    if len(prices) > 1 or not isinstance(price, dict):
        return None
    try:
        amount = Decimal(str(price.get("amount")))
    except InvalidOperation:
        return None
    total = amount * count
    places = len(str(price.get("amount")).partition(".")[2])
    return {"amount": f"{total:.{places}f}", "currency": str(price.get("currency", ""))}
