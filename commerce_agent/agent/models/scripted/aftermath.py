"""What a short reply means after an outcome: the shopper's next words read against what the
agent's last reply reported.

A few words mean different things after different outcomes, and the words alone cannot tell:

- after an order is placed (or anything else is done) with nothing offered, a bare
  confirmation ("ok", "great, thanks", "oui c'est bon", "d'accord", 👍, "了解です") only
  acknowledges it: it is answered, and it changes nothing (it is no "yes" to buy again);
- after a request is refused because its item is sold out (or short of stock), naming another
  thing ("the planter then", "a tiramisu instead", « alors le tiramisu », 「じゃあ茶筅で」) is
  that request again with the other thing: the same intent (add, or buy through the approval
  every order asks for) and the same count, unless the new words give their own;
- after a request is refused because too few are left, a count alone ("ok, 3 then", « bon,
  alors 3 », 「じゃあ2つで」) is that request again with that count;
- "another", "a second one", "one more of those", « encore une autre », 「もう1冊」 for an
  item already in the cart raises that line's count (`quantities` reads the count; the cart
  edits pick the line), rather than being refused as "already in your cart".

The outcome is folded from the agent's reply (`outcome`), so it is replayed like the rest of
the state; `reread` is the one place a message is read against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from commerce_agent.agent.language import quantities
from commerce_agent.agent.models.scripted import assent, words
from commerce_agent.agent.models.scripted.intents import SHOPPING, Frame
from commerce_agent.agent.models.scripted.messages import every_language

OutcomeKind = Literal["ordered", "sold_out", "short"]
ACKNOWLEDGE = "acknowledge"  # the intent of a bare confirmation with nothing on the table


@dataclass(frozen=True)
class Outcome:
    kind: OutcomeKind
    # The request that met it (sold out: the one to serve again with another item).
    request: Frame | None = None
    # How many the request asked for of the item that could not be had (or not so many).
    count: int | None = None
    item: str = ""  # the name of the item it was about


# Readings that may name a substitute: not a question, a search ("find me something
# similar" is the offer's own search), an order edit or a refusal.
_MAY_NAME_A_SUBSTITUTE = ("other", "quantity", "replace", "yes", "switch", *SHOPPING)
# Clause breaks: "no cannoli? fine, a tiramisu instead" names the substitute in its last one.
_CLAUSES = re.compile(r"[?!.;,、。？！]+")


@lru_cache(maxsize=1)
def _sold_out_said() -> re.Pattern[str]:
    """The agent's "Sorry, {name} is sold out right now." in every language, name captured."""
    texts = [*every_language("item_sold_out"), *every_language("sold_out")]
    return re.compile(
        "|".join(re.escape(text).replace(re.escape("{name}"), "(.+?)", 1) for text in texts)
    )


@lru_cache(maxsize=1)
def _too_few_said() -> tuple[re.Pattern[str], ...]:
    """The agent's "Sorry, only {left} of {name} are left. …" in every language."""
    texts = [*every_language("explain.only_left"), *every_language("explain.only_left_one")]
    return tuple(
        re.compile(
            re.escape(text)
            .replace(re.escape("{left}"), r"(?P<left>\d+)", 1)
            .replace(re.escape("{left}"), r"\d+")
            .replace(re.escape("{name}"), "(?P<name>.+?)", 1)
        )
        for text in texts
    )


def outcome(reply: str, request: Frame | None, ordered: bool) -> Outcome | None:
    """What the turn that ended with `reply` came to, for the next message to be read
    against: an order placed, the request's item found sold out, or too few of it left."""
    if ordered:
        return Outcome("ordered", request)
    if request is None or request.intent not in SHOPPING:
        return None
    match = _sold_out_said().search(reply)
    if match is not None:
        name = next(group for group in match.groups() if group)
        return Outcome("sold_out", request, _count_of(request, name), name)
    short = next((found for pattern in _too_few_said() if (found := pattern.search(reply))), None)
    if short is not None:
        name = short.group("name")
        return Outcome("short", request, _count_of(request, name), name)
    return None


def _count_of(request: Frame, name: str) -> int | None:
    """How many of `name` the request asked for: from its own phrase when it named several
    items ("a lasagna and two cannoli": two cannoli)."""
    phrases = words.item_phrases(request.first)
    if len(phrases) > 1:
        wanted = words.content_words(name)
        own = next((phrase for phrase in phrases if words.content_words(phrase) & wanted), None)
        if own is None:
            return None
        return Frame(request.intent, (own,)).quantity(name)
    return request.quantity(name)


def acknowledges(text: str) -> bool:
    """A bare confirmation or thanks that asks for nothing ("ok cheers", "oui c'est bon",
    "了解です", 👍)."""
    return assent.classify(text).act == "confirm"


def substitute(after: Outcome | None, kind: str, text: str, act: str) -> Frame | None:
    """The refused request again with the thing `text` names instead, or None when `text`
    names nothing else (or asks, or searches)."""
    if after is None or after.kind == "ordered" or after.request is None:
        return None
    if act == "question" or kind not in _MAY_NAME_A_SUBSTITUTE:
        return None
    said = [clause for clause in _CLAUSES.split(text) if _names_another(clause, after.item)]
    if not said:
        return None
    intent = kind if kind in SHOPPING else after.request.intent
    return replace(Frame(intent, (" ".join(said).strip(),)), count=after.count)


def recount(after: Outcome | None, kind: str, text: str, act: str) -> Frame | None:
    """The request refused for too few left, again with the count `text` gives and nothing
    else ("ok, 3 then"), or None."""
    if after is None or after.kind != "short" or after.request is None:
        return None
    if act == "question" or kind not in _MAY_NAME_A_SUBSTITUTE:
        return None
    count = words.quantity(text)
    if not count or _names_another(text, after.item):
        return None
    return after.request.answered(text)


def _names_another(clause: str, gone: str) -> bool:
    """Whether `clause` names a thing other than the sold-out item `gone` ("no cannoli?"
    names only it)."""
    if words.re_japanese(clause):
        parts = words.japanese_query(clause).split()
        return bool(parts) and not all(part in gone for part in parts)
    return bool(named_words(clause) - words.content_words(gone))


# Words of "a second one", "a 2nd copy", "encore une autre": the count, not an item's name.
_COUNT_WORDS = frozenset(
    {
        "second",
        "third",
        "copy",
        "copie",
        "deuxieme",
        "troisieme",
        "autre",
        "encore",
        "more",
        "another",
        "2nd",
        "3rd",
    }
)


def named_words(text: str) -> frozenset[str]:
    """The words of `text` that may name an item, without those that only count it."""
    return words.content_words(text) - _COUNT_WORDS


def repeats(kind: str, text: str) -> bool:
    """One more of something ("another", "a second one", "one more of those", "encore une
    autre", "もう1冊"), which for an item already in the cart is a count change of its line."""
    if kind not in ("add", "buy", "other", "quantity"):
        return False
    change = quantities.change(text)
    return change is not None and change > 0
