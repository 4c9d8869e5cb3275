"""Tips, however they are said: "tip them three dollars", "leave a fiver", "ten percent tip",
"add two euros for the driver", « un pourboire de quinze pour cent », 「チップ500円」.

Numbers in words become digits through `numbers.fold_numbers` and sums of money are read by
`prices.find_sum`: this module only tells a share from a sum, and whether a message gives one
to the people who served (a tip) rather than naming a price of something to buy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from commerce_agent.agent.language.detect import detect_language
from commerce_agent.agent.language.numbers import fold_numbers
from commerce_agent.agent.language.prices import find_sum


@dataclass(frozen=True, slots=True)
class Tip:
    """A share of the order's total (`percentage`), or a sum (`amount`, in `currency` when
    the words say one)."""

    percentage: Decimal | None = None
    amount: Decimal | None = None
    currency: str | None = None


# ("pour cent" comes back from the number words as "pour 100")
_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|％|percent\b|per cent\b|pour ?(?:cent|100)\b|"
                      r"パーセント|プロ)")
_TIP_WORD = re.compile(r"\b(?:tip|tips|tipping|gratuity|gratuities|pourboires?)\b|チップ|心付け")
# A bare number after the word for a tip is its sum: "tip 5", « pourboire de 3 ».
_TIP_NUMBER = re.compile(r"(?:\btip\b|\bpourboire\b|チップ)\D*?(\d+(?:[.,]\d+)?)")
# Only words that give, say to whom, or soften may stand beside a sum given as a tip.
_GIVING = frozenset("leave give add throw put send tip in laisse laisser laissez donne donner "
                    "donnez ajoute ajouter ajoutez".split())
_SERVERS = frozenset("driver drivers courier couriers rider riders kitchen staff server servers "
                     "waiter waiters waitress chef chefs cook cooks team crew delivery guy person "
                     "teacher instructor photographer livreur livreuse cuisine equipe serveur "
                     "serveuse personnel".split())
_FILLERS = frozenset("please pls plz and also ok okay them him her they the a an for to extra "
                     "as thanks thank you on it this that my our some little bit just then "
                     "pour le la les au aux un une de s'il vous plait svp merci".split())
# Cheap first look: a message with none of these names no tip sum, even with words folded.
_MAYBE_MONEY = re.compile(r"\d|%|％|percent|pour ?cent|fiver|tenner|dollar|euro|pound|quid|"
                          r"buck|yen|円|ドル|ユーロ|ポンド|[$£€¥]|\b(?:one|two|three|four|five|six|"
                          r"seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|"
                          r"hundred|un|deux|trois|quatre|cinq|dix|quinze|vingt|cent)\b")


def _folded(text: str, language: str | None) -> str:
    lowered = text.lower()
    return fold_numbers(lowered, language or detect_language(lowered))


def read_tip(text: str, language: str | None = None) -> Tip | None:
    """The tip `text` names (a share or a sum), or None; `language` as the shopper writes
    (judged from the text when not given)."""
    lowered = text.lower()
    if not _MAYBE_MONEY.search(lowered):
        return None
    folded = _folded(lowered, language)
    if share := _PERCENT.search(folded):
        return Tip(percentage=Decimal(share.group(1).replace(",", ".")))
    if found := find_sum(folded):
        return Tip(amount=found.amount, currency=found.currency)
    if bare := _TIP_NUMBER.search(folded):
        return Tip(amount=Decimal(bare.group(1).replace(",", ".")))
    return None


# A tip names money, a share or a tip: without any of these a message gives none (checked
# before any number word is read, which every intent reading would otherwise pay for).
_MONEY_SAID = re.compile(r"%|％|percent|per cent|pour ?cent|fiver|tenner|dollar|euro|pound|quid|"
                         r"buck|yen|円|ドル|ユーロ|ポンド|[$£€¥]|\btip|gratuit|pourboire|チップ")


def gives_a_tip(text: str, language: str | None = None) -> bool:
    """Whether `text` gives a tip: a tip word with its sum or share, or a sum or share given
    (or said for the people who served) with nothing else beside it ("leave a fiver", "add
    two euros for the driver"), not a price of a thing ("add the $25 one")."""
    if not _MONEY_SAID.search(text.lower()) or read_tip(text, language) is None:
        return False
    folded = _folded(text.lower(), language)
    if _TIP_WORD.search(folded):
        return True
    rest = _PERCENT.sub(" ", folded)
    found = find_sum(rest)
    if found is not None:
        rest = rest[:found.span[0]] + " " + rest[found.span[1]:]
    said = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", rest)
    given = bool(said) and said[0] in _GIVING or any(word in _SERVERS for word in said)
    return given and all(word in _GIVING or word in _SERVERS or word in _FILLERS
                         for word in said)
