"""Speech act: what kind of thing a message does, before what it is about.

A shopper's message is a question (answer it, never execute it), an instruction (do it), a
confirmation (accept the offer on the table), a refusal (decline it, and touch nothing else),
or a statement negated as a whole ("I don't want the planter", "don't add it"): the intent
stage decides whether that removes something or declines. Negated clauses ("don't cancel
it, I only want to know when it ships") are cut out first, so what remains is what the
person asks for.

Each class is read from small per-language word tables (en, fr, ja) and the message's shape
(a question mark, an interrogative opening, a Japanese sentence-final か), never from
whole phrasings, so "sure thing", "yep, go for it" and "ok do it" all confirm.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from commerce_agent.agent.models.scripted import requests
from commerce_agent.agent.models.scripted.assent import classify
from commerce_agent.agent.models.scripted.words import fold

Kind = Literal["question", "instruction", "confirmation", "refusal", "statement", "hedge"]
# A "statement" is a message negated as a whole; the intent stage reads what it negates.

# "pas cher" (cheap) and "not too pricey" describe a price, they negate nothing.
_NEGATION = re.compile(r"\b(?:don'?t|do not|dont|doesn'?t|didn'?t|never|no need to|ne|"
                       r"not(?! (?:too |very |that |so )?(?:expensive|pricey|costly|dear)\b)|"
                       r"pas(?! (?:trop |tres |si )?(?:chere?s?|couteu\w*|onereu\w*)\b)|"
                       r"jamais)\b|\bn'|しないで|ないで|しない|やめて|せずに|ません(?!か)|(?:いら|要ら)ない|"
                       r"(?:じゃ|では)なく")
# Clause breaks: a negated clause is dropped and the rest read on its own.
_CLAUSES = re.compile(r"[,;.!?、。！？]|\b(?:but|only|just|instead|rather|mais|seulement|"
                      r"plutot)\b|(?:けど|だけ)|"
                      # "大きいのじゃなくて小さいの": what is refused ends its own clause
                      r"(?<=じゃなくて)|(?<=ではなくて)|"
                      # "the speckled mug not the blue one": the refused one, said after
                      r"(?<!why)(?<=\w)\s+(?=not (?:the|a|an|that|this)\b)")
_QUESTION_OPENING = re.compile(
    r"^(?:how|what|what's|whats|which|when|where|where's|wheres|why|who|is|are|am|was|"
    r"does|did|do(?= (?:you|u|i|we|they|these|those|any|your|all|both)\b)|can i|could i|"
    r"may i|am i|is it|are there|is there|has|have|will|would it|"
    r"comment|combien|quand|ou|quel|quelle|quels|quelles|pourquoi|est-ce|est ce|puis-je|"
    r"peut-on|peut on|y a-t-il|ai-je|est-il)\b")
# Questions that are really requests ("can you add two?", "could I get a dozen?").
_POLITE_REQUEST = re.compile(
    r"^(?:(?:please )?(?:can|could|would|will) you|(?:can|could|shall) we|"
    r"(?:can|could) i (?:get|have|order|buy|purchase|grab|snag)|may i (?:get|have)|"
    r"i'?d like|i want|i need|"
    r"pouvez-vous|pourriez-vous|peux-tu|pourrais-tu|tu peux|vous pouvez|je voudrais|je veux)\b")
_JA_REQUEST = re.compile(r"(?:ください|下さい|てほしい|して$|お願い|おねがい|"
                         r"たい$|たいです|もらえますか|いただけますか|くれますか)")


# "Just asking", "only looking": whatever the message names, nothing is to be done.
_JUST_ASKING = re.compile(
    r"\b(?:(?:i'?m |i am )?(?:just|only|merely) (?:asking|wondering|curious|looking|browsing|"
    r"checking)|just a question|out of curiosity|hypothetically|asking for a friend|"
    r"(?:i'?m |i was )?wondering (?:if|whether|how|what)|"
    r"je (?:me )?demande (?:juste|seulement|simplement)?|je me demandais|simple question|"
    r"juste une question|par curiosite|juste pour savoir|je (?:regarde|demande) (?:juste|"
    r"seulement|simplement))\b|(?:聞いてる|聞いている|聞いた|見てる|見ている|知りたい)だけ|"
    r"質問です|ちょっと(?:聞きたい|質問)|気になって")


@dataclass(frozen=True)
class Act:
    kind: Kind
    # The words that carry the request: the message without its negated clauses.
    text: str
    negated: tuple[str, ...] = ()
    # The whole message is negated ("I don't want the planter", "don't add it").
    wholly_negated: bool = False
    # The person says they are only asking or looking: nothing is to be done.
    just_asking: bool = False
    # A question under a condition ("if I order now, when will it arrive?"): the condition
    # is supposed, never done; `main` is what is asked.
    condition: str = ""
    main: str = ""
    # What a request form asks for ("commande-moi…": buy, "茶筅をカートに入れて": add), else "".
    request: str = ""


def _is_japanese(text: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) is not None


def _clauses(text: str) -> list[str]:
    return [part.strip() for part in _CLAUSES.split(text) if part and part.strip()]


def _without_negated(text: str) -> tuple[str, tuple[str, ...]]:
    """The message with each negated clause cut out ("don't cancel it, only tell me when")."""
    parts = _clauses(text)
    if len(parts) < 2:
        return text, ()
    negated = tuple(part for part in parts if _NEGATION.search(fold(part)))
    kept = [part for part in parts if part not in negated]
    if not negated or not kept:
        return text, ()
    return " ".join(kept), negated


# Questions asked as statements ("I want to know if…", "je voudrais savoir…").
_INDIRECT = re.compile(r"\b(?:want|like|need|wanted|wanna) to know\b|\bwonder(?:ing)?\b|"
                       r"\bcheck (?:if|whether)\b|\bverifie\w* si\b|"
                       r"\b(?:tell|let) me (?:know )?(?:if|whether|what|when|where|how|which|"
                       r"who|why)\b|\b(?:pouvez|pourriez|peux|pourrais)-(?:vous|tu) me dire\b|"
                       r"\bdites-moi (?:si|quand|ou|comment|quel\w*|combien|pourquoi)\b|"
                       r"\b(?:voudrais|veux|aimerais|voulais) savoir\b|知りたい|教えてほしい")


def _question(raw: str, folded: str) -> bool:
    if _INDIRECT.search(folded):
        return True
    if _is_japanese(raw):
        return bool(re.search(r"(?:か|かな|の)[?？]?\s*$|[?？]\s*$", raw)) and not \
            _JA_REQUEST.search(raw)
    if _POLITE_REQUEST.search(folded):
        return False
    return folded.rstrip().endswith("?") or _QUESTION_OPENING.search(folded) is not None


# A condition heading a sentence ("if …,", "what if …", "si …", "au cas où …"), or ending it
# ("when would it ship if I ordered today?"); in Japanese a verb in たら/れば/なら.
_IF_HEAD = re.compile(r"^(?:(?:and|so|but|et|mais|alors) )?(?:what|et) ?(?:if|si)\b|"
                      r"^(?:(?:and|so|but|et|mais|alors) )?(?:if|suppose|supposing|assuming|"
                      r"in case|si|s'|au cas ou|imaginons que|supposons que)\b")
_IF_TAIL = re.compile(r"\s(?:if|in case|si|au cas ou)\s")
# "if" after knowing or asking is "whether": "do you know if it's in stock?" asks, supposes
# nothing.
_WHETHER = re.compile(r"\b(?:know|knows|wonder\w*|ask\w*|tell me|let me know|check|see|sure|"
                      r"idea|savoir|sais|demande\w*|dire|dites-moi|verifie\w*)\s+(?:if|si)\s")
_JA_IF = re.compile(r"(?:たら|ったら|れば|なら|場合(?:は|に)?)[、,]?")


def conditional(text: str) -> tuple[str, str] | None:
    """(condition, what is asked) of a conditional sentence, else None. With no main clause
    ("what if I want to return it?") what is asked is the bare interrogative."""
    if _is_japanese(text):
        found = _JA_IF.search(text)
        return (text[:found.start()], text[found.end():]) if found else None
    folded = fold(text).strip()
    if _WHETHER.search(folded):
        return None
    head = _IF_HEAD.search(folded)
    if head:
        opener = folded[:head.start()] + folded[head.start():head.end()]
        rest = folded[head.end():]
        cut = re.search(r",|\bthen\b|\balors\b", rest)
        if cut is None:  # "what if I cancel?": the question is the condition itself
            return rest.strip(" ?"), opener.split()[0] if opener.startswith(("what", "et")) \
                else ""
        return rest[:cut.start()].strip(), rest[cut.end():].strip()
    tail = _IF_TAIL.search(folded)
    if tail:
        return folded[tail.end():].strip(" ?"), folded[:tail.start()].strip() + "?"
    return None


@lru_cache(maxsize=4096)
def read_act(raw: str) -> Act:
    text = raw.strip()
    folded = fold(text).strip()
    answer = classify(text)  # a bare yes or no to the offer on the table, or neither
    if answer.act == "confirm":
        return Act("confirmation", text)
    if answer.act == "decline":
        return Act("refusal", text)
    if answer.act == "other" and answer.hedged:
        return Act("hedge", text)  # "hmm, maybe", "I'm not sure": neither yes nor no
    if _JUST_ASKING.search(folded):
        kept, negated = _without_negated(text)
        return Act("question", kept, negated, just_asking=True)
    kept, negated = _without_negated(text)
    if negated and classify(kept).act == "confirm":
        return Act("confirmation", kept, negated)
    request = requests.asked(fold(kept).strip()) or ""
    if not request and _question(kept, fold(kept).strip()):
        split = conditional(kept)
        if split is not None:
            return Act("question", kept, negated, condition=split[0], main=split[1])
        return Act("question", kept, negated)
    if not negated and _NEGATION.search(folded):
        return Act("statement", kept, wholly_negated=True)
    return Act("instruction", kept, negated, request=request)

