"""What the person wants: one intent per message, read from its words.

The checks run in order, most specific first ("cancel my subscription" before "cancel",
"buy it now" before "add"); a message that names no intent is `other`, which answers a
question the agent asked or gets the help text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from commerce_agent.agent.models.scripted import words

_SUBSCRIPTION = r"(?:subscription|membership|plan)"
_CHECKS: list[tuple[str, str]] = [
    ("sub_pause", rf"\b(?:pause|suspend|hold)\b.*\b{_SUBSCRIPTION}|\b{_SUBSCRIPTION}\b.*\bpause"),
    ("sub_resume", rf"\b(?:resume|restart|unpause|reactivate|continue)\b.*\b{_SUBSCRIPTION}"),
    ("sub_cancel", rf"\b(?:cancel|stop|end|terminate)\b.*\b{_SUBSCRIPTION}"),
    ("status", r"\bwhere(?:'s| is)\b.*\border\b|\border status\b|\btrack\b|\bstatus\b|"
               r"\bwhen will\b.*\b(?:arrive|ship|come)|\bhas my order\b|^(?:and |what about )?my "
               r"orders?\??$"),
    ("return", r"\breturn\b|\bsend (?:it|them|this|that)\b.*\bback\b|\brefund\b"),
    ("rate", r"\brate\b|\brating\b|\bstars?\b|\breview\b"),
    ("tip", r"\btip\b"),
    ("cancel", r"\bcancel\b"),
    ("empty", r"\b(?:empty|clear|reset)\b.*\b(?:cart|basket)\b|\bstart over\b|"
              r"\bremove everything\b"),
    ("remove", r"\bremove\b|\btake\b.*\b(?:out|off)\b|\bdelete\b|\bdrop the\b|"
               r"\bdon'?t want\b|\bno longer want\b|\bget rid of\b"),
    ("switch", r"\bswitch\b|\bshop at\b|\btake me to\b|\bchange (?:the )?(?:store|shop)\b|"
               r"\bgo (?:over )?to (?!check)|\bvisit\b|\blet'?s try\b"),
    ("quantity", r"\bmake (?:it|that|them|those)\b|\bchange\b.*\bto\b|\bonly want\b|"
                 r"\binstead\b|\bupdate\b.*\bquantity\b|\bset\b.*\bto\b|"
                 r"^(?:actually|sorry)\b.*\b(?:two|three|four|five|six|\d+)\b"),
    ("book", r"\bbook (?:a|an|me|it|the|my|one|two|\d|that|this|for|in|us)\b|^book\b|"
             r"\breserve\b|\bschedule\b|\bappointment\b"),
    ("subscribe", r"\bsubscribe\b|\bsign me up\b|\bjoin\b"),
    ("buy", r"\bbuy\b|\bpurchase\b|\border (?:me )?(?:a|an|one|two|three|some|the|\d+)\b"),
    ("checkout", r"\bcheck ?out\b|\bplace (?:the |my )?order\b|\bpay\b|\bcomplete\b.*\b(?:order|"
                 r"purchase)\b|\bthat'?s all\b|\bfinish\b"),
    ("promotion", r"\b(?:code|coupon|promo|voucher)\b\s*:?\s*[a-z0-9_-]*\d|"
                  r"\b(?:apply|use|redeem)\b"),
    ("discounts", r"\b(?:discounts?|deals?|offers?|promotions?|sales?|coupons?|codes?|"
                  r"cheaper)\b"),
    ("details", r"\btell me (?:more )?about\b|\bmore about\b|\bdetails?\b|\bdescribe\b|"
                r"\bwhat (?:sizes|sizes?|colou?rs?|options|grades?|times|slots|flavou?rs?)\b|"
                r"\bhow much (?:is|are|does)\b|\bwhat is the\b|\bwhat'?s the\b.*\b(?:like|price)"
                r"|\bcome in\b"),
    ("add", r"\badd\b|\bput\b|\bi'?ll (?:take|have|get)\b|\bi'?d like\b(?! to know)|"
            r"\bi (?:want|need)\b(?! to (?:see|look|browse|find|know))|\bgive me\b|"
            r"\bget me\b|\bcan i (?:get|have)\b|\bthrow in\b|\binclude\b"),
    ("cart", r"\bcart\b|\bbasket\b"),
    ("stores", r"\b(?:which|what) (?:stores|shops)\b|\blist\b.*\b(?:stores|shops)\b|"
               r"\ball (?:the )?(?:stores|shops)\b"),
    ("search", r"\bfind\b|\bsearch\b|\blook(?:ing)? for\b|\bshow\b|\bdo you (?:have|sell|do)\b|"
               r"\bany\b|\bgot any\b|\bbrowse\b|\brecommend\b|\bi'?m after\b|\bwhat\b.*\bhave\b"),
]
_COMPILED = [(name, re.compile(pattern)) for name, pattern in _CHECKS]
# Intents that keep the dialogue's open question alive when they answer it.
SHOPPING = ("add", "buy", "book", "subscribe")


@dataclass(frozen=True)
class Frame:
    """One request being served: its intent and every message that shaped it (the first
    names the intent, later ones answer the agent's questions)."""

    intent: str
    texts: tuple[str, ...]
    item_id: str | None = None
    # How many texts the frame had when its item was settled: later ones answer about options.
    item_at: int = 0
    added: bool = False  # its item went into the cart in an earlier turn

    @property
    def first(self) -> str:
        return self.texts[0]

    @property
    def last(self) -> str:
        return self.texts[-1]

    @property
    def text(self) -> str:
        return " ".join(self.texts)

    def quantity(self, name: str = "") -> int | None:
        """How many: from the latest message that says, not counting the words of the item's
        name ("a family feast for four" is one)."""
        named = [word for word in words.fold(name).split() if word.isalpha()]
        for text in reversed(self.texts):
            for word in named:
                text = re.sub(rf"\b{re.escape(word)}\b", " ", words.fold(text))
            if words.address(text) or (words.ordinal(text) is not None
                                        and len(words.words(text)) <= 3):
                continue  # "2" answering "which one?" picks the second, it is not a count
            found = words.quantity(text)
            if found is not None:
                return found
        return None

    def answered(self, text: str) -> Frame:
        return replace(self, texts=(*self.texts, text))

    def settled(self, item_id: str) -> Frame:
        if self.item_id == item_id:
            return self
        return replace(self, item_id=item_id, item_at=len(self.texts))

    def option_ordinal(self) -> int | None:
        """The position the last answer names among the options asked about."""
        if self.item_id is None or self.item_at >= len(self.texts):
            return None
        return words.ordinal(self.last)


@lru_cache(maxsize=4096)
def intent(raw: str) -> str:
    text = words.fold(raw).strip()
    for name, pattern in _COMPILED:
        if pattern.search(text):
            return name
    if words.yes(text):
        return "yes"
    if words.no(text):
        return "no"
    return "other"
