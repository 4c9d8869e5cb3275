"""Price limits: "under $20", "moins de 20 €", "2000円以下", "between 10 and 20 dollars".

Amounts are read by `price-parser` (thousands and decimal separators of either convention);
the currency comes from the symbol, code or word next to the amount, mapped to the ISO codes
the stores sell in. A limit word decides the bound: below/under/max → `max`, over/at least →
`min`, between/from…to → both, around/environ/くらい → a quarter either side; an amount with
a currency and no limit word is both (the "$25 one"). An amount without a currency counts
only after a limit word ("under 20").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from commerce_agent.agent.language.folding import fold
from commerce_agent.agent.language.spans import Span, overlaps


@dataclass(frozen=True, slots=True)
class PriceBound:
    """The price range the shopper asked for; `currency` is an ISO code or None when unsaid."""

    min: Decimal | None
    max: Decimal | None
    currency: str | None
    span: Span
    # A bound said strictly: "under $20" is less than 20 (a $20 item is not under it), "over
    # 10" more than 10; "up to", "at most", "at least", 以下, 以上 include the amount.
    max_excluded: bool = False
    min_excluded: bool = False


_CURRENCY_WORDS = {
    # Québec says "piasses" (piastres) for dollars, as English says "bucks"
    "USD": ("usd", "us$", "$", "dollars", "dollar", "bucks", "buck", "dollars us", "piasses",
            "piasse", "piastres", "piastre", "ドル", "米ドル"),
    "EUR": ("eur", "€", "euros", "euro", "balles", "ユーロ"),
    "GBP": ("gbp", "£", "pounds", "pound", "quid", "sterling", "livres sterling", "livres",
            "livre", "ポンド"),
    "JPY": ("jpy", "¥", "￥", "円", "yen", "yens"),
}
_CODE_OF = {word: code for code, words in _CURRENCY_WORDS.items() for word in words}
# "pounds" and "livres" are weights too, "balles" (French for euros) balls: they make a price
# only after a limit word.
_AMBIGUOUS = frozenset({"pounds", "pound", "livres", "livre", "balles"})
_WORDS = "|".join(re.escape(word) for word in sorted(_CODE_OF, key=len, reverse=True))
_AMOUNT = (r"\d+(?:\.\d)?k(?![a-z])|"
           r"\d{1,3}(?:[,.]\d{3})+(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,2})?(?!\d)")


def _money(name: str) -> str:
    return (rf"(?:(?P<{name}_pre>us\$|[$£€¥￥]|usd|eur|gbp|jpy)\s?)?"
            rf"(?<![A-Za-z0-9_.,])(?P<{name}>{_AMOUNT})"
            rf"(?:\s?(?P<{name}_post>{_WORDS})(?![a-z]))?")


_MAX_BEFORE = (r"nothing\s+(?:over|above|more\s+than|pricier\s+than)|"
               r"under|below|beneath|less\s+than|cheaper\s+than|no\s+more\s+than|not\s+more\s+than|"
               r"not\s+over|at\s+most|max(?:imum)?\.?|up\s+to|within|budget(?:\s+(?:is|of))?|"
               r"moins\s+de|moins\s+cher\s+que|en\s+dessous\s+de|pas\s+plus\s+de|au\s+maximum|"
               r"jusqu'à|jusqu'a|inférieur\s+à|sous|rien\s+au-dessus\s+de|pas\s+au-dessus\s+de|"
               r"予算(?:は|が)?|最大")
_MAX_AFTER = (r"max(?:imum)?|or\s+(?:less|under|below|cheaper)|and\s+(?:under|below)|tops|"
              r"au\s+maximum|maxi|ou\s+moins|以下|まで|未満|以内|より安い|"
              # « 72 euros c'est mon budget max », "$50 is my limit": the amount as a ceiling
              r"(?:,\s*)?(?:c'est|c\s+est|ce\s+sera|is|that's|thats|will\s+be)\s+(?:mon|ma|notre|my|"
              r"our|the|le)\s+(?:budget|max(?:imum)?|limite?|plafond)(?:\s+max(?:imum)?)?|"
              r"de\s+budget(?:\s+max)?")
# The limit words that leave the amount itself out, as a shop's filter reads them.
_BELOW = re.compile(r"under|below|beneath|less\s+than|cheaper\s+than|moins\s+de|"
                    r"moins\s+cher\s+que|en\s+dessous\s+de|inférieur\s+à|sous|未満|より安い",
                    re.IGNORECASE)
_ABOVE = re.compile(r"over|above|more\s+than|plus\s+de|supérieur\s+à|超|より高い", re.IGNORECASE)
# "or under", "and over", "nothing over", "not over": the amount is in.
_INCLUDED = re.compile(r"\b(?:or|and|nothing|not|no|pas|rien)\s+"
                       r"(?:over|above|under|below|more|plus)\b", re.IGNORECASE)
_MIN_BEFORE = (r"over|above|more\s+than|at\s+least|min(?:imum)?|starting\s+at|"
               r"plus\s+de|au\s+moins|supérieur\s+à|à\s+partir\s+de|最低")
_MIN_AFTER = r"min(?:imum)?|or\s+more|and\s+(?:up|above|over)|ou\s+plus|以上|より高い|超"
_RANGE_BEFORE = r"between|from|entre|de|d'"
_RANGE_JOIN = r"and|to|et|à|a|-|–|~|〜|から"

_FLAGS = re.IGNORECASE
# A sum to spend on a thing is no limit and no count: "$20 worth of", "fifty dollars' worth
# of", "spend £30 on", « pour 20 € de », « 20 euros de », 「3000円分」. Its currency must be said.
_SPEND = re.compile(
    rf"(?:\bspend(?:ing)?\s+)?{_money('spend')}(?:\s*'s?)?\s*worth(?:\s+of)?\b"
    rf"|\bspend(?:ing)?\s+{_money('spend2')}\s+on\b"
    rf"|(?:\b(?:pour|for)\s+)?{_money('spend3')}\s+(?:de\b|d')(?!\s*(?:budget|plus|moins|"
    r"r[ée]duction|remise|frais|diff[ée]rence|livraison|port)\b)"
    rf"|{_money('spend4')}\s*(?:分|ぶん)(?:の)?", _FLAGS)
_RANGE = re.compile(
    rf"(?:\b(?:{_RANGE_BEFORE})\s*)?{_money('low')}\s*(?:{_RANGE_JOIN})\s*{_money('high')}"
    r"(?:\s*(?:の間|くらい))?", _FLAGS)
_MAX_PRE = re.compile(rf"(?:(?<![\w'])|(?<=[^\x00-\x7f]))(?:{_MAX_BEFORE})\s*:?\s*{_money('max')}",
                      _FLAGS)
_MIN_PRE = re.compile(rf"(?:(?<![\w'])|(?<=[^\x00-\x7f]))(?:{_MIN_BEFORE})\s*:?\s*{_money('min')}",
                      _FLAGS)
_ABOUT = r"(?:くらい|ぐらい|程度|ほど|or\s+so)?\s*"
# "around $30", "environ 20 €", "1000円くらい", "15 euros or so": a range either side of it.
_AROUND_BEFORE = (r"around|about|approximately|approx\.?|roughly|circa|something like|"
                  r"environ|autour de|à peu près|a peu pres|aux alentours de|dans les|"
                  r"de l'ordre de|près de|pres de")
_AROUND_AFTER = (r"or\s+so|ish|give\s+or\s+take|environ|à\s+peu\s+près|a\s+peu\s+pres|"
                 r"くらい|ぐらい|位|程度|前後|ほど")
_AROUND_PRE = re.compile(rf"(?:(?<![\w'])|(?<=[^\x00-\x7f]))(?:{_AROUND_BEFORE})\s*:?\s*"
                         rf"{_money('near')}", _FLAGS)
_AROUND_POST = re.compile(rf"{_money('near')}\s*-?\s*(?:{_AROUND_AFTER})(?![a-z])", _FLAGS)
# How far either side of an amount said "around" reaches.
AROUND_SHARE = Decimal("0.25")
# Said just before an amount, these make it a limit ("moins de 20 € de thé"), not a sum to spend.
_LIMIT_BEFORE = re.compile(rf"(?:{_MAX_BEFORE}|{_MIN_BEFORE}|{_AROUND_BEFORE}|"
                           r"between|entre|de|from)\s*:?\s*$", _FLAGS)
_MAX_POST = re.compile(rf"{_money('max')}\s*{_ABOUT}(?:{_MAX_AFTER})(?![a-z])", _FLAGS)
_MIN_POST = re.compile(rf"{_money('min')}\s*{_ABOUT}(?:{_MIN_AFTER})(?![a-z])", _FLAGS)
_BARE = re.compile(_money("at"), _FLAGS)


def find_spend(text: str, taken: list[Span]) -> Sum | None:
    """The sum `text` (lowercased, numbers as digits) asks to spend on a thing ("$20 worth of
    san pellegrino", « pour 3000 yens de genmaicha », 「玄米茶を3000円分」), outside `taken`; its
    span covers the words that frame it ("worth of", "分"), which name no product."""
    for match in _SPEND.finditer(text):
        name = next(key for key in ("spend", "spend2", "spend3", "spend4") if match.group(key))
        currency = _currency(match, name, limited=True)
        if currency is None or overlaps(match.span(), taken) or \
                _LIMIT_BEFORE.search(text[:match.start()]) and name != "spend":
            continue
        return Sum(_amount(match.group(name)), currency, match.span())
    return None


def find_price(text: str, taken: list[Span]) -> PriceBound | None:
    """The first price limit said in `text` (lowercased), outside the `taken` spans."""
    for match in _RANGE.finditer(text):
        if overlaps(match.span(), taken):
            continue
        currency = _currency(match, "low") or _currency(match, "high")
        keyword = match.group(0)[:1].isalpha() or "から" in match.group(0)
        if currency is None and (not keyword or _followed_by_unit(text, match.end("high"))):
            continue  # "between 6 and 8pm" is a time
        low, high = _amount(match.group("low")), _amount(match.group("high"))
        if low < high:
            return PriceBound(low, high, currency, match.span())
    for pattern, bound in ((_MAX_PRE, "max"), (_MIN_PRE, "min"), (_MAX_POST, "max"),
                           (_MIN_POST, "min")):
        for match in pattern.finditer(text):
            currency = _currency(match, bound, limited=True)
            if overlaps(match.span(), taken) or currency is None and _followed_by_unit(
                    text, match.end(bound)):
                continue
            amount = _amount(match.group(bound))
            said = match.group(0)
            excluded = not _INCLUDED.search(said) and bool(
                (_BELOW if bound == "max" else _ABOVE).search(said))
            if bound == "max":
                return PriceBound(None, amount, currency, match.span(), max_excluded=excluded)
            return PriceBound(amount, None, currency, match.span(), min_excluded=excluded)
    for pattern in (_AROUND_PRE, _AROUND_POST):
        for match in pattern.finditer(text):
            currency = _currency(match, "near", limited=True)
            if overlaps(match.span(), taken) or currency is None:
                continue  # "around 15" alone may be a count
            return _around(_amount(match.group("near")), currency, match.span())
    for match in _BARE.finditer(text):
        currency = _currency(match, "at")
        if currency is not None and not overlaps(match.span(), taken):
            amount = _amount(match.group("at"))
            return PriceBound(amount, amount, currency, match.span())
    return None


@dataclass(frozen=True, slots=True)
class Sum:
    """A sum of money said on its own (no limit): `currency` an ISO code, or None when the
    words name a banknote without its money ("a fiver")."""

    amount: Decimal
    currency: str | None
    span: Span


# Banknotes said by their nickname: "a fiver", "a tenner" (of whatever money is in play).
_NOTES = {"fiver": 5, "tenner": 10}
_NOTE = re.compile(r"\b(?:a\s+)?(fiver|tenner)s?\b", _FLAGS)


def find_sum(text: str) -> Sum | None:
    """The first sum of money `text` (lowercased, numbers as digits) says: an amount with its
    currency ("$3", "3 dollars", "2 euros", "5 pounds", "500円"), else a banknote by its
    nickname ("a fiver": 5, its currency unsaid)."""
    for match in _BARE.finditer(text):
        currency = _currency(match, "at", limited=True)  # "5 pounds" given is money
        if currency is not None:
            return Sum(_amount(match.group("at")), currency, match.span())
    note = _NOTE.search(text)
    if note is not None:
        return Sum(Decimal(_NOTES[note.group(1).lower()]), None, note.span())
    return None


# A limit word before any number, currency or not ("between 10 and 30", "under 20", "from 5"):
# what a slot reader falls back on where `find_price` read no limit.
# (digits first: "friends over, could" bounds nothing)
_ANY_NUMBER = r"[$£€¥]?\s*(\d[\d,]*(?:\.\d+)?)"
_BETWEEN = re.compile(rf"\bbetween\s+{_ANY_NUMBER}\s*(?:and|-|to)\s*{_ANY_NUMBER}")
_AT_MOST = re.compile(rf"\b(?:under|below|less than|cheaper than|up to|at most|max(?:imum)?"
                      rf"|no more than|within|for less than|budget(?: of)?)\s*{_ANY_NUMBER}")
_AT_LEAST = re.compile(rf"\b(?:over|above|more than|at least|min(?:imum)?|from)\s*{_ANY_NUMBER}")


def bounds_by_limit_word(text: str) -> dict[str, str]:
    """{"minPrice"…, "maxPrice"…} as digits, from a limit word before any number in `text`
    (folded here): "between 10 and 30", "under 20", "over 5"; empty when none says one."""
    folded = fold(text)
    bounds: dict[str, str] = {}
    if match := _BETWEEN.search(folded):
        return {"minPrice": _digits(match.group(1)), "maxPrice": _digits(match.group(2))}
    if match := _AT_MOST.search(folded):
        bounds["maxPrice"] = _digits(match.group(1))
    if match := _AT_LEAST.search(folded):
        bounds["minPrice"] = _digits(match.group(1))
    return bounds


def _digits(amount: str) -> str:
    return amount.replace(",", "")


def _around(amount: Decimal, currency: str | None, span: Span) -> PriceBound:
    """A range either side of an amount said "around", in cents at most."""
    cent = Decimal("0.01")
    low = (amount * (1 - AROUND_SHARE)).quantize(cent).normalize() + 0
    high = (amount * (1 + AROUND_SHARE)).quantize(cent).normalize() + 0
    return PriceBound(low, high, currency, span)


def _currency(match: re.Match[str], name: str, *, limited: bool = False) -> str | None:
    for word in (match.group(f"{name}_pre"), match.group(f"{name}_post")):
        if word and (limited or word.lower() not in _AMBIGUOUS):
            return _CODE_OF[word.lower()]
    return None


_UNIT_AFTER = re.compile(r"\s?(?:[a-z%\"]|[^\x00-\x7f円])")


def _followed_by_unit(text: str, end: int) -> bool:
    """An amount with no currency right before a word ("under 20 people") is not a price."""
    after = _UNIT_AFTER.match(text, end)
    if after is None:
        return False
    rest = text[end:].lstrip()
    return not re.match(rf"(?:{_WORDS}|{_MAX_AFTER}|{_MIN_AFTER}|and|or|ou|et|for|pour|please|"
                        r"s'il|svp|pls|thanks|merci|の|で|を|は|が)(?![a-z])", rest, _FLAGS)


def _amount(text: str) -> Decimal:
    from price_parser import Price

    if text[-1:] in "kK":  # "2k yen"
        return Decimal(text[:-1]) * 1000
    amount = Price.fromstring(text).amount
    assert amount is not None
    return Decimal(amount).normalize() + 0
