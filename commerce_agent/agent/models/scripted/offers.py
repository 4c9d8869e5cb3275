"""The offer on the table, and how the shopper's yes or no answers it.

The agent offers things ("Want me to add it to your cart?"), and an approval the shopper turns
down leaves the request it was for. Either stays on the table while the shopper asks about it
("hmm, how much is shipping?": a hedge, answered) and after a no, so that a later bare yes
("ok fine, go ahead", "actually yes") takes it up; any other request takes it off. A yes takes
up only the offer, and a no declines only the offer: neither reaches an order or a cart that
the offer was not about. Taking an offer up never skips the approval: a request carried out
again asks for approval again.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import Any

from commerce_agent.agent.language.tips import read_tip
from commerce_agent.agent.models.scripted import choices, words
from commerce_agent.agent.models.scripted.intents import Frame
from commerce_agent.agent.models.scripted.messages import every_language
from commerce_agent.agent.models.scripted.speech import Kind
from commerce_agent.operations.policy import REJECTED

# A turned-down order is offered again as its checkout, not as the request that filled the
# cart ("buy the mug" again would add a second mug).
_CHECKOUT = Frame("checkout", ("check out",))


@lru_cache(maxsize=1)
def _similar_asked() -> re.Pattern[str]:
    """The agent's "{name} is sold out. Shall I look for something similar?" in every
    language, with the item's name captured."""
    return re.compile("|".join(
        re.escape(text).replace(re.escape("{name}"), "(.+?)", 1)
        for text in every_language("item_sold_out")))


def similar_offered(content: str, items: dict[str, dict[str, Any]]) -> Frame | None:
    """The offer to look for something like a sold-out item, when the reply made it: a yes
    then searches (intent "similar"), a no declines only that."""
    name = _similar_name(content)
    if name is None:
        return None
    item = next((key for key, item in items.items() if item.get("name") == name), None)
    return Frame("similar", (name,), item_id=item) if item else None


@lru_cache(maxsize=1)
def _pause_told() -> re.Pattern[str]:
    """The agent's answer that a subscription can be paused ("Say “pause my subscription” if
    you want that"), in every language, with the order's id captured."""
    return re.compile("|".join(
        re.escape(text).replace(re.escape("{name}"), ".+?", 1).replace(
            re.escape("{id}"), "(ord_[0-9a-z]+)", 1)
        for text in every_language("sub_pause")))


@lru_cache(maxsize=4096)  # the dialogue state reads every past reply again each turn
def _similar_name(content: str) -> str | None:
    match = _similar_asked().search(content)
    return None if match is None else next(group for group in match.groups() if group)


@lru_cache(maxsize=4096)
def pause_offered(content: str) -> Frame | None:
    """After "can I put it on hold?" or "skip next month" is answered, a yes pauses that
    subscription, through the approval every pause asks for."""
    match = _pause_told().search(content)
    if match is None:
        return None
    order_id = next(group for group in match.groups() if group)
    return Frame("sub_pause", (f"pause the subscription of order {order_id}",))


def hesitated(offer: Frame | None) -> str:
    """The reply to "hmm, maybe": the offer stays open, else what the agent can do."""
    return "no_rush" if offer is not None else "help"


def order_turned_down(offer: Frame | None) -> bool:
    return offer is _CHECKOUT


def taken_up(pending: Frame | None, offer: Frame | None, intent: str, act: Kind
             ) -> tuple[Frame | None, Frame | None]:
    """(the request this message answers, the offer left on the table)."""
    if intent == "yes" and offer is not None and (pending is None or pending.intent == "no"):
        return offer, None  # "actually yes": the offer still on the table
    if act in ("question", "hedge") or intent in ("no", "hedge"):
        # a question, a hesitation, a pause ("hold on") or a no: it stays for a later yes
        return pending, offer
    return pending, None


def after_rejection(tool: str, result: Any, frame: Frame | None, offer: Frame | None
                    ) -> Frame | None:
    """The offer left when the shopper turned down an approval: the request it was for."""
    if not (isinstance(result, dict) and result.get("code") == REJECTED) or frame is None:
        return offer
    if tool == "place_order":
        return _CHECKOUT
    return frame


# After-sale requests a shopper may say again with a change once they turned its approval
# down: the amount of a tip, which lines of a return.
_REVISABLE = ("tip", "return")
# How a change to the request reads on its own: a count or amount, the thing meant, a no.
_REVISING = ("quantity", "other", "search", "replace", "remove", "keep", "no", "tip", "return")


def revised(offer: Frame | None, intent: str, text: str, act: Kind) -> Frame | None:
    """The after-sale request just turned down, said again with what the shopper changes
    ("make it $3 instead" after a $5 tip, "no wait, just the mug" after returning everything):
    that request with the new words last (its approval is asked again), else None."""
    if offer is None or offer.intent not in _REVISABLE or intent not in _REVISING or \
            act == "question":
        return None
    if offer.intent == "tip" and read_tip(text) is None:
        return None
    if offer.intent == "return" and not words.content_words(text):
        return None
    return Frame(offer.intent, (*offer.texts, text))


def other_slot(carts: list[dict[str, Any]], items: dict[str, dict[str, Any]], text: str,
               now: datetime | None = None, tz: str = "UTC"
               ) -> tuple[dict[str, Any], dict[str, Any], choices.Choice] | None:
    """(cart, line, slot) when `text` names another open time for a booked line ("the 3pm
    then", "plutôt 15h", "15時で"): on the line's own day first, else the one time that fits."""
    if not choices.when_named((text,), now, tz).named():
        return None
    for cart in carts:
        for line in cart.get("items", []):
            item = items.get(str(line.get("itemId")))
            booked = line.get("timeSlotId")
            if not booked or item is None:
                continue
            fitting = [slot for slot in choices.pick_slots(item, (text,), now, tz)[0]
                       if slot.id != booked]
            day = next((slot.words[:10] for slot in choices.slot_choices(item)
                        if slot.id == booked), "")
            same_day = [slot for slot in fitting if slot.words[:10] == day]
            found = same_day if len(same_day) == 1 else fitting
            if len(found) == 1:
                return cart, line, found[0]
    return None
