"""Which of a store's offers a shopper means when they do not type its code as the store
writes it: mistyped ("WELCOM10", "FIVEOF"), or described ("my 10% code", "the five dollar
off coupon", "the pizza friday code", "the dessert discount", « le code de bienvenue »,
「500円引きのクーポン」).

A mistyped code is the store's code whose digits are the same and whose letters are one
typo away (two from eight letters on), so "WELCOME20" stays another code. A description is
read against each offer the store lists (its code, title and description):

- a value said (a percentage, or an amount with its currency or number word) names the offers
  whose own first value is that one (the first value of "15% off orders of $30 or more" is
  the 15 %, the $30 a minimum); a value that fits no offer names none;
- the other words said are matched, typos allowed, to the words of the offer and of its code
  ("pizza friday" is PIZZAFRIDAY, "welcome" WELCOME10).

Only one offer may fit best; several as good (or none) name none, and the shopper is asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from commerce_agent.agent.language.folding import fold
from commerce_agent.agent.language.fuzzy import is_typo_of
from commerce_agent.agent.language.numbers import NUMBER_WORDS

_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per\s?cent\b|pour\s?cent\b|パーセント)")
_JA_TENTHS = re.compile(r"([1-9])割")
_AMOUNT = re.compile(
    r"[$€£¥]\s*(\d[\d,]*(?:\.\d{1,2})?)|"
    r"(\d[\d,]*(?:\.\d{1,2})?)\s*(?:dollars?\b|bucks?\b|euros?\b|eur\b|usd\b|pounds?\b|quid\b|"
    r"gbp\b|yen\b|jpy\b|円|ドル|ユーロ|ポンド)")
# Words of any offer talk: they tell no offer from another.
_COMMON = frozenset("""
code codes coupon coupons voucher vouchers promo promos promotion promotional discount discounts
offer offers deal deals off the my a an your our this that these use apply put on for of with
and please pls order orders any some one i have got want can you it to in me my percent per
cent dollar dollars buck bucks euro euros pound pounds yen save saving take get new here more
or over all everything every day week when is are there its it's was also too just now then
checkout check out pay le la les mon ma mes un une de du des sur pour avec utilise utiliser
applique appliquer mets mettre reduction remise bon et en votre vos ce cette commande
""".split())
_WORD = re.compile(r"[^\W\d_]{3,}")


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _with_digits(folded: str) -> str:
    """Number words as digits ("five dollar off" → "5 dollar off")."""
    return re.sub(r"\b[a-z]+\b", lambda word: str(NUMBER_WORDS[word.group()])
                  if word.group() in NUMBER_WORDS and word.group() not in ("a", "an")
                  else word.group(), folded)


def _values(text: str) -> tuple[tuple[str, Decimal], ...]:
    """The percentages and amounts said, in the order said."""
    folded = _with_digits(fold(text))
    found: list[tuple[int, str, Decimal]] = []
    for match in _PERCENT.finditer(folded):
        number = _number(match.group(1).replace(",", "."))
        if number is not None:
            found.append((match.start(), "%", number))
    for match in _JA_TENTHS.finditer(folded):
        found.append((match.start(), "%", Decimal(match.group(1)) * 10))
    for match in _AMOUNT.finditer(folded):
        number = _number(match.group(1) or match.group(2))
        if number is not None:
            found.append((match.start(), "amount", number))
    return tuple((kind, number) for _, kind, number in sorted(found))


def _words(text: str) -> frozenset[str]:
    return frozenset(word for word in _WORD.findall(fold(text)) if word not in _COMMON)


def _code_words(code: str) -> frozenset[str]:
    """The letters of a code as words: "PIZZAFRIDAY" → {"pizzafriday"}, "WELCOME10" →
    {"welcome"}."""
    return frozenset(part.lower() for part in re.findall(r"[A-Za-z]{3,}", code))


def mistyped(code: str, known: Iterable[str]) -> str:
    """The store's code `code` mistypes, else `code` as said."""
    known = tuple(known)
    if code in known:
        return code
    digits = re.sub(r"\D", "", code)
    letters = re.sub(r"[^A-Z]", "", code.upper())
    near = [other for other in known if re.sub(r"\D", "", other) == digits and
            len(letters) >= 4 and is_typo_of(letters.lower(), re.sub(r"[^A-Z]", "",
                                                                      other).lower())]
    return near[0] if len(near) == 1 else code


def _matches(said: frozenset[str], words: frozenset[str], compact: str) -> int:
    """How many words said are the offer's (typos allowed), or spell its code run together."""
    hits = sum(1 for word in said if word in words or any(
        len(word) >= 5 and is_typo_of(word, other) for other in words))
    return hits + (1 if compact and any(len(code) >= 5 and code in compact for code in words)
                   else 0)


@lru_cache(maxsize=1024)
def _described(text: str, offers: tuple[tuple[str, str], ...]) -> str | None:
    said_values = _values(text)
    said = _words(text)
    compact = re.sub(r"[^a-z]", "", fold(text))
    scores: dict[str, int] = {}
    for code, words in offers:
        own = _values(words)
        if said_values and (not own or own[0] not in said_values):
            continue  # "my 10% code": offers of another value are not it
        offer_words = _words(words) | _code_words(code)
        score = (2 if said_values else 0) + _matches(said, offer_words, compact)
        if score:
            scores[code] = score
    if not scores:
        return None
    best = max(scores.values())
    chosen = [code for code, score in scores.items() if score == best]
    return chosen[0] if len(chosen) == 1 else None


def described_offer(text: str, offers: Iterable[Mapping[str, object]]) -> str | None:
    """The code of the one offer `text` describes, or None. `offers` are the store's listed
    offers ({code, title, description})."""
    listed = tuple((str(offer.get("code", "")).upper(),
                    f"{offer.get('description', '')} {offer.get('title', '')}")
                   for offer in offers if offer.get("code"))
    return _described(text, listed) if listed else None
