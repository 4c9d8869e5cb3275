"""A question asked inside a request: "add the mug — is shipping free over $50?", "put two
cup sets in my cart, and what's your return window?", « je prendrai l'encre, et c'est combien
la livraison ? », 「急須を1つカートに入れてください。返品はできますか？」.

The message is cut at clause breaks (a dash, a semicolon, a sentence end, a comma or "and"
before a question word, in en/fr/ja); a clause that is a question about the store's terms or
an item's data is set apart, and the rest is the request. The request is served as usual and
the question answered after it (`policy.decide`); a question is never done.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from commerce_agent.agent.models.scripted import topics
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act

_QUESTION_WORD = (r"(?:what|what's|whats|how|is|are|do|does|can|could|will|would|any|"
                  r"tell me|let me know|est-ce|c'est|combien|quel\w*|quand|ou|avez|vous|"
                  r"dites-moi|dis-moi)")
_BREAK = re.compile(
    r"\s+[—–-]{1,2}\s+|\s*;\s*|(?<=[?？!！。])\s*|(?<=[a-z)])\.\s+|"
    rf",\s*(?:and|but|also|plus|et|mais|aussi)?\s*(?={_QUESTION_WORD}\b)|"
    rf"\s+(?:and|et)\s+(?={_QUESTION_WORD}\b)", re.IGNORECASE)
_LEADING = re.compile(r"^(?:and|but|also|plus|et|mais|aussi|oh|by the way|btw)\b[\s,]*",
                      re.IGNORECASE)
# What the rest of a message must be to be served before the question is answered.
REQUESTS = ("add", "buy", "book", "subscribe", "checkout", "quantity", "remove", "promotion")


def _answered(piece: str) -> bool:
    """A question about terms, or one about an item on a topic its data answers ("is it
    dishwasher safe?" is; "et des mugs ?" is a search, and stays with the request)."""
    kind = understand(piece)[0]
    return kind == "policy" or (kind == "details" and topics.topic(piece) is not None)


@dataclass(frozen=True)
class Split:
    request: str
    question: str | None = None


@lru_cache(maxsize=4096)
def split(text: str) -> Split:
    """The request and the question asked inside it (None when the message is one or the
    other), each clause read by the intent stage."""
    pieces = [piece.strip() for piece in _BREAK.split(text) if piece and piece.strip()]
    if len(pieces) < 2:
        return Split(text)
    asked = [_LEADING.sub("", piece) for piece in pieces
             if (read_act(piece).kind == "question" or topics.asks(piece))
             and _answered(_LEADING.sub("", piece))]
    rest = [piece for piece in pieces if _LEADING.sub("", piece) not in asked]
    if not asked or not rest:
        return Split(text)
    request = " ".join(rest)
    if understand(request)[0] not in REQUESTS:
        return Split(text)
    return Split(request, " ".join(asked))
