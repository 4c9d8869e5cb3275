"""Sizes and units: "300 ml", "16-ounce", '10"', "27センチ", "size M" are not how many to buy.

A table of the units shoppers write (English, French and Japanese spellings) and one pattern
built from it read a number glued to its unit. quantulum3 was tried and declined (see
docs/decisions.md): its first parse takes over a second, it reads "ml" as cubic centimetres
and '10"' as seconds of arc, and knows neither French decimal commas nor Japanese units.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from commerce_agent.agent.language.spans import Span, overlaps


@dataclass(frozen=True, slots=True)
class Measure:
    """A quantity with its unit: `unit` is canonical ("ml", "g", "cm", "in", "oz", …)."""

    value: Decimal
    unit: str
    dimension: str
    span: Span


@dataclass(frozen=True, slots=True)
class Size:
    """A garment or item size named by its label ("M", "XL", "10")."""

    label: str
    span: Span


# canonical unit: (dimension, spellings). Spellings are matched case-insensitively, longest first.
# Text is NFKC-normalized first, which writes "″" as "′′": both are listed.
UNITS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ml": ("volume", ("ml", "millilitres", "millilitre", "milliliters", "milliliter",
                      "ミリリットル", "cc")),
    "cl": ("volume", ("cl", "centilitres", "centilitre", "centiliters", "centiliter")),
    "l": ("volume", ("l", "litres", "litre", "liters", "liter", "ltr", "リットル", "ℓ")),
    "fl_oz": ("volume", ("fl oz", "fl. oz", "fl.oz", "floz", "fluid ounces", "fluid ounce")),
    "mg": ("mass", ("mg", "milligrams", "milligram", "milligrammes", "milligramme")),
    "g": ("mass", ("g", "gr", "grams", "gram", "grammes", "gramme", "グラム")),
    "kg": ("mass", ("kg", "kgs", "kilos", "kilo", "kilograms", "kilogram", "kilogrammes",
                    "kilogramme", "キログラム", "キロ")),
    "oz": ("mass", ("oz", "ounces", "ounce", "onces", "once", "オンス")),
    "lb": ("mass", ("lbs", "lb")),
    "mm": ("length", ("mm", "millimetres", "millimetre", "millimeters", "millimeter",
                      "millimètres", "millimètre", "ミリメートル", "ミリ")),
    "cm": ("length", ("cm", "centimetres", "centimetre", "centimeters", "centimeter",
                      "centimètres", "centimètre", "センチメートル", "センチ")),
    "m": ("length", ("m", "metres", "metre", "meters", "meter", "mètres", "mètre", "メートル")),
    "in": ("length", ("inches", "inch", "in.", "pouces", "pouce", "インチ", '"', "″", "′′", "”")),
    "ft": ("length", ("ft", "feet", "foot")),
    "tine": ("count_in_item", ("tines", "tine", "本立て")),
    "piece": ("count_in_item", ("piece", "pièces", "pc")),
    # A licence's seats and a book's pages say which item or option, never how many of it.
    "seat": ("count_in_item", ("seats", "seat", "sièges", "siège", "席")),
    "page": ("count_in_item", ("pages", "ページ")),
    "star": ("rating", ("stars", "star", "étoiles", "étoile", "つ星")),
    "percent": ("ratio", ("%", "percent", "pour cent", "パーセント")),
    "hour": ("duration", ("hours", "hour", "hrs", "hr", "heures", "時間")),
    "minute": ("duration", ("minutes", "minute", "mins", "min", "分間")),
    "day": ("duration", ("days", "day", "jours", "日間")),
    "week": ("duration", ("weeks", "week", "semaines", "semaine", "週間")),
    "month": ("duration", ("months", "month", "mois", "ヶ月", "か月")),
    "year": ("duration", ("years", "year", "ans", "an", "年間")),
}
# Units a hyphen joins to their number ("16-ounce", "10-inch", "12-piece") but that a space
# alone does not make a unit of, because they are common words too ("in", "an").
_HYPHEN_ONLY = {"in": "in", "piece": "piece"}
# A unit after a number says the number is no count, as a folded message writes it: the
# table's units and a party's, a time's, a rating's, a storage's or a power's ("4 people",
# "3pm", "4/5", "2 tb"). "in" is inches only glued or hyphenated to its number ("16in",
# "16-in"), as in the table: "make that 3 in total" is a count.
NO_COUNT_UNIT = (r"(?:oz|ounces?|fl\.? ?oz|g|grams?|gr|kg|kilos?|lbs?|pounds? (?:bag|pack)|"
                 r"ml|l|cl|dl|"
                 r"litres?|liters?|cm|mm|m\b|metres?|meters?|inch(?:es)?|pouces?|"
                 r"(?<=[\d-])in\b|in\.|\"|''|"
                 r"seats?|"
                 r"stars?|"
                 r"%|percent|people|persons?|minutes?|mins?|hours?|h\b|am|pm|tines|/5|out of|"
                 r"pages?|gb|mb|tb|w\b|watts?|v\b|mah|ミリ|センチ|グラム|cc)")
# A volume, weight or length with its number, as a folded message writes it ("30 cl").
SIZE_WITH_UNIT = re.compile(r"\b\d+(?:[.,]\d+)?\s*-?\s*(?:ml|cl|dl|l|litres?|liters?|g|grams?|"
                            r"kg|oz|ounces?|cm|mm|inch(?:es)?|in|\")(?![a-z])")
_SPELLINGS = sorted(
    ((spelling, unit) for unit, (_, spellings) in UNITS.items() for spelling in spellings),
    key=lambda pair: -len(pair[0]),
)
_UNIT_OF = {spelling.casefold(): unit for spelling, unit in _SPELLINGS}
_UNIT_OF.update({"in": "in", "pieces": "piece", "pack": "piece", "pk": "piece"})
_NUMBER = r"(\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:[.,]\d{1,2}(?!\d))?|\d+(?:\.\d+)?)"
_MEASURE = re.compile(
    rf"(?<![A-Za-z0-9_.,]){_NUMBER}(?:\s?-\s?|\s?)"
    rf"({'|'.join(re.escape(spelling) for spelling, _ in _SPELLINGS)})"
    r"(?![A-Za-z0-9À-ÿ])",
    re.IGNORECASE,
)
_HYPHENATED = re.compile(
    rf"(?<![A-Za-z0-9_.,]){_NUMBER}\s?-\s?(in|pieces?|pack|pk)(?![A-Za-z])"
    rf"|(?<![A-Za-z0-9_.,]){_NUMBER}(in)\b",
    re.IGNORECASE,
)
_LABELS = r"(XXS|XS|S|M|L|XL|XXL|XXXL|[2-5]XL)"
_SIZE = re.compile(
    rf"\b(?:size|taille|サイズ)\s?:?\s?({_LABELS[1:-1]}|\d{{1,2}}(?:\.5)?)(?![\w.])"
    rf"|(?<![A-Za-z0-9]){_LABELS}\s?(?:サイズ|size\b)"
    r"|(?<![A-Za-z0-9])(XXS|XS|XL|XXL|XXXL|[2-5]XL)(?![A-Za-z0-9])"
    r"|\b(?:in|en)\s+(S|M|L)\b(?![A-Za-z'])",
    re.IGNORECASE,
)


# A size named by pointing back at one said before: "that same size", "in this size", "the
# same size", "la même taille", "cette taille-là", "同じサイズ", "そのサイズ".
_SAME_SIZE = re.compile(
    r"\b(?:in\s+)?(?:(?:that|this)\s+(?:same\s+)?|(?:the\s+)?same\s+)size\b"
    r"|\b(?:en\s+|dans\s+)?(?:la\s+m[eê]me|cette)\s+taille(?:-l[aà])?(?![\w-])"
    r"|同じサイズ|そのサイズ|同サイズ", re.IGNORECASE)


def with_size_named(text: str, size: str) -> str:
    """`text` with a size pointed back at ("the blue in that same size") written as the size
    it points at ("the blue in 12 oz"); `text` itself when it points at none."""
    def named(match: re.Match[str]) -> str:
        pointer = match.group().lower()
        if "taille" in pointer:
            return f"en {size}"
        return f"in {size}" if pointer.isascii() else size
    return _SAME_SIZE.sub(named, text)


def points_at_a_size(text: str) -> bool:
    """Whether `text` names a size only by pointing back at one ("that same size")."""
    return _SAME_SIZE.search(text) is not None


def find_measures(text: str, taken: list[Span]) -> tuple[Measure, ...]:
    """Every number-with-unit in `text` (casefolded or not) outside the `taken` spans."""
    found: list[Measure] = []
    spans = list(taken)
    for pattern in (_MEASURE, _HYPHENATED):
        for match in pattern.finditer(text):
            number = match.group(1) or match.group(3)
            spelling = match.group(2) or match.group(4)
            if number is None or spelling is None or overlaps(match.span(), spans):
                continue
            unit = _UNIT_OF[spelling.casefold()]
            found.append(Measure(_decimal(number), unit, UNITS[unit][0], match.span()))
            spans.append(match.span())
    return tuple(sorted(found, key=lambda measure: measure.span))


def find_sizes(cased: str, taken: list[Span]) -> tuple[Size, ...]:
    """Sizes named in `cased` (the text before lowercasing: a lone "m" is not size M)."""
    sizes: list[Size] = []
    for match in _SIZE.finditer(cased):
        label = next(group for group in match.groups() if group)
        if overlaps(match.span(), taken):
            continue
        if (match.group(3) or match.group(4)) and not label.isupper():
            continue
        sizes.append(Size(label.upper(), match.span()))
    return tuple(sizes)


def _decimal(number: str) -> Decimal:
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", number):
        return Decimal(number.replace(",", ""))
    return Decimal(number.replace(",", "."))
