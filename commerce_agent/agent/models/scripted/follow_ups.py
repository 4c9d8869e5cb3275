"""Follow-up questions about what is in view, said without naming it: "anything earlier?",
"and the day after?", "what else have you got that week?" (a service's times), "is there
something cheaper?" (things of the same kind), "what about in green?" (the same item's
options).

`read` only says what the words ask; `State` decides whether something in view fits (a
service with times, an item), and `in_context` answers. The words are never searched for:
"else", "week" and "earlier" name no product.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from commerce_agent.agent.language.option_words import SIZE_RANK_WORDS
from commerce_agent.agent.models.scripted import choices, words
from commerce_agent.commerce.orders.model import SCHEDULING

SHOWN = 5  # things of the same kind listed at once
# When, against the time in view.
_SHIFTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("day_after", re.compile(r"\b(?:the )?(?:day after|next day|following day)\b|"
                             r"\blendemain\b|\bjour (?:d'apres|suivant)\b")),
    ("day_before", re.compile(r"\b(?:the )?(?:day before|previous day)\b|\bveille\b|"
                              r"\bjour (?:d'avant|precedent)\b")),
    ("earlier", re.compile(r"\b(?:earlier|sooner|before that|any ?time before)\b|"
                           r"\bplus tot\b|\bavant\s*(?:ca|cela)?\s*\?")),
    ("later", re.compile(r"\b(?:later|after that|any ?time after)\b|\bplus tard\b|"
                         r"\bapres\s*(?:ca|cela)?\s*\?")),
    ("week", re.compile(r"\b(?:that|the same|this|same) week\b|\bla meme semaine\b|"
                        r"\bcette semaine(?:-la)?\b")),
    ("other", re.compile(r"\b(?:other|another|different|more) (?:times?|slots?|days?|dates?|"
                         r"sessions?|classes?)\b|\bwhat else\b|\banything else\b|"
                         r"\bautres? (?:horaires?|creneaux|dates?|jours?)\b")),
)
_WEEK = dict(_SHIFTS)["week"]
# Only the same day ("later that day", "earlier the same day").
_SAME_DAY = re.compile(r"\b(?:that|the same|same) day\b|\b(?:ce|le meme) jour(?:-la)?\b")
_CHEAPER = re.compile(r"\b(?:cheaper|less expensive|less costly|lower[- ]priced|more affordable|"
                      r"less money|moins chere?s?|meilleur marche)\b")
# A comparison that picks among the things shown rather than asking for others.
_CHOOSES = re.compile(r"\bthe (?:\w+ )?(?:cheaper|less expensive|pricier|more expensive|"
                      r"dearer)\b|\bof (?:the|these|those) (?:two|2|three|3)\b|"
                      r"\b(?:of|between) (?:them|those|these|both)\b|"
                      r"\b(?:le|la|les) (?:plus|moins) cher|"
                      r"\bdes (?:deux|trois)\b|\bd'entre (?:eux|elles)\b")
_DEARER = re.compile(r"\b(?:pricier|more expensive|dearer|higher[- ]end|fancier|plus chere?s?)\b")
# "what about in green?", "and in 100 g?", "does it come in blue?", "en vert ?"
_IN_OPTION = re.compile(r"^(?:(?:and|but|ok|okay|so|hmm|et|alors)\s*,?\s+)*"
                        r"(?:(?:what|how) about|do you have (?:it|one|that|this)|"
                        r"does (?:it|that|this one) come|is (?:it|there one) (?:available|sold)|"
                        r"any(?:thing| chance)?|got (?:it|one)|et)?\s*"
                        r"\b(?:in|en)\s+(?P<option>[\w' -]+?)\s*(?:instead|then|too|also|"
                        r"please|plutot|alors)?[\s?!.]*$")
# The words such questions are made of, which name no product.
_ASKING = frozenset("""
anything something else have got you your there is are any what how about other another
different more times time slots slot days day dates date week earlier sooner later before
after that same this next following previous cheaper expensive less costly lower priced
affordable money pricier dearer higher end fancier and but ok okay so the one ones is it
sessions session classes class option options available do does come when open free
autre autres quelque chose moins plus cher chere cheres chers tot tard jour semaine meme
horaires horaire creneaux date dates lendemain veille avez vous avez-vous il y a
""".split())


@dataclass(frozen=True, slots=True)
class FollowUp:
    """What a follow-up asks: `shift` (another time of the service in view: "earlier",
    "later", "day_after", "day_before", "week", "other"; `same_day` keeps it to the day in
    view), `price` ("cheaper" or "dearer" than the item in view), or `option` (the words of an
    option of the item in view: "green", "100 g")."""

    shift: str | None = None
    same_day: bool = False
    price: str | None = None
    option: str | None = None


def _names_nothing(folded: str, allowed: frozenset[str] = frozenset()) -> bool:
    return not (words.content_words(folded) - _ASKING - allowed)


def read(text: str) -> FollowUp | None:
    """The follow-up `text` asks about what is in view, or None when it names a thing of its
    own ("anything cheaper in teapots?" searches teapots) or is no such question."""
    folded = words.fold(text).strip()
    if not folded or words.order_id(folded):
        return None
    option = _IN_OPTION.match(folded)
    if option is not None and not _WEEK.search(folded):
        said = option.group("option").strip()
        if said and _names_nothing(folded, words.content_words(said)):
            return FollowUp(option=said)
    if not _names_nothing(folded):
        return None
    if _CHOOSES.search(folded):
        return None  # "the cheaper one", "of the two": one of those shown, by price
    if _CHEAPER.search(folded):
        return FollowUp(price="cheaper")
    if _DEARER.search(folded):
        return FollowUp(price="dearer")
    same_day = _SAME_DAY.search(folded) is not None
    for shift, pattern in _SHIFTS:
        if pattern.search(folded):
            return FollowUp(shift=shift, same_day=same_day)
    return None


def service_in_view(items: dict[str, dict[str, Any]], carts: list[dict[str, Any]],
                    focus: str | None, last_line: str | None
                    ) -> tuple[dict[str, Any], str | None] | None:
    """(item, its booked slot id or None): the service whose booking is in a cart (the line
    last handled first), else the item in view when it has times."""
    lines = sorted((line for cart in carts for line in cart.get("items", [])
                    if line.get("timeSlotId")),
                   key=lambda line: line.get("cartItemId") != last_line)
    for line in lines:
        item = items.get(str(line.get("itemId")))
        if item is not None and choices.slot_choices(item):
            return item, str(line["timeSlotId"])
    shown = items.get(focus or "")
    if shown is not None and choices.meta(shown, SCHEDULING).get("timeSlots"):
        return shown, None
    return None


def fits(asked: FollowUp, items: dict[str, dict[str, Any]], carts: list[dict[str, Any]],
         focus: str | None, last_line: str | None) -> bool:
    """Whether something in view is what the follow-up can be about: a service with times
    for a shift, an item of a catalog with a price, an item with options."""
    if asked.shift:
        return service_in_view(items, carts, focus, last_line) is not None
    shown = items.get(focus or "")
    if shown is None:
        return False
    if asked.price:
        return bool(shown.get("catalogId")) and bool(choices.prices(shown))
    return _an_option(asked.option or "", shown)


def _an_option(said: str, item: dict[str, Any]) -> bool:
    """Whether the words are an option's ("green", "100 g", "the large"), of the item or of
    any item: "what about in Tokyo?" asks no option."""
    named = words.content_words(said)
    labels = words.content_words(" ".join(choices.option_labels(item)))
    return bool(re.search(r"\d", said)) or all(
        words.is_look_word(word) or word in SIZE_RANK_WORDS or word in labels
        for word in named)


def _day(choice: choices.Choice) -> date:
    return date.fromisoformat(choice.words[:10])  # the day where the service is held


def times_asked(asked: FollowUp, item: dict[str, Any], booked: str | None,
                now: datetime | None = None) -> list[choices.Choice]:
    """The free times of `item` the shift asks for, against the time booked (any other free
    time when none is), soonest first."""
    free = [choice for choice in choices.open_slots(item, now) if choice.id != booked]
    seen = next((choice for choice in choices.slot_choices(item) if choice.id == booked), None)
    if seen is None:
        return free
    moment, day = datetime.fromisoformat(seen.words), _day(seen)
    if asked.same_day:
        free = [choice for choice in free if _day(choice) == day]
    shifted = {
        "earlier": lambda c: datetime.fromisoformat(c.words) < moment,
        "later": lambda c: datetime.fromisoformat(c.words) > moment,
        "day_after": lambda c: _day(c) == day + timedelta(days=1),
        "day_before": lambda c: _day(c) == day - timedelta(days=1),
        "week": lambda c: _day(c).isocalendar()[:2] == day.isocalendar()[:2],
    }.get(asked.shift or "")
    return [choice for choice in free if shifted(choice)] if shifted else free


def _lowest(item: dict[str, Any]) -> Decimal:
    return min(choices.prices(item))


def same_kind(focus: dict[str, Any], found: list[dict[str, Any]], order: str
              ) -> list[dict[str, Any]]:
    """The in-stock items of `found` (the focus's catalog) in the focus's money that cost
    less than it ("cheaper": the nearest in price first), or more ("dearer": likewise)."""
    currency = (focus.get("price") or {}).get("currency")
    if not choices.prices(focus):
        return []
    own = _lowest(focus)
    kin = [item for item in found if item.get("itemId") != focus.get("itemId")
           and item.get("available") is not False and choices.prices(item)
           and (item.get("price") or {}).get("currency") == currency]
    dearer = order == "dearer"
    return sorted((item for item in kin if (_lowest(item) > own if dearer else
                                            _lowest(item) < own)),
                  key=_lowest, reverse=not dearer)
