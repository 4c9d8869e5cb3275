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

from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.models.scripted import assent, topics, words
from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act

_QUESTION_WORD = (r"(?:what|what's|whats|how|is|are|do|does|can|could|will|would|any|"
                  r"tell me|let me know|est-ce|c'est|combien|quel\w*|quand|ou|avez|vous|"
                  r"dites-moi|dis-moi)")
_BREAK = re.compile(
    r"\s+[—–-]{1,2}\s+|\s*;\s*|(?<=[?？!！。])\s*|(?<=[a-z)])\.\s+|"
    rf",\s*(?:and|but|also|plus|et|mais|aussi)?\s*(?={_QUESTION_WORD}\b)|"
    rf"\s+(?:and|et)\s+(?={_QUESTION_WORD}\b)|"
    # a comma before the last clause when that clause is asked (its question mark says so),
    # whatever word opens it: « ajoute le dripper, et la livraison c'est combien ? »
    r",\s*(?=[^,;.?？]{3,}[?？]\s*$)", re.IGNORECASE)
_LEADING = re.compile(r"^(?:and|but|also|plus|et|mais|aussi|oh|by the way|btw)\b[\s,]*",
                      re.IGNORECASE)
# What opens a wish said after a question, and names nothing: "either way", "if so".
_OPENER = re.compile(r"^(?:either way|anyway|anyhow|in any case|regardless|if so|if yes|if it is|"
                     r"if they are|dans tous les cas|de toute fa[cç]on|en tout cas|si oui|"
                     r"si c'est le cas)\b[\s,]*", re.IGNORECASE)
# A pronoun in the request for the thing the question named ("is the glaze mug dishwasher
# safe? either way I'd like two of them": two glaze mugs).
_POINTER = re.compile(r"\b(?:of|take|want|need|have|grab|order|add|buy|get)"
                      r"(?:\s+(?:two|three|four|\d)(?:\s+of)?)?\s+(?P<it>them|those|these|it)\b",
                      re.IGNORECASE)
_IN_VIEW = re.compile(r"\b(?:that|this|it|they|them|those|these|its|their)\b", re.IGNORECASE)
# A clause that supposes rather than asks ("if I order it now", « si je m'abonne »,
# 「もし注文したら」): the message is one question about it, and nothing is done.
_CONDITION = re.compile(r"^(?:if|when|once|in case|suppose|supposing|say|si|s'il|quand|lorsque|"
                        r"au cas ou|une fois que)\b|^もし|(?:たら|れば|なら)$", re.IGNORECASE)
# What the rest of a message must be to be served before the question is answered.
REQUESTS = ("add", "buy", "book", "subscribe", "checkout", "quantity", "remove", "promotion")
# An answer to the offer on the table may carry a question too ("yes please. is shipping
# free?", "sure — can I return it if I don't like it?", « d'accord, et la livraison ? »,
# 「はい。送料はいくらですか？」): the yes or no is served, then the question answered.
ANSWERS = ("yes", "no")


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
             if (read_act(piece).kind == "question" or topics.asks(piece) or
                 _asks_about_terms(piece)) and _answered(_LEADING.sub("", piece))]
    rest = [_OPENER.sub("", piece) for piece in pieces
            if _LEADING.sub("", piece) not in asked]
    if not asked or not any(rest):
        return _tentative(pieces) or Split(text)
    tentative = _tentative(pieces)
    if tentative is not None:
        return tentative
    request = _named(" ".join(piece for piece in rest if piece), asked)
    if _CONDITION.search(request) or understand(request)[0] not in REQUESTS and not (
            understand(request)[0] in ANSWERS and _only_an_answer(request) and
            _answers_first(text, pieces)):
        return Split(text)  # "if I subscribe, can I cancel later?": a supposition, not a wish
    return Split(request, " ".join(asked))


def _asks_about_terms(piece: str) -> bool:
    """A clause put as a question (its question mark says so) about the store's terms: "can I
    return it if I don't like it?" reads as a request by its modal, yet no request is made of
    the store's terms, only asked about."""
    return piece.rstrip().endswith(("?", "？")) and understand(_LEADING.sub("", piece))[0] == \
        "policy"


# A question put as a reservation on the yes ("sure, but how many cups does it make",
# « oui, mais c'est combien ? », 「いいけど、何杯分？」): the yes waits on the answer.
_RESERVATION = re.compile(r"\b(?:but|though|first|mais|d'abord|avant)\b|でも|けど|その前に")


def _answers_first(text: str, pieces: list[str]) -> bool:
    """Whether the message opens on its yes or no and asks after it without a reservation
    ("yes please. is shipping free?"); a yes said after the question ("…予約できますか？
    お願いします") is the request's own courtesy, not an answer to an offer."""
    return _only_an_answer(pieces[0]) and not _RESERVATION.search(words.fold(text))


def _only_an_answer(request: str) -> bool:
    """A yes or no and nothing else ("sure", "ok yes please", "non merci", 「はい」)."""
    return assent.classify(request).act in ("confirm", "decline")


def _tentative(pieces: list[str]) -> Split | None:
    """"add the planter? is it in stock", "check out? how much is shipping": a request put
    as a question, then a question. The request waits on the answer: only the question is
    served (an item's answer offers the item, for a yes), and nothing is done."""
    head, others = pieces[0], [_LEADING.sub("", piece) for piece in pieces[1:]]
    if not _put_as_a_question(head):
        return None  # most messages: read no further
    kind = understand(head)[0]
    if kind not in _TENTATIVE or not all(
            read_act(piece).kind == "question" or topics.asks(piece) for piece in others):
        return None
    question = " ".join(others).rstrip(" ?？")
    if kind == "checkout":
        return Split(f"{question}?")
    thing = _thing(head)
    return Split(f"{thing} - {question}?") if thing else None


# Requests a shopper may put as a question while asking about them.
_TENTATIVE = ("add", "buy", "checkout")
# A request put by a modal or a question word ("can you add it?", "could I get…?") is a
# request all the same; one said bare with a question mark ("add the planter?") is not yet.
_MODAL = re.compile(r"^(?:(?:and|but|so|ok|okay|please|pls)\W+)*(?:can|could|would|will|may|"
                    r"shall|should|pourriez|pourrais|peux|pouvez|voulez|veux)\b",
                    re.IGNORECASE)


def _put_as_a_question(piece: str) -> bool:
    plain = piece.strip()
    return plain.endswith(("?", "？")) and not in_japanese_script(plain) and \
        _MODAL.search(words.fold(plain)) is None


def _named(request: str, asked: list[str]) -> str:
    """The request with the thing its question named in place of its pronoun ("…two of
    them" after "is the glaze mug dishwasher safe?": "…two of the glaze mug")."""
    pointer = _POINTER.search(request)
    if pointer is None or len(asked) != 1 or understand(asked[0])[0] != "details" or \
            _IN_VIEW.search(asked[0]):
        # a question about the store's terms, or one that points at what is in view itself
        # ("does that include tax?"), names no item
        return request
    thing = _thing(asked[0])
    if not thing:
        return request
    start, end = pointer.span("it")
    return f"{request[:start]}the {thing}{request[end:]}"


def _thing(question: str) -> str:
    """The product words of a question about an item's data, in order ("is the glaze mug
    dishwasher safe?": "glaze mug")."""
    plain = words.fold(topics.without_topic(question))
    if in_japanese_script(plain):
        return ""
    said = re.findall(r"[\w'-]+", plain)
    return " ".join(word for before, word in zip(["", *said], said, strict=False)
                    if not words.is_stop(word, before))
