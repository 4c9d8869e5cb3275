"""Which of a store's shipping options a shopper's words choose: "express", "the cheaper
shipping", "la livraison la moins chère", "一番早い配送", or an option's own name ("Yu-Packet").

General rules, not a list of one store's options: a word for cheap picks the lowest price, a
word for fast the shortest delivery time (else the option whose name says express), and
otherwise an option whose distinctive name words appear in the message. None when the words
choose nothing (the store's default then applies).
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Any

from commerce_agent.agent.language.folding import fold_accents

_CHEAP = re.compile(
    r"\b(cheap\w*|least expensive|lowest|budget|economy|moins cher\w*|economique\w*|"
    r"pas cher\w*)\b|安い|安く|格安|一番安")
_FAST = re.compile(
    r"\b(express|fast\w*|quick\w*|rapid\w*|next[- ]day|overnight|urgent\w*|asap|"
    r"priority|vite|plus rapide)\b|速い|早い|急ぎ|至急|速達|エクスプレス")
# Words every option name may carry: they tell no option from another.
_GENERIC = frozenset({"shipping", "delivery", "livraison", "standard", "the", "and", "de",
                      "la", "le", "par", "small", "items", "tracked"})


def _price(option: dict[str, Any]) -> Decimal:
    try:
        return Decimal(str((option.get("amount") or {}).get("amount", "0")))
    except InvalidOperation:
        return Decimal(0)


def _days(option: dict[str, Any]) -> int | None:
    time = option.get("processingTime") or {}
    days = time.get("maxDays", time.get("minDays"))
    return days if isinstance(days, int) else None


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text))


def chosen_option(text: str, options: list[dict[str, Any]]) -> str | None:
    """The id of the option `text` chooses among `options` ({id, name, amount,
    processingTime?}), or None."""
    if len(options) < 2:
        return None
    folded = fold_accents(text)
    # Accents folded for Latin words; kana keep their voicing marks (ぎ is not き).
    both = f"{folded} {unicodedata.normalize('NFKC', text).casefold()}"
    if _CHEAP.search(both):
        return str(min(options, key=_price)["id"])
    if _FAST.search(both):
        timed = [option for option in options if _days(option) is not None]
        if timed:
            return str(min(timed, key=lambda option: (_days(option), -_price(option)))["id"])
        named = [option for option in options if "express" in fold_accents(str(option["name"]))]
        return str((named or [max(options, key=_price)])[0]["id"])
    said = _words(folded)
    named = [option for option in options
             if (_words(fold_accents(str(option.get("name", "")))) - _GENERIC) & said]
    if len(named) == 1:
        return str(named[0]["id"])
    standard = [option for option in options
                if "standard" in _words(fold_accents(str(option.get("name", ""))))]
    return str(standard[0]["id"]) if "standard" in said and len(standard) == 1 else None
