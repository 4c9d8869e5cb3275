"""Which order an after-sale request means: one resolver for status, cancel, return, rate,
tip, reorder and subscription changes.

Each message of the request narrows the shopper's orders by what it says about them: an id
(whole, or its tail read off a receipt: "the one ending in 3f9a2c"), the items or store it
names (scored by the caller, who knows the catalog's and the shopper's names for them), and a
position or time ("my last order", "the previous one", "the order before that", "my first
order", "le dernier", "前回の注文", "最初の注文"), "the other one" (not the order in view),
the day it was placed ("yesterday's order", « la commande de mardi », 「昨日の注文」) and its
amount ("the $46.50 order"). Orders the message spares ("the plates are fine", "not the
lasagna", « les assiettes ça va », 「ノートはそのまま」) are left out. A request that says
nothing means the most recent order. When words leave several orders fitting equally, the
resolver says so, and the agent asks which one instead of choosing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from commerce_agent.agent.language.dates import DAY_NAMES, day_placed
from commerce_agent.agent.models.scripted import words

# Positions said of orders, in the three languages (accents folded away).
# Comparatives choose between the orders left ("the older one" answering "which order?").
_NEWEST = re.compile(r"\b(?:last|latest|newest|newer|most recent|recent|just (?:placed|made)|"
                     r"dernier(?:e|es|s)?|plus recente?s?|derniere fois|nouvelle|"
                     r"(?:the )?(?:new|later) one)\b|"
                     r"最後|最新|前回|直近|この前|この間|さっき|新しい(?:方|ほう|の)")
_OLDEST = re.compile(r"\b(?:first|oldest|earliest|older|premier(?:e|es|s)?|plus ancienne?s?|"
                     r"ancienne|plus vieille|(?:the )?old one)\b|"
                     r"最初|一番古い|最も古い|初めて|古い(?:方|ほう|の)")
# One before the order being talked about ("the order before that", "la précédente").
_PREVIOUS = re.compile(r"\b(?:previous|prior|earlier|before (?:that|this|it)|one before|"
                       r"precedente?s?|d'avant|d avant|avant (?:celle|celui)(?:-ci|-la)?)\b|"
                       r"その前|(?<!この)前の注文|ひとつ前|一つ前")
# The order being talked about, pointed at ("cancel that order", "return it", « annulez-la »,
# 「その注文」): the order in view, when nothing else names one.
_POINTER = re.compile(r"\b(?:it|that|this|them|those|these|cette|celle-ci|celle-la|ca)\b|"
                      r"-(?:la|le|les)\b|\bl'(?=annul|retourn|renvoy|suspend)|"
                      r"それ|その注文|この注文|こちら")
# An order not yet said ("I want to cancel an order", « une de mes commandes »): which one is
# asked when there are several.
_INDEFINITE = re.compile(r"\b(?:an order|a purchase|one of (?:my|the|these) (?:orders|purchases)|"
                         r"(?:l')?une (?:de mes |des )?commandes?|un (?:de mes )?achats?)\b")
_ORDER_NOUN = re.compile(r"\b(?:orders?|commandes?|purchases?|achats?|one|celle|celui)\b|注文")
# An id's tail said with words that introduce it ("ending in 3f9a2c", "qui finit par …").
_TAIL_AFTER = re.compile(r"(?:end(?:s|ing)? (?:in|with)|finit par|finissant par|se termine "
                         r"par|termine par|末尾(?:が|は)?)\s*[.#…]*\s*([0-9a-z]{3,})")
# A bare tail: hex digits after "…" or "#", or mixing digits and letters as ids do ("b4babe").
_MARKED = re.compile(r"(?:\.{2,}|…|#)\s*([0-9a-f]{4,})(?![0-9a-z])")
_MIXED = re.compile(r"(?<![0-9a-z_])((?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{5,})(?![0-9a-z])")
# A tail said after the word for an order ("where's order 641934 at?", « la commande n° 641934 »,
# 「注文641934」): six or more hex digits, letters or not, since the noun says what they are.
_AFTER_NOUN = re.compile(r"(?:\border|\bcommande|注文)(?:\s*(?:no\.?|number|numero|n°|番号))?"
                         r"\s*[:#]?\s*([0-9a-f]{6,})(?![0-9a-z])")
# Six digits or more with no word after them ("what about 038596…", "038596, has it left?"): a
# tail read off a receipt that happens to have no letter; a count or a postcode has its noun
# after it ("100000 mugs"), a postcode its address ("New Delhi 110001, India").
_DIGITS = re.compile(r"(?<![0-9a-z_.,/-])(\d{6,})(?=\s*(?:[?？!.…,]|$))")
# A message that is only hex digits, six or more with a digit among them (a tail read off a
# receipt may happen to have no letter; a ZIP code has five digits; "facade" is a word).
_ALONE = re.compile(r"^[\s#.…]*((?=[a-f]*\d)[0-9a-f]{6,})[\s?？!]*$")
# The order not in view ("cancel the other one", « l'autre commande », 「もう一つの注文」).
_OTHER = re.compile(r"\bthe other\b|\bother (?:order|purchase)\b|\bl'autre\b|\bl autre\b|"
                    r"\bautre commande\b|もう(?:一|1|ひと)つの|もう一方|もう片方|別の注文|他の注文")
# A sum said with an order ("the $46.50 order", « la commande de 46,50 $ », 「2600円の注文」).
_MONEY = re.compile(r"[$£€¥]\s*(\d+(?:[.,]\d{1,2})?)(?![\d.,]*\d)|"
                    r"(?<![\d.,])(\d+(?:[.,]\d{1,2})?)\s*(?:[$£€¥円]|dollars?\b|euros?\b|"
                    r"pounds?\b|yen\b|usd\b|eur\b|gbp\b|jpy\b)")
# Said of an order to keep out of the request: a clause that begins with a refusal ("not the
# plates", « pas la théière », "except…"), or that keeps or clears its things ("keep the mug",
# "the plates are fine", « les assiettes ça va », 「お皿はそのままで」).
_SPARING = re.compile(r"^\s*(?:and |et )?(?:not|pas|except|sauf|apart from|other than)\b|"
                      r"\b(?:keep|keeping|garde\w*|je garde)\b|"
                      r"\b(?:is|are|'s|'re|was|were) (?:fine|ok|okay|good|staying)\b|"
                      r"\b(?:can|will) stay\b|\bca va\b|\bc'est bon\b|\bca reste\b|"
                      r"はそのまま|は大丈夫|はいい|は残|はキャンセルしない")
_CLAUSES = re.compile(r"(?<!\d)[,.](?!\d)|[;!?、。]|\bbut\b|\bmais\b|けど|けれど")
_JA_NOT_BUT = re.compile(r"じゃなくて|ではなくて?")
# Words that place or point at an order and name no item.
POSITION_WORDS = frozenset("""
last latest newest most recent first oldest earliest previous prior earlier before one
that this just placed made second third dernier derniere derniers dernieres premier premiere
recente precedent precedente avant celle celui ending end ends finit par today yesterday
aujourd hui hier morning matin placed made older newer later old new ancienne nouvelle
vieille other autre
""".split()) | DAY_NAMES


@dataclass(frozen=True)
class Cues:
    """What one message says about which order: an id, an id's tail, a position."""

    order_id: str | None = None
    tail: str | None = None
    newest: bool = False
    oldest: bool = False
    previous: bool = False
    ordinal: int | None = None  # "the second order": 1
    days_ago: int | None = None  # "yesterday's order": 1
    on_date: tuple[int, int] | None = None  # "my order from November 20": (11, 20)
    pointer: bool = False  # "that order", "it": the order in view
    indefinite: bool = False  # "an order": not said yet
    other: bool = False  # "the other one": not the order in view
    weekday: int | None = None  # "Tuesday's order": 1
    amount: Decimal | None = None  # "the $46.50 order"


def placed(found: Cues) -> bool:
    """Whether the cues place the order by something other than its items: an id, a position,
    a day, an amount, a pointer."""
    return bool(found.order_id or found.tail or found.newest or found.oldest or found.previous
                or found.other or found.pointer or found.amount is not None
                or found.ordinal is not None or found.days_ago is not None
                or found.on_date is not None or found.weekday is not None)


def spared(text: str) -> tuple[str, str]:
    """(what the message asks about, what it spares): "scrap the planter order, the plates
    are fine" is ("scrap the planter order", "the plates"); the sparing words are dropped. A
    message that spares nothing is all asked, as said."""
    asked: list[str] = []
    kept: list[str] = []
    for clause in _CLAUSES.split(words.fold(text)):
        *before, last = _JA_NOT_BUT.split(clause)
        kept.extend(before)  # 「ノートじゃなくて玉露を」: the notebook is not the one
        if _SPARING.search(last):
            kept.append(_SPARING.sub(" ", last))
        else:
            asked.append(last)
    if not kept:
        return text, ""
    return " ".join(" ".join(asked).split()), " ".join(" ".join(kept).split())


def _amount(folded: str) -> Decimal | None:
    found = _MONEY.search(folded)
    if found is None:
        return None
    try:
        return Decimal((found.group(1) or found.group(2)).replace(",", "."))
    except InvalidOperation:
        return None


def _digits_outside_an_address(text: str, folded: str) -> list[str]:
    found = _DIGITS.findall(folded)  # the address read only when there are such digits
    return found if found and words.address(text) is None else []


def cues(text: str) -> Cues:
    folded = words.fold(text)
    order_id = words.order_id(text)
    tail = None
    if order_id is None:
        introduced = _TAIL_AFTER.search(folded)
        if introduced:
            tail = introduced.group(1)
        else:
            tails = (_MARKED.findall(folded) or _MIXED.findall(folded)
                     or _AFTER_NOUN.findall(folded) or _ALONE.findall(folded)
                     or _digits_outside_an_address(text, folded))
            tail = tails[-1] if tails else None
    noun = _ORDER_NOUN.search(folded) is not None
    ordinal = words.ordinal(text) if noun else None
    placed = day_placed(folded)
    return Cues(order_id=order_id, tail=tail, days_ago=placed.days_ago, on_date=placed.on_date,
                other=bool(_OTHER.search(folded)), weekday=placed.weekday,
                amount=_amount(folded) if noun else None,
                pointer=bool(_POINTER.search(folded)), indefinite=bool(_INDEFINITE.search(folded)),
                newest=bool(_NEWEST.search(folded)) and not _PREVIOUS.search(folded),
                oldest=bool(_OLDEST.search(folded)), previous=bool(_PREVIOUS.search(folded)),
                ordinal=ordinal if ordinal not in (0, -1) else None)


# What may surround an order's id or tail said alone ("#3f9a2c?", "order b57b94 please").
_AROUND_A_REFERENCE = re.compile(r"\b(?:my|the|order|commande|ma|la|number|no|numero|n|id|"
                                 r"please|pls|svp|s'il (?:te|vous) plait|it'?s|c'est|about|"
                                 r"what about|et|and)\b|注文(?:番号)?|は|の|です|を|"
                                 r"[\s#.…,:?!？！。、]")


# A word an order id may end with: six hex digits or more, letters only or not.
# (glued to the Japanese around it too: 「3f9a2cの注文」)
_TAIL_WORD = re.compile(r"(?<![0-9a-z_#])#?([0-9a-f]{6,})(?![0-9a-z_])", re.IGNORECASE)


def spelt_out(text: str, order_ids: Iterable[str]) -> str:
    """`text` with a word that ends exactly one of the shopper's known orders' ids written as
    that id: a tail read off a receipt names its order whatever its letters ("fbebce" as much
    as "b4babe"), where its shape alone could not ("facade" is a word unless an order ends so)."""
    ids = tuple(order_ids)
    if not ids or _TAIL_WORD.search(text) is None:
        return text

    def full(word: re.Match[str]) -> str:
        tail = word.group(1).lower()
        owners = [order_id for order_id in ids if order_id.lower().endswith(tail)]
        return owners[0] if len(owners) == 1 else word.group()

    return _TAIL_WORD.sub(full, text)


def only_an_order(text: str) -> bool:
    """Whether a message is no more than an order's id or its tail ("b57b94", "…3f9a2c?",
    "order #b57b94 please"): the shopper asks where that order is."""
    found = cues(text)
    reference = found.order_id or found.tail
    if not reference:
        return False
    rest = words.fold(text).replace(reference, " ")
    return not _AROUND_A_REFERENCE.sub("", rest).strip()


@dataclass(frozen=True)
class Meant:
    """The order meant, or the orders that fit equally (the agent asks which)."""

    order_id: str | None
    tied: tuple[str, ...] = ()


def _id(order: dict[str, Any]) -> str:
    return str(order["orderId"])


def by_tail(orders: Sequence[dict[str, Any]], tail: str) -> list[dict[str, Any]]:
    return [order for order in orders if _id(order).endswith(tail) and len(tail) >= 4]


def resolve(orders: Sequence[dict[str, Any]], texts: Sequence[str],
            fits: Callable[[dict[str, Any], str], int], focus: str | None = None,
            today: date | None = None) -> Meant:
    """The order `texts` mean among `orders` (oldest first). `fits(order, text)` scores how
    well a message's words name the order's items or store (0: not at all); `focus` is the
    order the conversation last talked about, which "the one before that" counts back from;
    `today` is the day "yesterday's order" counts back from (the shopper's orders' dates are
    UTC days). When nothing names an order, a pointer ("that order", "it") means the one in
    focus, and an order not said yet ("an order") among several is asked.
    """
    if not orders:
        return Meant(None)
    candidates = list(orders)
    narrowed = False  # words (not a position) chose among the candidates
    named = False  # anything said chose among the orders (words, an id, a day, a position)
    for index, text in enumerate(texts):
        found = cues(text)
        if found.order_id:
            return Meant(found.order_id)
        if found.tail and (tailed := by_tail(orders, found.tail)):
            candidates, narrowed, named = tailed, len(tailed) > 1, True
            continue
        named = named or found.previous or found.oldest or found.newest or \
            found.ordinal is not None or found.days_ago is not None or \
            found.on_date is not None or found.weekday is not None
        asked, kept = spared(text)
        if kept:  # "cancel the planter order, the plates are fine": never the plates
            left = [order for order in candidates
                    if not fits(order, kept) or fits(order, asked) > fits(order, kept)]
            if left and len(left) < len(candidates):
                candidates, named, narrowed = left, True, narrowed or len(left) > 1
        others = [order for order in candidates if _id(order) != focus]
        if found.other and others and len(others) < len(candidates):
            candidates, named, narrowed = others, True, narrowed or len(others) > 1
        scored = [(fits(order, asked), order) for order in candidates]
        best = max(score for score, _ in scored)
        named = named or best > 0
        if best > 0:
            top = [order for score, order in scored if score == best]
            narrowed = narrowed or len(top) < len(candidates) or index > 0 or len(top) > 1
            candidates = top
        dated = _on_day(candidates, found, today)
        if dated and len(dated) < len(candidates):
            candidates, narrowed = dated, narrowed or len(dated) > 1
        priced = [order for order in candidates if _total(order) == found.amount]
        if found.amount is not None and priced and len(priced) < len(candidates):
            candidates, named, narrowed = priced, True, narrowed or len(priced) > 1
        answering = index > 0 and narrowed  # "the first one" answering "which order?"
        ordinal = found.ordinal if not answering else words.ordinal(text)
        if found.previous:
            candidates = _before(orders, candidates, focus)
            narrowed = False
        elif found.oldest and ordinal is None:
            candidates, narrowed = candidates[:1], False
        elif ordinal is not None and -len(candidates) <= ordinal < len(candidates):
            candidates, narrowed = [candidates[ordinal]], False
        elif found.newest:
            candidates, narrowed = candidates[-1:], False
    if not named and texts:
        said = [cues(text) for text in texts]
        ids = [_id(order) for order in orders]
        if said[0].indefinite and len(orders) > 1 and len(texts) == 1:
            return Meant(None, tuple(ids))  # "I want to cancel an order": which one?
        if any(found.pointer for found in said) and focus in ids:
            return Meant(focus)  # "cancel that order then", after talking about one
    if len(candidates) > 1 and narrowed:
        return Meant(None, tuple(_id(order) for order in candidates))
    return Meant(_id(candidates[-1]))


def _on_day(candidates: list[dict[str, Any]], found: Cues,
            today: date | None) -> list[dict[str, Any]]:
    """The candidates placed on the day the words name, if they name one."""
    if found.on_date is not None:
        month, day = found.on_date
        return [order for order in candidates
                if (placed := _placed(order)) and (placed.month, placed.day) == (month, day)]
    if found.days_ago is not None and today is not None:
        wanted = today - timedelta(days=found.days_ago)
        return [order for order in candidates if _placed(order) == wanted]
    if found.weekday is not None and today is not None:  # the last such day, today included
        wanted = today - timedelta(days=(today.weekday() - found.weekday) % 7)
        return [order for order in candidates if _placed(order) == wanted]
    return []


def _total(order: dict[str, Any]) -> Decimal | None:
    try:
        return Decimal(str((order.get("total") or {}).get("amount")))
    except InvalidOperation:
        return None


def _placed(order: dict[str, Any]) -> date | None:
    try:
        return datetime.fromisoformat(str(order.get("createdAt"))).date()
    except ValueError:
        return None


def _before(orders: Sequence[dict[str, Any]], candidates: list[dict[str, Any]],
            focus: str | None) -> list[dict[str, Any]]:
    """The order placed just before the one in focus (else before the most recent), among
    those the words left."""
    ids = [_id(order) for order in orders]
    anchor = ids.index(focus) if focus in ids else len(ids) - 1
    earlier = [order for order in candidates if ids.index(_id(order)) < anchor]
    return earlier[-1:] or candidates[:1]


def wants_orders_listed(texts: Sequence[str], known: Sequence[dict[str, Any]]) -> bool:
    """Whether the words place the order among all of the shopper's orders (a position other
    than the latest, or an id's tail no known order has), so every order must be known."""
    for text in texts:
        found = cues(text)
        if found.tail and not by_tail(known, found.tail):
            return True
        if found.oldest or found.previous or found.ordinal is not None:
            return True
    return False
