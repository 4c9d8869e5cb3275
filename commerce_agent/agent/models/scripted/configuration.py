"""An item's configuration read from the words said beside its name: the variant, the
customization options and the add-ons that "the aurelia sans licence with 20 seats and the
app embedding", "une tasse bleue, la grosse de 16 oz", "not the fancy ceremonial stuff, the
100g bag" or "シーザーサラダに半熟卵をのせて" pick.

Every choice the item offers (each variant value, each customization option, each add-on)
is matched by its name in English and in the shopper's language (the item's `optionNames`):
word by word with typo tolerance (rapidfuzz), a number with the unit said after it ("16 oz",
"20 postes", "5ユーザー"), and Japanese by the runs of script of its name found in the text.
A choice named where the shopper says not, without, pas or じゃなくて is declined. "The big
one", « la grosse », 大きい方 pick the largest (or smallest) size left. The reading is of the
whole item: which variants stay, what each group gets, which add-ons, and how many of the
item's choices the words named (none: the words only name the item).

Pure functions of the item (as `get_item` shows it) and the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz

from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.language.numbers import fold_numbers
from commerce_agent.agent.language.option_words import SIZE_RANK_WORDS, english_option_words
from commerce_agent.agent.models.scripted import choices, option_change, words
from commerce_agent.commerce.capability_ids import PRODUCT_ADDONS, PRODUCT_VARIANTS

# What takes back the choices named after it in a clause ("not the ceremonial", "without the
# gift box", « pas celui de cérémonie », "hold the egg"); « sans gluten » names an option.
_NOT = re.compile(r"\b(?:not|no|without|minus|hold|skip|never|instead of|rather than|pas|"
                  r"sans(?!\s+gluten)|plutot que|au lieu de)\b")
# What says the next choices are wanted again ("no olives, with nduja").
_WITH = re.compile(r"\b(?:with|plus|add|and some|avec|ajoute[rz]?|en plus)\b")
# Japanese: what comes before じゃなくて is refused, what comes after is wanted; a clause
# ending in なし / 抜き / いらない refuses its choices.
_JA_INSTEAD = re.compile(r"じゃなくて|じゃなく|ではなくて|ではなく|でなく|より")
_JA_NONE = re.compile(r"なし|無し|抜き|抜いて|いらない|要らない|不要")
_CLAUSE = re.compile(r"[,;.!?、。]|\b(?:but|mais|however)\b")
_JAPANESE_RUN = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}|[\u4e00-\u9fff]{2,}")
# Runs of a Japanese name too common to name it alone ("追加" of ホットハニー追加).
_JA_GENERIC = frozenset({"追加", "別添え", "付き", "用意"})
# Words of an option's name that do not tell it from others on their own.
_GENERIC = choices.GENERIC_EXTRA_WORDS | frozenset({"choose", "your", "de", "du", "la",
                                                    "le", "les", "en", "dans", "une", "un"})
# Units that are the same, said in another way ("100 grams" is the "100 g" bag).
_UNITS = {"g": {"gram", "gramme", "gr", "グラム"}, "oz": {"ounce", "once", "オンス"},
          "inch": {"in", "pouce", "インチ"}, "seat": {"poste", "user", "utilisateur", "ユーザー",
                                                     "person", "people", "licence", "license"},
          "ml": {"millilitre", "milliliter"}, "cm": {"centimetre", "centimeter"}}
_NUMBER_UNIT = re.compile(r"(\d+)[\s-]*([a-z]+|[\u30a1-\u30fa\u30fc]+|[\u4e00-\u9fff]+|\"|)")


@dataclass
class Reading:
    """What the words pick: variant ids still allowed (all when none was named), wanted
    options per group, wanted add-ons, declined ids, and how many choices were named."""
    variants: list[str] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)
    addons: list[str] = field(default_factory=list)
    declined: set[str] = field(default_factory=set)
    named: int = 0
    variant_named: bool = False


@dataclass(frozen=True)
class _Piece:
    """A stretch of the text with one polarity."""
    text: str
    wanted: bool


def _pieces(text: str) -> list[_Piece]:
    folded = words.fold(text)
    found: list[_Piece] = []
    for clause in _CLAUSE.split(folded):
        if not clause.strip():
            continue
        parts = _JA_INSTEAD.split(clause)
        if len(parts) > 1:  # "お点前用じゃなくて製菓用で"
            found += [_Piece(part, False) for part in parts[:-1]] + [_Piece(parts[-1], True)]
            continue
        if _JA_NONE.search(clause):
            found.append(_Piece(clause, False))
            continue
        wanted, start = True, 0
        marks = sorted([(m.start(), False) for m in _NOT.finditer(clause)] +
                       [(m.start(), True) for m in _WITH.finditer(clause)])
        for at, turns_to in marks:
            if turns_to and not wanted and len(clause[start:at].split()) <= 1:
                continue  # "not with the fresh tonnarelli": still refused
            if clause[start:at].strip():
                found.append(_Piece(clause[start:at], wanted))
            wanted, start = turns_to, at
        if clause[start:].strip():
            found.append(_Piece(clause[start:], wanted))
    return found


def _unit(word: str) -> str:
    plain = words.stem(word)
    for unit, others in _UNITS.items():
        if plain == unit or plain in others or any(plain.startswith(o) for o in others
                                                    if len(o) > 2):
            return unit
    return plain


@lru_cache(maxsize=2048)
def _measures(text: str) -> frozenset[tuple[str, str]]:
    """(number, unit) of each number said, the unit "" when no word follows it."""
    return frozenset((number, _unit(unit) if unit else "")
                     for number, unit in _NUMBER_UNIT.findall(text))


@lru_cache(maxsize=2048)
def _said(text: str) -> frozenset[str]:
    found = {words.stem(word) for word in re.findall(r"[a-z][a-z0-9'-]*", text)}
    found |= {part for word in list(found) if "-" in word for part in word.split("-")}
    found |= {words.stem(word) for word in english_option_words(text)}
    return frozenset(found)


def _same(mine: str, said: str) -> bool:
    if mine == said or (len(mine) >= 4 and said.startswith(mine)) or (
            len(said) >= 4 and mine.startswith(said)):
        return True
    return len(mine) >= 5 and len(said) >= 5 and fuzz.ratio(mine, said) >= 85


def _form_matches(form: str, piece: str, own: frozenset[str], numbered: bool) -> float:
    """How well one name of a choice (in one language) is said in the piece: 0 when not."""
    folded = words.fold(re.sub(r"[（(][^)）]*[)）]", " ", form))
    if in_japanese_script(folded):
        if folded.replace(" ", "") in piece.replace(" ", ""):
            return 1.0
        runs = [run for run in _JAPANESE_RUN.findall(folded)
                if run not in _JA_GENERIC and run not in own]
        hits = [run for run in runs if run in piece]
        numbers = _measures(folded)
        if numbers and not numbers <= _measures(piece):
            return 0.0
        return len(hits) / len(runs) if hits and len(hits) * 2 >= len(runs) else 0.0
    numbers = _measures(folded)
    if numbered and numbers:
        measured = _measures(piece)
        # each number with its unit ("16 oz"), or alone ("the 16"), never as a count of
        # something else ("3 sachets")
        return 1.0 if all((n, u) in measured or (n, "") in measured for n, u in numbers) \
            else 0.0
    named = [word for word in words.words(folded)
             if word not in own and word not in _GENERIC and word not in words.STOP
             and not any(ch.isdigit() for ch in word) and len(word) > 1]
    if not named:
        return 0.0
    said = _said(piece)
    hits = [word for word in named if any(_same(word, other) for other in said)]
    # half of a name is enough when a word of some length is said ("egg" of the soft-boiled
    # egg, not the "san" of « sans gluten » in "san pellegrino")
    if len(hits) < len(named) and not any(len(word) >= 4 for word in hits):
        return 0.0
    return len(hits) / len(named)


@dataclass(frozen=True)
class _Choice:
    kind: str  # "value", "option", "addon"
    key: str  # the variant dimension or group id ("" for add-ons)
    id: str  # the value itself, the option id or the add-on id
    names: tuple[str, ...]
    numbered: bool


def _offered(item: dict[str, Any]) -> list[_Choice]:
    local = item.get("optionNames") or {}

    def names(name: str) -> tuple[str, ...]:
        return (name, str(local[name])) if local.get(name) and local[name] != name else (name,)

    found: list[_Choice] = []
    values = sorted({(index, str(value)) for variant in choices.meta(item, PRODUCT_VARIANTS).get(
        "variants", []) for index, value in enumerate(variant.get("values", []))})
    found += [_Choice("value", str(index), value, names(value), True) for index, value in values]
    for group in choices.groups(item):
        single = group.get("selectionType") == "single"
        found += [_Choice("option", str(group["id"]), str(option["id"]),
                          names(str(option["name"])), single)
                  for option in group.get("options", [])]
    found += [_Choice("addon", "", str(addon["id"]), names(str(addon.get("name", ""))), False)
              for addon in choices.meta(item, PRODUCT_ADDONS).get("items", [])]
    return found


def read(item: dict[str, Any], text: str, language: str = "en") -> Reading:
    """The configuration `text` picks for `item` (its name's words pick nothing)."""
    name = str(item.get("name", ""))
    own = frozenset(words.words(name)) | frozenset(_JAPANESE_RUN.findall(words.fold(name)))
    plain = _without_name_pairs(fold_numbers(text, language if language in ("en", "fr", "ja")
                                             else "en"), name)
    offered = _offered(item)
    score: dict[_Choice, tuple[float, bool]] = {}
    for piece in _pieces(plain):
        for choice in offered:
            best = max(_form_matches(form, piece.text, own, choice.numbered)
                       for form in choice.names)
            if best >= 0.5 and best >= score.get(choice, (0.0, True))[0]:
                score[choice] = (best, piece.wanted)
    reading = Reading()
    wanted = {choice for choice, (_, yes) in score.items() if yes}
    refused = {choice for choice, (_, yes) in score.items() if not yes}
    reading.named = len(score)
    reading.declined = {choice.id for choice in refused}
    reading.variants = _variants(item, wanted, refused, text)
    sized = len(reading.variants) < len(choices.variant_choices(item))
    reading.variant_named = sized or any(choice.kind == "value" for choice in score)
    reading.named += sized and not any(choice.kind == "value" for choice in score)
    step = option_change.direction(choices.without_name(text, name))
    for group in choices.groups(item):
        mine = [choice for choice in offered if choice.key == group["id"]]
        picked = [choice.id for choice in mine if choice in wanted]
        single = group.get("selectionType") == "single"
        if single and len(picked) > 1:  # the best said ("the gluten free spaghetti")
            picked = [max((c for c in mine if c in wanted), key=lambda c: score[c][0]).id]
        if not picked and single and step:
            picked = option_change.sized_option(group, step)
            reading.named += bool(picked)
        left = [choice for choice in mine if choice not in refused]
        if not picked and single and len(left) == 1 < len(mine):
            picked = [left[0].id]  # "not the 16 inch" of two sizes: the other one
            reading.named += 1
        if picked:
            reading.options[str(group["id"])] = picked
    reading.addons = [choice.id for choice in offered if choice.kind == "addon"
                      and choice in wanted]
    return reading


def _without_name_pairs(text: str, name: str) -> str:
    """`text` folded, without the pairs of words it shares with the item's name: "Aurelia
    Sans" names the font, its "sans" takes nothing back."""
    folded = words.fold(text)
    named = re.findall(r"[a-z0-9]+", words.fold(name))
    for first, second in zip(named, named[1:], strict=False):
        folded = re.sub(rf"\b{re.escape(first)}\s+{re.escape(second)}\b", " ", folded)
    return folded


def _variants(item: dict[str, Any], wanted: set[_Choice], refused: set[_Choice],
              text: str) -> list[str]:
    variants = choices.meta(item, PRODUCT_VARIANTS).get("variants", [])
    keep = list(variants)
    for dimension in {choice.key for choice in wanted if choice.kind == "value"}:
        named = {choice.id for choice in wanted if choice.kind == "value"
                 and choice.key == dimension}
        keep = [variant for variant in keep
                if len(variant.get("values", [])) > int(dimension)
                and str(variant["values"][int(dimension)]) in named] or keep
    gone = {(choice.key, choice.id) for choice in refused if choice.kind == "value"} - {
        (choice.key, choice.id) for choice in wanted if choice.kind == "value"}
    keep = [variant for variant in keep if not any(
        (str(index), str(value)) in gone for index, value in enumerate(
            variant.get("values", [])))] or keep
    ids = [str(variant["id"]) for variant in keep]
    step = option_change.direction(choices.without_name(text, str(item.get("name", ""))))
    if step and len(ids) > 1:  # "the big one", « la grosse »: the largest size left
        allowed = [choice for choice in choices.variant_choices(item) if choice.id in ids]
        ids = [choice.id for choice in option_change.sized(item, allowed, step)]
    return ids


def configures(item: dict[str, Any], piece: str, language: str = "en") -> bool:
    """Whether a piece of a message said apart from the item's name is more of that item:
    it names some of the item's choices and no other thing ("the bigger 16 oz size",
    "and the film preset pack", "半熟卵をのせて"), not "and 2 san pellegrinos"."""
    if not read(item, piece, language).named:
        return False
    names = [form for choice in _offered(item) for form in choice.names]
    own = {words.stem(word) for form in (*names, str(item.get("name", "")))
           for word in words.words(form)} | {words.stem(word) for word in english_option_words(
               " ".join(names))}
    said = {words.stem(word) for word in english_option_words(piece)}
    left = [word for word in words.content_words(piece) - SIZE_RANK_WORDS
            if not any(_same(mine, word) for mine in own) and words.stem(word) not in said]
    # one word of the shopper's own may go with them ("no rush"), unless the piece starts as
    # a new thing does, with a count or "a" ("two 16 inch margheritas")
    return not left or (len(left) == 1 and not _NEW_THING.match(words.fold(piece)))


_NEW_THING = re.compile(r"\s*(?:and |et |plus )?(?:\d+|a|an|one|two|three|four|five|six|un|une|"
                        r"deux|trois|quatre|cinq|six)\b")
