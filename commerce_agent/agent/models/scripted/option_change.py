"""Slots of a change to a line's options: "make it the blue one", "swap to large", "the
smaller one", "actually the other colour", "speckeld" (a typo of a value), in en/fr/ja.

A change names its target in one of three ways, read in this order:

- by a value of the item's own options (its words, a typo one edit away, or the French and
  Japanese option words), which `choices.pick_variant` and `choices.pick_options` read;
- relative to the line's size: "bigger", "larger", "large", "plus grande", "大きめ" (and their
  opposites) move along the option whose values are measures (12 oz < 16 oz, 30 g < 100 g,
  12-inch < 16-inch), compared in one unit per dimension;
- as "the other one", optionally of a dimension ("the other colour", "l'autre taille", "別の色"):
  a value that differs from the line's on that dimension and keeps the rest where it can.

Pure functions of the item (as `get_item` shows it) and the text.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import Any

from commerce_agent.agent.language.fuzzy import correct_words
from commerce_agent.agent.language.measures import find_measures
from commerce_agent.agent.models.scripted import choices, line_options, words
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS

_BIGGER = re.compile(r"\b(?:bigger|larger|large|big|biggest|largest|grand|grande|grands|grandes|"
                     r"plus gros\w*|gros|grosse|up ?size)\b|大きい|大きめ|大きな|ラージ|"
                     # sizes by letter, as Japanese shops say them: "Lサイズ", "サイズL"
                     r"(?<![a-z])(?:l|xl)\s*サイズ|サイズ\s*(?:l|xl)(?![a-z])")
_SMALLER = re.compile(r"\b(?:smaller|small|smallest|little|petit|petite|petits|petites|"
                      r"moins grand\w*|down ?size)\b|小さい|小さめ|小さな|スモール|"
                      r"(?<![a-z])s\s*サイズ|サイズ\s*s(?![a-z])")
_OTHER = re.compile(r"\b(?:other|another|different|autre|differente?)\b|他の|ほかの|別の|違う")
# Words that name a dimension of an item's options, by the option's name.
_DIMENSION_WORDS = {
    "colour": re.compile(r"\b(?:colou?rs?|glazes?|couleurs?|teintes?|finish)\b|色|カラー"),
    "size": re.compile(r"\b(?:sizes?|tailles?|weights?|poids|format)\b|サイズ|大きさ|重さ"),
}
_OPTION_DIMENSION = {"colour": re.compile(r"colou?r|glaze|couleur|finish", re.IGNORECASE),
                     "size": re.compile(r"size|weight|volume|capacity|taille", re.IGNORECASE)}
# One base unit per dimension, so "12 oz" and "350 ml" or "30 g" and "0.1 kg" compare.
_BASE = {"ml": Decimal(1), "cl": Decimal(10), "l": Decimal(1000), "fl_oz": Decimal("29.57"),
         "mg": Decimal("0.001"), "g": Decimal(1), "kg": Decimal(1000), "oz": Decimal("28.35"),
         "lb": Decimal("453.6"), "mm": Decimal("0.1"), "cm": Decimal(1), "m": Decimal(100),
         "in": Decimal("2.54"), "ft": Decimal("30.48")}
# Words a change uses besides the target: they name no other product.
CHANGE_WORDS = frozenset("""
bigger larger large big biggest largest smaller small smallest little other another different
colour color colours colors size sizes glaze weight better instead rather prefer one version
grand grande petit petite autre couleur taille plutot prefere version swap switch change
""".split())


def measure_of(text: str) -> tuple[str, Decimal] | None:
    """(dimension, value in the dimension's base unit) of the first measure in `text`."""
    for found in find_measures(words.fold(text).replace("-", " "), []):
        if found.unit in _BASE:
            return found.dimension, found.value * _BASE[found.unit]
    return None


def same_measure(said: str, name: str) -> bool:
    """Whether `said` names a measure `name` also carries, in any unit ("30 cl" and "300 ml",
    "0.7 L" and "700 ml"), within 3 %."""
    mine = measure_of(said)
    if mine is None:
        return False
    for found in find_measures(words.fold(name), []):
        if found.unit in _BASE and found.dimension == mine[0]:
            theirs = found.value * _BASE[found.unit]
            if theirs and abs(theirs - mine[1]) <= theirs * Decimal("0.03"):
                return True
    return False


# A size refused ("the big bag, not the small tin", « pas la petite ») is not the one wanted.
_REFUSED_SIZE = re.compile(r"\b(?:not|no|pas|instead of|rather than|au lieu d[eu]?)\s+"
                           r"(?:(?:the|a|an|that|le|la|les|un|une)\s+)?[\w'-]+(?:\s+[\w'-]+)?")


def direction(text: str) -> int:
    """+1 for a bigger size, -1 for a smaller one, 0 when the text says neither."""
    folded = _REFUSED_SIZE.sub(" ", words.fold(text))
    if _SMALLER.search(folded):
        return -1
    return 1 if _BIGGER.search(folded) else 0


def other_dimension(text: str) -> str | None:
    """"" for "the other one", the dimension for "the other colour", None when not asked."""
    folded = words.fold(text)
    if not _OTHER.search(folded):
        return None
    return next((name for name, pattern in _DIMENSION_WORDS.items() if pattern.search(folded)), "")


@lru_cache(maxsize=1024)
def _corrected(text: str, vocabulary: frozenset[str]) -> str:
    return correct_words(text, vocabulary, frozenset())


def said(item: dict[str, Any], text: str) -> set[str]:
    """The option words `text` says, a typo of one of the item's own values read as it."""
    vocabulary = frozenset(word for choice in [
        *choices.variant_choices(item),
        *(c for group in choices.groups(item) for c in choices.option_choices(group))]
        for word in words.words(choice.words) if len(word) > 3 and word.isalpha())
    # what is declined ("not the 12 oz, the 16") is not said
    return choices.said_words((_corrected(text, vocabulary),)) | set(
        words.words(choices.without_declined(text)))


def _values(item: dict[str, Any]) -> list[list[str]]:
    return [[str(value) for value in variant.get("values", [])]
            for variant in choices.meta(item, PRODUCT_VARIANTS).get("variants", [])]


def _dimension_index(item: dict[str, Any], name: str, values: list[list[str]]) -> int | None:
    """The index of the variant option of that dimension ("colour": "Color")."""
    options = [str(option) for option in choices.meta(item, PRODUCT_VARIANTS).get("options", [])]
    for index, option in enumerate(options):
        if _OPTION_DIMENSION[name].search(option):
            return index
    if name == "size":  # no name says it: the option whose values are measures
        return next((index for index in range(len(values[0]))
                     if all(measure_of(row[index]) for row in values)), None)
    return None


def variant_change(item: dict[str, Any], current_id: str | None, text: str) -> str | None:
    """The id of the variant `text` changes a line to, or None (no change said, or only the
    line's own variant fits)."""
    every = choices.variant_choices(item)
    values = _values(item)
    if not every or not values or len(values) != len(every):
        return None
    available = [position for position, choice in enumerate(every) if choice.available]
    current = next((position for position, choice in enumerate(every)
                    if choice.id == current_id), None)
    named = [c for c in choices.pick_variant(item, said(item, text)) if c.available]
    step = direction(text)
    if step and len(named) > 1:  # "the ceremonial one, the small bag": its smallest size
        named = sized(item, named, step)
    if named and len(named) < len(available):
        if any(c.id == current_id for c in named):
            return None
        return _closest(values, current, [every.index(c) for c in named], every)
    if current is None:
        return None
    if step:
        index = _dimension_index(item, "size", values)
        if index is None:
            return None
        mine = measure_of(values[current][index])
        if mine is None:
            return None
        sizes = {p: size[1] for p in available if (size := measure_of(values[p][index]))}
        fits = [p for p, size in sizes.items() if size * step > mine[1] * step]
        if not fits:
            return None
        nearest = min(abs(sizes[p] - mine[1]) for p in fits)
        return _closest(values, current, [p for p in fits if abs(sizes[p] - mine[1]) == nearest],
                        every)
    dimension = other_dimension(text)
    if dimension is None:
        return None
    index = _dimension_index(item, dimension, values) if dimension else None
    fits = [position for position in available if position != current and (
        index is None or values[position][index] != values[current][index])]
    return _closest(values, current, fits, every) if fits else None


def sized(item: dict[str, Any], allowed: list[choices.Choice], step: int
          ) -> list[choices.Choice]:
    """Of the variants allowed, those of the biggest size (`step` > 0) or the smallest; all of
    them when the item's variants have no size."""
    every = choices.variant_choices(item)
    values = _values(item)
    index = _dimension_index(item, "size", values) if values else None
    if index is None or len(values) != len(every):
        return allowed
    sizes = {choice.id: size[1] for choice, row in zip(every, values, strict=True)
             if choice in allowed and (size := measure_of(row[index]))}
    if not sizes:
        return allowed
    best = max(sizes.values()) if step > 0 else min(sizes.values())
    return [choice for choice in allowed if sizes.get(choice.id) == best]


def sized_option(group: dict[str, Any], step: int) -> list[str]:
    """The biggest (`step` > 0) or smallest option of a group whose options are all sizes
    ("large" is the 16-inch pizza), or none."""
    options = choices.option_choices(group)
    sizes = {c.id: size[1] for c in options if (size := measure_of(c.words))}
    if not sizes or len(sizes) != len(options):
        return []
    pick = max if step > 0 else min
    return [pick(sizes, key=lambda option: sizes[option])]


def names_a_size(item: dict[str, Any], text: str) -> bool:
    """Whether the text asks for a bigger or smaller size of an item that has sizes."""
    step = direction(choices.without_name(text, str(item.get("name", ""))))
    if not step:
        return False
    if any(sized_option(group, step) for group in choices.groups(item)
           if group.get("selectionType") == "single"):
        return True
    every = choices.variant_choices(item)
    return bool(every) and len(sized(item, every, step)) < len(every)


def _closest(values: list[list[str]], current: int | None, fits: list[int],
             every: list[choices.Choice]) -> str:
    """Of the variants that fit, the one that keeps most of the line's other values."""
    if current is None:
        return every[fits[0]].id
    mine = values[current]
    best = max(fits, key=lambda p: sum(a == b for a, b in zip(values[p], mine, strict=False)))
    return every[best].id


def option_change(item: dict[str, Any], current: dict[str, Any], text: str
                  ) -> dict[str, Any] | None:
    """The line's customizations with a single-choice group moved by size ("swap to large":
    12-inch → 16-inch), or None when the text moves none."""
    step = direction(text)
    dimension = other_dimension(text)
    if not step and dimension:
        # "the other size": 16-inch → 12-inch ("the other one" alone may mean another thing
        # shown: a variant's line only, as `variant_change` reads it)
        return _other_option(item, current, dimension)
    if not step:
        return _named_option(item, current, text)
    wanted = dict(current)
    for group in choices.groups(item):
        if group.get("selectionType") != "single":
            continue
        options = choices.option_choices(group)
        sizes = {c.id: size[1] for c in options if (size := measure_of(c.words))}
        chosen = str(current.get(str(group["id"])))
        if len(sizes) != len(options) or chosen not in sizes:
            continue
        fits = sorted((size, option) for option, size in sizes.items()
                      if size * step > sizes[chosen] * step)
        if fits:
            wanted[str(group["id"])] = fits[0][1] if step > 0 else fits[-1][1]
    return wanted if wanted != current else None


def _other_option(item: dict[str, Any], current: dict[str, Any], dimension: str
                  ) -> dict[str, Any] | None:
    """The line's customizations with the one single-choice group of that dimension moved to
    its one other option, or None when that names no one group or no one option."""
    moves = []
    for group in choices.groups(item):
        chosen = current.get(str(group["id"]))
        if group.get("selectionType") != "single" or not chosen or (
                not _OPTION_DIMENSION[dimension].search(str(group.get("name")))):
            continue
        others = [c.id for c in choices.option_choices(group) if c.id != chosen]
        if len(others) == 1:
            moves.append((str(group["id"]), others[0]))
    if len(moves) != 1:
        return None
    return {**current, moves[0][0]: moves[0][1]}


# An option said with an indefinite article: one more of the item ("a 16 inch one").
_ANOTHER = re.compile(r"\b(?:a|an|another|un|une)\s+\d")


def _named_option(item: dict[str, Any], current: dict[str, Any], text: str
                  ) -> dict[str, Any] | None:
    """The line's customizations with a single-choice group moved to the option the text
    names ("let's go with 16 inches", "the gluten-free crust"), or None. A number names an
    option only with its unit ("16 inches"; "16" alone is a count), and a text that counts
    ("a 16 inch margherita", "a 16 inch one") asks for another line."""
    if line_options.asks_for_another(item, text) or words.quantity(text) is not None or \
            _ANOTHER.search(words.fold(text)):
        return None  # "a 16 inch one", "two 16 inch ones": counted, so more of the item
    heard = said(item, text)
    stems = {words.stem(word) for word in heard}
    wanted = dict(current)
    for group in choices.groups(item):
        if group.get("selectionType") != "single":
            continue
        labels = {c.id: c.words for c in choices.option_choices(group)}
        chosen = [option for option in choices.pick_options(group, heard)
                  if any(words.stem(word) in stems for word in words.words(labels.get(option, ""))
                         if not word.isdigit())]
        if len(chosen) == 1:
            wanted[str(group["id"])] = chosen[0]
    return wanted if wanted != current else None
