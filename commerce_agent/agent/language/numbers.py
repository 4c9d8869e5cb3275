"""Numbers written in words become digits; counts are the whole numbers that count things.

`fold_numbers` rewrites English and French number words with `text2num` ("twenty-one" → 21,
"vingt et un" → 21), quantity words ("a dozen" → 12, "half a dozen" → 6, "a couple of" → 2,
"une demi-douzaine" → 6, « une couple de » → 2, « une dizaine de » → 10, shares of a dozen:
"a third of a dozen" → 4, "un quart de douzaine" → 3) and Japanese numerals before a counter
("二つ" → 2つ, "千円" → 1000円).
"one", "un" and "une" stay words where they are a pronoun or an article ("the blue one",
"une théière"); "a few" and "quelques" stay words (`quantities` reads them). `find_counts`
then reads the digits that are left once measures, prices, dates and addresses have taken
theirs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial

from commerce_agent.agent.language.measures import UNITS
from commerce_agent.agent.language.spans import Span, overlaps


@dataclass(frozen=True, slots=True)
class Count:
    """How many of something the shopper asked for, and where it was said."""

    value: int
    span: Span


# Number words as a code ("dolce four"), a rating ("five stars") or an option ("five seats")
# spells them; how many to buy is `quantities`'.
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1}
_PLACEHOLDER = "\ue000"
# "one" after an ordinal ("the second one", "the twentieth one") is a pronoun, not a count.
_ORDINAL_WORD = re.compile(
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"\w+teenth|\w+tieth|\w+-(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|"
    r"last|next|previous|\d+(?:st|nd|rd|th))$"
)
# text2num leaves some tens ordinals as words ("sixtieth"); these are written as digits first.
_TENS_ORDINALS = re.compile(
    r"\b(twen|thir|for|fif|six|seven|eigh|nine)tieth\b", re.I)
# Misspellings shoppers type often, that text2num does not know.
_SPELLED = {"ninty": "ninety", "nintey": "ninety", "fourty": "forty", "tweleve": "twelve",
            "twelv": "twelve", "fiveteen": "fifteen", "eightteen": "eighteen"}
_MISSPELLED = re.compile(rf"\b(?:{'|'.join(_SPELLED)})\b", re.I)
_TENS = {"twen": 2, "thir": 3, "for": 4, "fif": 5, "six": 6, "seven": 7, "eigh": 8, "nine": 9}
# "one" after these words (or at the end after "the/that/which") is a pronoun, not a count.
_PRONOUN_BEFORE = frozenset(
    "the that this which each every any no other blue red black white green big small "
    "large little cheap cheaper cheapest expensive same first second last new right wrong "
    "good best other next".split()
)
_UNIT_WORDS = frozenset(spelling.casefold() for _, spellings in UNITS.values()
                       for spelling in spellings if spelling.isalpha())
_COUNT_BEFORE = frozenset(
    "add take get want need buy order make just only another me of with and for to "
    "put give send ship".split()
)
# A share of a dozen, after text2num wrote its numbers ("a third of a dozen" is "a 3rd of a
# dozen", "three quarters of a dozen" "3 quarters of a dozen"): so many pieces.
_SHARES = {"half": 2, "halves": 2, "3rd": 3, "3rds": 3, "third": 3, "thirds": 3, "quarter": 4,
           "quarters": 4, "4th": 4, "4ths": 4, "fourth": 4, "fourths": 4, "6th": 6, "6ths": 6,
           "sixth": 6, "sixths": 6, "tiers": 3, "quart": 4, "quarts": 4, "sixieme": 6,
           "sixième": 6, "sixièmes": 6}
_SHARE = "|".join(sorted(_SHARES, key=len, reverse=True))
_ENGLISH_QUANTITIES = [
    (re.compile(rf"\b(a|an|one|\d+)\s+({_SHARE})\s+(?:of\s+)?(?:a\s+)?dozen\b", re.I), "share"),
    (re.compile(r"\b(?:a\s+)?dozen\s+and\s+a\s+half\b", re.I), "18"),
    (re.compile(r"\bhalf[\s-]+(?:a\s+)?dozen\b", re.I), "6"),
    (re.compile(r"\b(\d+)\s+dozens?\b", re.I), "*12"),
    (re.compile(r"\b(?:a|one)\s+dozen\b", re.I), "12"),
    (re.compile(r"(?<!\d\s)\bdozen\b(?!s)", re.I), "12"),
    (re.compile(r"\b(?:a\s+)?couple\s+of(?=\s+(?:those|these|them|the|my|your|it|each)\b)", re.I),
     "2 of"),
    (re.compile(r"\b(?:a\s+)?couple(?:\s+of)?\b", re.I), "2"),
    (re.compile(r"\ba\s+pair(?:\s+of)?\b", re.I), "2"),
    (re.compile(r"\bx\s?(\d+)\b|\b(\d+)\s?x\b", re.I), "x"),
]
_TIME_NOUNS = r"(?:jours?|nuits?|semaines?|minutes?|heures?|mois|ans|ann[ée]es?)\b"
_FRENCH_QUANTITIES = [
    (re.compile(rf"\b(un|une|\d+)\s+({_SHARE})\s+(?:de\s+|d')?(?:la\s+|une\s+)?douzaine"
                r"(?:\s+d(?:e\s+|'))?", re.I), "share "),
    (re.compile(r"\b(?:une\s+)?douzaine\s+et\s+demie(?:\s+d(?:e\s+|'))?", re.I), "18 "),
    (re.compile(r"\b(?:une\s+)?demi-?\s?douzaines?(?:\s+d(?:e\s+|'))?", re.I), "6 "),
    (re.compile(r"\b(\d+)\s+douzaines?(?:\s+d(?:e\s+|'))?", re.I), "*12 "),
    (re.compile(r"\bune\s+douzaine(?:\s+d(?:e\s+|'))?", re.I), "12 "),
    (re.compile(r"\b(?:une\s+)?paire(?:\s+d(?:e\s+|'))?", re.I), "2 "),
    # Québec's « une couple de » is a couple; « une dizaine de » and its kin count round
    # (never « une quinzaine de jours », a time)
    (re.compile(r"\bune\s+couple\s+d(?:e\s+|')", re.I), "2 "),
    *((re.compile(rf"\bune\s+{noun}\s+d(?:e\s+|')(?!\s*{_TIME_NOUNS})", re.I), f"{value} ")
      for noun, value in (("huitaine", 8), ("dizaine", 10), ("quinzaine", 15),
                          ("vingtaine", 20), ("trentaine", 30))),
    (re.compile(r"\b(\d+)\s?x\b|\bx\s?(\d+)\b", re.I), "x"),
]

_KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
                 "八": 8, "九": 9, "両": 2}
_KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}
_COUNTERS = ("番目|つ|個|本|枚|杯|台|冊|箱|袋|缶|点|人|名|匹|着|足|膳|セット|パック|円|時|分|"
             "日|月|年|ヶ月|か月|週|グラム|キロ|センチ|ミリ|リットル|インチ|万|千")
_JAPANESE_COUNTER = re.compile(r"(?:つ|個|本|枚|杯|台|冊|箱|袋|缶|点|匹|着|足|膳|セット|パック)")
_JAPANESE_NUMBER = re.compile(
    rf"(?<![0-9.,])([0-9〇零一二三四五六七八九十百千両]+万?[0-9〇零一二三四五六七八九十百千]*)"
    rf"(?=(?:{_COUNTERS}))"
)
_DIGITS_MAN = re.compile(r"(\d+(?:\.\d+)?)\s?万")
_DIGITS_SEN = re.compile(r"(\d+)\s?千(?=円)")
# A run of digits that is a word of its own: not part of an id ("ord_8f3"), an ordinal ("2nd"),
# a reference ("#12"), a decimal or a time; Japanese text sits right against its digits.
# A minus sign standing alone before the digits ("add -3 mugs") is a count's sign, not an id's
# hyphen: the count is tagged, and the quantity reader reads its sign.
_COUNT = re.compile(r"(?:(?<![A-Za-z0-9_.,#/:\-])|(?<=[-−])(?<!\S[-−]))"
                    r"(\d+)(?![A-Za-z0-9_]|[.,:/\-]\d|ème|ᵉ)")


def fold_numbers(text: str, language: str) -> str:
    """`text` with numbers and quantity words written as digits (case and other words kept)."""
    return _fold_numbers(text, language)


@lru_cache(maxsize=2048)
def _fold_numbers(text: str, language: str) -> str:
    if language == "ja":
        return _fold_japanese(text)
    text = _words_to_digits(text, language)
    other = {"en": "fr", "fr": "en"}.get(language)
    if other is not None and _ONLY_IN[other].search(text):
        # a message of both ("can I get deux tasses", « ajoute two mugs »): the other
        # language's own number words are numbers too
        text = _words_to_digits(text, other)
    for pattern, replacement in _FRENCH_QUANTITIES if language == "fr" else _ENGLISH_QUANTITIES:
        text = pattern.sub(partial(_quantity, replacement=replacement), text)
    return text


def _quantity(match: re.Match[str], *, replacement: str) -> str:
    if replacement.startswith("share"):
        said = match.group(1).lower()
        parts = int(said) if said.isdigit() else 1
        pieces, left = divmod(12 * parts, _SHARES[match.group(2).lower()])
        return match.group() if left else str(pieces) + replacement[5:]
    if replacement == "x":
        return match.group(1) or match.group(2)
    if replacement.startswith("*"):
        return str(int(match.group(1)) * 12) + replacement[3:]
    return replacement


def _words_to_digits(text: str, language: str) -> str:
    from text_to_num import alpha2digit

    protected: list[str] = []

    def protect(match: re.Match[str]) -> str:
        protected.append(match.group(0))
        return _PLACEHOLDER

    pattern = _ONE_ENGLISH if language == "en" else _ONE_FRENCH
    if language == "en":
        text = _TENS_ORDINALS.sub(lambda match: f"{_TENS[match.group(1).lower()]}0th", text)
        text = _MISSPELLED.sub(lambda match: _SPELLED[match.group(0).lower()], text)
    marked = pattern.sub(lambda match: _protect_if_not_count(match, language, protect), text)
    marked = _LETTER_O_PLURAL.sub(protect, marked)
    converted = alpha2digit(marked, "fr" if language == "fr" else "en", threshold=0)
    if len(protected) != converted.count(_PLACEHOLDER):
        return text
    restored = iter(protected)
    return re.sub(_PLACEHOLDER, lambda _: next(restored), converted)


# text2num reads "o" followed by any number of "s" ("os", "oss") as zero; every other word
# it turns into a number is a number word or its plural (every word of up to four letters,
# and of five ending in "s", was tried). "OS" or a slip of "of" is no zero.
_LETTER_O_PLURAL = re.compile(r"(?<![\w-])[oO][sS]+(?![\w-])")


# Number words only one of the two languages has (no "six", no "un", no "cent").
_ONLY_IN = {
    "fr": re.compile(r"(?<![\w'-])(?:deux|trois|quatre|cinq|sept|huit|neuf|dix|onze|douze|"
                     r"treize|quatorze|quinze|seize|vingt|trente|quarante|cinquante|"
                     r"soixante)(?![\w'-])", re.I),
    "en": re.compile(r"(?<![\w'-])(?:two|three|four|five|seven|eight|nine|ten|eleven|twelve|"
                     r"thirteen|fourteen|fifteen|sixteen|twenty|thirty|forty|fifty|sixty)"
                     r"(?![\w'-])", re.I),
}
_ONE_ENGLISH = re.compile(r"(?<![\w-])ones?(?![\w-])", re.I)
_ONE_FRENCH = re.compile(r"(?<![\w-])une?(?![\w'-])", re.I)
_TENS_ET = re.compile(r"(?:vingt|trente|quarante|cinquante|soixante)[\s-]+et[\s-]+$", re.I)
# "the culinary one", "that ceremonial one": a describing word between an article and "one"
# makes it the pronoun ("the tiramisu one more time" still counts).
_DESCRIBED_ONE = re.compile(r"\b(?:the|that|this)\s+[a-z-]+\s+$", re.I)
_WORD_BEFORE = re.compile(r"([\w']+)[\s,]*$")
_WORD_AFTER = re.compile(r"^\s*([\w']+)")


def _protect_if_not_count(match: re.Match[str], language: str,
                          protect: Callable[[re.Match[str]], str]) -> str:
    # Only the few characters around are looked at: a long message stays linear.
    before_text = match.string[max(0, match.start() - 40): match.start()]
    before_match = _WORD_BEFORE.search(before_text)
    after_match = _WORD_AFTER.search(match.string[match.end(): match.end() + 40])
    before = before_match.group(1).lower() if before_match else ""
    after = after_match.group(1).lower() if after_match else ""
    if match.group(0).lower() == "ones" or before in _UNIT_WORDS:
        is_count = False  # "the 300 ml one": a size, then the pronoun
    elif language == "en":
        is_count = before in _COUNT_BEFORE or before == "" or (
            before not in _PRONOUN_BEFORE and after not in ("", "of", "that", "which"))
        is_count = (is_count and before not in _PRONOUN_BEFORE
                    and not _ORDINAL_WORD.match(before)
                    and (after in ("more", "less") or not _DESCRIBED_ONE.search(before_text)))
    else:
        # "vingt et un", "j'en veux une", "un seul": numbers; "une théière": an article.
        is_count = (bool(_TENS_ET.search(before_text))
                    or before in ("cent", "cents", "mille")
                    or after in ("", "seul", "seule", "de", "d") or before == "veux")
    return match.group(0) if is_count else protect(match)


# Dozens as Japanese says them ("半ダース", "1ダース", "二ダース"), as pieces.
_JAPANESE_DOZEN = re.compile(r"(半|[0-9〇一二三四五六七八九十]+)?ダース")


def _dozens(match: re.Match[str]) -> str:
    said = match.group(1)
    return f"{6 if said == '半' else 12 * (_kanji_number(said) if said else 1)}個"


def _fold_japanese(text: str) -> str:
    text = _JAPANESE_DOZEN.sub(_dozens, text)
    text = _JAPANESE_NUMBER.sub(_japanese_numeral, text)
    text = _DIGITS_MAN.sub(lambda match: _scaled(match.group(1), 10000), text)
    return _DIGITS_SEN.sub(lambda match: _scaled(match.group(1), 1000), text)


def _japanese_numeral(match: re.Match[str]) -> str:
    numeral = match.group(1)
    return numeral if numeral.isascii() else str(_kanji_number(numeral))


def _scaled(number: str, scale: int) -> str:
    value = float(number) * scale
    return str(int(value)) if value.is_integer() else str(value)


def _kanji_number(numeral: str) -> int:
    """The value of a Japanese numeral: 二十一 → 21, 千 → 1000, 1万2千 → 12000, 3 → 3."""
    total = 0
    if "万" in numeral:
        high, _, numeral = numeral.partition("万")
        total = (_kanji_number(high) if high else 1) * 10000
    section = 0
    digits = ""
    for char in numeral:
        if char.isdigit() and char.isascii():
            digits += char
        elif char in _KANJI_DIGITS:
            digits += str(_KANJI_DIGITS[char])
        elif char in _KANJI_UNITS:
            section += (int(digits) if digits else 1) * _KANJI_UNITS[char]
            digits = ""
    return total + section + (int(digits) if digits else 0)


def find_counts(folded: str, taken: list[Span]) -> tuple[Count, ...]:
    """Whole numbers in `folded` outside `taken` spans, that are not ordinals, ids or decimals."""
    counts: list[Count] = []
    for match in _COUNT.finditer(folded):
        span = match.span()
        if overlaps(span, taken):
            continue
        value = int(match.group(1))
        counter = _JAPANESE_COUNTER.match(folded, span[1])
        if counter:
            span = (span[0], counter.end())
        counts.append(Count(value, span))  # a zero too: "0 mugs" says how many, wrongly
    return tuple(counts)

