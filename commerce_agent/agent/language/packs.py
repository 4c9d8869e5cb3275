"""An amount asked for by weight or volume ("2 kg of genmaicha", « 500 grammes de hojicha »,
「玄米茶を1キロ」) is bought in packs of the item's size: the count is the amount over the pack
size, rounded up. Units are not counts: an amount whose item states no pack size is asked
about, never taken for how many.

This stage only reads amounts and sizes; `quantities` (and its counts) stays the owner of
counts, and the planner decides what to do with the packs found here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from commerce_agent.agent.language.measures import Measure, find_measures

# Every mass in grams and every volume in millilitres, so amounts and packs compare.
_IN_BASE = {"mg": Decimal("0.001"), "g": Decimal(1), "kg": Decimal(1000),
            "oz": Decimal("28.3495"), "lb": Decimal("453.592"),
            "ml": Decimal(1), "cl": Decimal(10), "l": Decimal(1000),
            "fl_oz": Decimal("29.5735")}
_DIMENSIONS = ("mass", "volume")
# An amount is a measure said as how much of a thing: "2 kg of", « 500 g de », « un kilo d' »,
# 「…を1キロ」. "the 300 ml kyusu" names a size, not an amount.
_AMOUNT_FRAME = re.compile(r"^\s*(?:of|de|d'|d’|du|des)\b|^\s*d['’]", re.IGNORECASE)
_AFTER_OBJECT = re.compile(r"[をがも]\s*$")
# Amounts written in words before "of": "half a kilo", "a kilo", « un demi-kilo », « un litre ».
_WORDED = re.compile(
    r"\b(?:(half|a half|one and a half|demi|un demi|une demie?)(?:\s+an?|\s*-)?\s*"
    r"|(a|an|one|un|une)\s+)"
    r"(kilos?|kilogram(?:me)?s?|litres?|liters?|pounds?|livres?)\b"
    r"(?=\s*(?:of|de|d['’]|du|des)\b|\s*d['’])",
    re.IGNORECASE)
_WORDED_UNIT = {"kilo": "kg", "kilogram": "kg", "kilogramme": "kg", "litre": "l", "liter": "l",
                "pound": "lb", "livre": "lb"}


@dataclass(frozen=True, slots=True)
class Packs:
    """How many packs make the amount asked for; `exact` when they make it to the gram."""

    count: int
    exact: bool
    amount: Measure
    pack: Measure


def amount_asked(text: str) -> Measure | None:
    """The weight or volume `text` asks for ("2 kg of …", "half a kilo of …", 「…を1キロ」),
    or None when it says none (a size naming the item, "the 300 ml kyusu", is none)."""
    worded = _WORDED.search(text)
    if worded is not None:
        value = Decimal("0.5") if worded.group(1) and "and" not in worded.group(1) else \
            Decimal("1.5") if worded.group(1) else Decimal(1)
        unit = _WORDED_UNIT[re.sub(r"s$", "", worded.group(3).lower())]
        return Measure(value, unit, "mass" if unit in ("kg", "lb") else "volume",
                       worded.span())
    for measure in find_measures(text, []):
        if measure.dimension not in _DIMENSIONS:
            continue
        before, after = text[:measure.span[0]], text[measure.span[1]:]
        if _AMOUNT_FRAME.search(after) or _AFTER_OBJECT.search(before):
            return measure
    return None


def pack_size(labels: Iterable[str]) -> Measure | None:
    """The pack size the first of `labels` that states one writes ("Genmaicha with Matcha,
    200 g", a variant's "100 g"), else None."""
    for label in labels:
        for measure in find_measures(label, []):
            if measure.dimension in _DIMENSIONS:
                return measure
    return None


def same_size(one: Measure, other: Measure) -> bool:
    """Whether two measures are the same weight or volume ("0.2 kg" and "200 g")."""
    return one.dimension == other.dimension and _base(one) == _base(other)


def packs(amount: Measure, pack: Measure) -> Packs | None:
    """How many packs of `pack` make `amount`, rounded up; None when one is a weight and the
    other a volume (which no pack converts)."""
    if amount.dimension != pack.dimension or _base(pack) <= 0:
        return None
    ratio = _base(amount) / _base(pack)
    # a hundredth of a pack is rounding in the units' factors, not a pack more
    count = max(1, math.ceil(ratio - Decimal("0.01")))
    return Packs(count, abs(ratio - count) < Decimal("0.01"), amount, pack)


def written(measure: Measure) -> str:
    """A measure as a shopper reads it: "2 kg", "0.5 kg", "750 ml"."""
    value = measure.value.normalize()
    return f"{value:f} {measure.unit.replace('_', ' ')}"


def _base(measure: Measure) -> Decimal:
    return measure.value * _IN_BASE[measure.unit]
