"""`read()`: every part of normalizing one message, in the order that keeps them apart.

The address is read first (its house number and ZIP are no counts), then measures ("300 ml"
is no count), then the price limit, then the day and time, then sizes, then ordinals ("2番目")
and the group chosen among ("of the two"); the whole numbers still free are the counts. Every
number is then tagged by the reading that took it (`number_tags`). What none of them took is
`rest`: the words to search products with.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from commerce_agent.agent.language.addresses import Address, find_address
from commerce_agent.agent.language.dates import When, find_when
from commerce_agent.agent.language.delivery import read_delivery
from commerce_agent.agent.language.detect import detect_language
from commerce_agent.agent.language.measures import Measure, Size, find_measures, find_sizes
from commerce_agent.agent.language.number_tags import NumberKind, NumberTag, tag_numbers
from commerce_agent.agent.language.numbers import Count, find_counts, fold_numbers
from commerce_agent.agent.language.ordinals import Ordinal, find_among, find_ordinals
from commerce_agent.agent.language.prices import PriceBound, Sum, find_price, find_spend
from commerce_agent.agent.language.spans import Span, remove_spans


@dataclass(frozen=True, slots=True)
class Reading:
    """What a message says, before any intent is guessed. Spans index into `folded`."""

    text: str
    language: str
    folded: str
    counts: tuple[Count, ...]
    measures: tuple[Measure, ...]
    sizes: tuple[Size, ...]
    price: PriceBound | None
    address: Address | None
    when: When | None
    rest: str
    ordinals: tuple[Ordinal, ...] = ()
    # Every number in `folded`, tagged count, measure, price, ordinal, time, address or id.
    numbers: tuple[NumberTag, ...] = ()
    # The group a choice is made among ("of the two", "des deux"): no count.
    among: tuple[Span, ...] = ()
    # A sum to spend on the thing ("$20 worth of"): how many it buys is the add's to work out.
    spend: Sum | None = None


@dataclass(frozen=True, slots=True)
class _Parts:
    language: str
    cased: str
    folded: str
    measures: tuple[Measure, ...]
    sizes_taken: tuple[Span, ...]
    price: PriceBound | None
    address: Address | None
    spend: Sum | None = None


# A verb changing a line's count, just before a number: "bump it up to 5", « passe à 5 »,
# « mets la quantité à 3 ». The number after it is the count, not a price limit ("up to 5") nor
# a time ("à 5", five o'clock), unless a currency or a time unit is said with it.
_COUNT_VERB_BEFORE = re.compile(
    r"\b(?:pass(?:e|ez|er)|mets|mettez|mettre|change[rz]?|augmente[rz]?|baisse[rz]?|"
    r"r[ée]dui[st]|bump|bring|push|take|turn|go|increase|raise|lower|decrease|reduce|set|"
    r"update|make)\b(?:\s+(?:it|that|them|this|those|the\s+\w+|my\s+\w+|la\s+quantit[ée]|"
    r"le\s+nombre|ça|ca|up|down|back))*\s*(?:up|down)?\s*$", re.IGNORECASE)
_BARE_NUMBER_AFTER = re.compile(r"^\s*(?:up\s+to|down\s+to|to|à|a|jusqu'à)\s+\d{1,3}\s*$",
                                re.IGNORECASE)


def _a_count_changed(folded: str, span: Span) -> bool:
    """Whether the number read at `span` (a time or a limit with no currency or unit) is the
    count a verb changing a line sets: "bump it up to 5", « passe à 5 »."""
    start, end = span
    return bool(_BARE_NUMBER_AFTER.match(folded[start:end])) and \
        bool(_COUNT_VERB_BEFORE.search(folded[:start]))


def read(text: str, *, now: datetime | None = None, tz: str = "UTC",
         default_language: str = "en") -> Reading:
    """Normalize one message. `now` (default: the current time; naive means UTC) anchors
    relative days, read in the time zone `tz` (an unknown name reads as UTC)."""
    parts = _parts(text, default_language)
    taken = list(parts.sizes_taken)
    when = find_when(parts.folded, parts.language, now or datetime.now(UTC), tz, taken)
    if when is not None and _a_count_changed(parts.folded, when.span):
        when = None  # « passe à 5 »: five of it, not five o'clock
    if when is not None:
        taken.extend(when.parts or (when.span,))
    sizes = find_sizes(parts.cased, taken)
    taken.extend(size.span for size in sizes)
    ordinals = find_ordinals(parts.folded, taken)
    taken.extend(ordinal.span for ordinal in ordinals)
    among = find_among(parts.folded, taken)  # "the cheaper of the two": no count
    taken.extend(among)
    counts = find_counts(parts.folded, taken)
    taken.extend(count.span for count in counts)
    readings: list[tuple[NumberKind, Span]] = [
        *(("address", parts.address.span) for _ in (parts.address,) if parts.address),
        *(("measure", measure.span) for measure in parts.measures),
        *(("price", parts.price.span) for _ in (parts.price,) if parts.price),
        *(("price", parts.spend.span) for _ in (parts.spend,) if parts.spend),
        *(("time", span) for span in (when.parts or (when.span,) if when else ())),
        *(("measure", size.span) for size in sizes),
        *(("ordinal", ordinal.span) for ordinal in ordinals),
        *(("ordinal", span) for span in among),
        *(("count", count.span) for count in counts)]
    return Reading(text=text, language=parts.language, folded=parts.folded, counts=counts,
                   measures=parts.measures, sizes=sizes, price=parts.price,
                   address=parts.address, when=when, rest=remove_spans(parts.folded, taken),
                   ordinals=ordinals, numbers=tag_numbers(parts.folded, readings),
                   among=among, spend=parts.spend)


@lru_cache(maxsize=4096)
def read_message(text: str) -> Reading:
    """`read(text)` with the defaults, cached by message: every stage asking about one message
    (the quantities, the scripted model's slots) shares one reading of it."""
    return read(text)


@lru_cache(maxsize=1024)
def _parts(text: str, default_language: str) -> _Parts:
    """The readings that do not depend on the clock, cached by message."""
    normal = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    language = detect_language(normal, default_language)
    cased = fold_numbers(normal, language)
    folded = _lower_keeping_length(cased)
    taken: list[Span] = []
    address = find_address(cased)
    if address is not None:
        taken.append(address.span)
    measures = find_measures(folded, taken)
    taken.extend(measure.span for measure in measures)
    spend = find_spend(folded, taken)
    if spend is not None:
        taken.append(spend.span)
    price = find_price(folded, taken)
    if price is not None and price.currency is None and _a_count_changed(folded, price.span):
        price = None  # "bump it up to 5": five of it, no price limit
    if price is not None:
        taken.append(price.span)
    return _Parts(language, cased, folded, measures, tuple(taken), price, address, spend)


def warm_up(languages: tuple[str, ...] = ("en", "fr", "ja")) -> None:
    """Load every library the stage uses now rather than on a shopper's first message (dateparser
    alone takes most of a second to load its first language). Adds about 20-30 MB of memory."""
    now = datetime.now(UTC)
    samples = {"en": "2 mugs under $20 to 1 Main St, Springfield, IL 62701 on friday at 7pm",
               "fr": "deux tasses à moins de 20 € vendredi à 19h",
               "ja": "急須を二つ、2000円以下、金曜日の19時"}
    for language in languages:
        read(samples[language], now=now)
    read_delivery(samples["en"])  # Babel's territory names, for an address's country


def _lower_keeping_length(text: str) -> str:
    """Lowercase, but a letter whose lowercase is longer ("İ") stays, so spans still line up."""
    return "".join(lower if len(lower := char.lower()) == 1 else char for char in text)


@lru_cache(maxsize=4096)
def without_when(text: str) -> str:
    """`text` (normalized, lowercased) without the day and time it names ("the tea ceremony
    on 13 March at 2pm", "3月13日14時の茶道体験"): a date's numbers are no count and its words
    name no product. `text` unchanged when it names none."""
    found = read_message(text)
    if found.when is None:
        return text
    normal = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    lowered = _lower_keeping_length(normal)
    # the reading's own span where its folding kept every character in place, else found again
    when = found.when if found.folded == lowered else find_when(
        lowered, found.language, datetime.now(UTC), "UTC", [])
    if when is None:
        return text
    kept, position = [], 0
    for start, end in sorted(when.parts or (when.span,)):
        kept.append(lowered[position:start])
        position = end
    return " ".join([*kept, lowered[position:]]).strip()
