"""Normalize: the first stage of reading a shopper's message (pure functions, no I/O).

Public API (stable; later stages import only these names from this package):

- `read(text, *, now=None, tz="UTC", default_language="en") -> Reading`: everything below at
  once. `Reading` (frozen) has `text` (as given), `language` ("en"/"fr"/"ja"), `folded` (NFKC,
  lowercase, number words and quantity words as digits: "half a dozen" → "6"), `counts`
  (`Count(value, span)`), `measures` (`Measure(value: Decimal, unit, dimension, span)`, unit
  canonical: "ml", "l", "g", "kg", "oz", "lb", "cm", "mm", "m", "in", "ft", "tine", "piece",
  "star", "percent", "hour", …), `sizes` (`Size(label, span)`: "M", "XL", "10"), `price`
  (`PriceBound(min, max, currency, span)`: Decimal or None bounds, ISO currency or None),
  `address` (`Address(text, country_code, span)`, text with its case), `when`
  (`When(at: aware datetime, has_time, span)`), `rest` (`folded` without all of the
  above and its punctuation: the words left to search products with), and `ordinals`
  (`Ordinal(position, span)`: "the second one" → 2, "the last one" → -1). Every span indexes
  into `folded`.
- `quantities` (module): how many the shopper wants, the one reader of counts, on top of
  `read()`'s number tags: `how_many(text)`, `change(text)`, `relative(text)` and
  `applied(quantity, had)` for "two more", "one less", "double it", `quantities(text)` for
  every count in order, `numbers_said(text)` for matching option labels.
- `read_message(text) -> Reading`: `read(text)` with the defaults, cached by message.
- `detect_language(text, default="en") -> str`: "en", "fr" or "ja"; `default` when the text is
  too short or ambiguous to tell.
- `reply_language(text, previous) -> str`: the language to answer in: the message's, but a
  one-word message ("oui", "はい", "ok", an id, a number) keeps the conversation's `previous`.
- `fold_numbers(text, language) -> str`: number and quantity words as digits, case kept.
- `fold_name(text)`, `similarity(a, b) -> float` (0-100), `mentions(text, name) -> bool`,
  `best_matches(query, names, cutoff=80, limit=5)`: typo-tolerant name matching.
- `find_swap(folded) -> Swap | None`: what goes and what comes in "swap the mug for the bowl".
- `warm_up(languages=("en", "fr", "ja"))`: load every library now (dateparser takes most of a
  second on its first day word); for a server that would rather pay at start than on a turn.

Heavy libraries (dateparser, lingua) load on first use; lingua is the optional `agent-nlp`
extra, without which a word table tells English from French.
"""

from commerce_agent.agent.language.addresses import Address
from commerce_agent.agent.language.dates import When
from commerce_agent.agent.language.detect import LANGUAGES, detect_language, reply_language
from commerce_agent.agent.language.fuzzy import best_matches, fold_name, mentions, similarity
from commerce_agent.agent.language.measures import Measure, Size
from commerce_agent.agent.language.numbers import Count, fold_numbers
from commerce_agent.agent.language.ordinals import Ordinal
from commerce_agent.agent.language.prices import PriceBound
from commerce_agent.agent.language.reading import Reading, read, read_message, warm_up
from commerce_agent.agent.language.swaps import Swap, find_swap

__all__ = [
    "LANGUAGES", "Address", "Count", "Measure", "Ordinal", "PriceBound", "Reading", "Size", "Swap",
    "When", "best_matches", "detect_language", "find_swap", "fold_name", "fold_numbers",
    "mentions", "read", "read_message", "reply_language", "similarity", "warm_up",
]
