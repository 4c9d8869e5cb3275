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

from commerce_agent.agent.models.scripted.words import (
    content_words,
    fold,
    japanese_query,
    quantity,
)

Kind = Literal["question", "instruction", "confirmation", "refusal", "statement"]
# A "statement" is a message negated as a whole; the intent stage reads what it negates.

# Words of assent: a message made only of these (and politeness) accepts the offer.
_ASSENT = frozenset("""
yes yeah yea yep yup ya sure ok okay k kk alright right fine perfect great good cool lovely
absolutely definitely certainly totally course exactly correct agreed deal
oui ouais ouaip d'accord daccord dac volontiers parfait entendu bien sur evidemment
allez-y allez vas-y go
""".split())
# Words that may surround assent without changing it ("ok, go ahead and do it please").
_ALONG = frozenset("""
please pls thanks thank you that sounds sounds works work for me lets let's let us do it thing
go ahead then and sure, why not of this one that one the one is it's would be nice yes
ca marche merci s'il vous plait te plait c'est bon tres cela celui-la fais le faites
that'd thatd be would on wonderful awesome brilliant love i'd id i avec plaisir je veux
bien add put buy take in into to my cart basket ajoute ajoutez ajoutez-le ajoutez-la mettez-le
mettez-la au panier le la
""".split())
_ASSENT_PHRASES = re.compile(
    r"\b(?:go ahead|go for it|do it|sounds good|sounds great|why not|of course|please do|"
    r"i'?d love (?:that|it|one|to)|i would love (?:that|it|one|to)|with pleasure|"
    r"avec plaisir|je veux bien|volontiers|"
    r"let'?s do it|let'?s go|works for me|that works|c'est bon|ca marche|bien sur|"
    r"allez[- ]y|vas[- ]y)\b")
_JA_ASSENT = re.compile(r"^(?:(?:じゃあ|では|じゃ|それでは)、?)?"
                        r"(?:はい|うん|ええ|そう|ok|オッケー|おっけー|了解|"
                        r"りょうかい|お願い|おねがい|それで|いいよ|いいです|"
                        r"いいね|ぜひ|是非|よろしく|頼む|たのむ|(?:それ|これ|あれ)(?:に|で)(?:する|します|"
                        r"しよう|決め)|(?:それ|これ)(?:を|で)?(?:ください|下さい|お願い))")
# What may follow Japanese assent without naming anything new ("うん、それにする").
_JA_ALONG = re.compile(r"^[、,。!！\s]*(?:(?:それ|これ|あれ)(?:に|で|を)?"
                       r"(?:する|します|しよう|決め\S*|"
                       r"ください|下さい|お願い\S*)?|お願い\S*|ください|下さい)?[。!！\s]*$")
_JA_REFUSAL = re.compile(r"^(?:(?:やっぱり|やっぱ|うーん|えっと|あ)[、,\s]*)?"
                         r"(?:いいえ|いや|いえ|けっこう|結構|いらない|要らない|"
                         r"やめ|止め|大丈夫です?$|なし|今はいい|また今度)")
# A refusal: a "no" word heading a short message with nothing else asked.
# A change of mind may open with a discourse marker ("actually, never mind", "finalement,
# laisse tomber"): the refusal after it is the message.
_MIND_CHANGE = (r"(?:(?:actually|well|hmm+|oh|ah|ok(?:ay)?|on second thought|wait|sorry|"
                r"finalement|en fait|bon|euh|tout compte fait|reflexion faite)[,.!\s]+)*")
_NO_HEAD = re.compile(rf"^{_MIND_CHANGE}(?:no thank you|no thanks?|non merci|nope|nah|nay|no|non|"
                      r"pas maintenant|forget (?:about )?it|scratch that|oubliez?(?: ca)?|tant pis|"
                      r"not now|not today|not really|never ?mind|nevermind|maybe later|"
                      r"(?:maybe )?(?:another|some other|next) time|not this time|"
                      r"i'?ll think about it|let me think(?: about it)?|no for now|"
                      r"une autre fois|la prochaine fois|une prochaine fois|"
                      r"i'?m good|i'?m fine|i'?ll pass|pass|skip|laisse tomber|ca ira|"
                      r"plus tard)\b")
# What may follow a refusal without making it a correction ("no, the blue one" is one).
_NO_TAIL = frozenset("""
thanks thank you not now today really later maybe i'm im good fine that's thats all ok okay
for please merci pas maintenant aujourd'hui ca va non no nope it's its alright it that's
thats ira rien d'autre c'est tout is me not now all time another other next some for
then though anyway fois autre prochaine
""".split())
# "pas cher" (cheap) and "not too pricey" describe a price, they negate nothing.
_NEGATION = re.compile(r"\b(?:don'?t|do not|dont|doesn'?t|didn'?t|never|no need to|ne|"
                       r"not(?! (?:too |very |that |so )?(?:expensive|pricey|costly|dear)\b)|"
                       r"pas(?! (?:trop |tres |si )?(?:chere?s?|couteu\w*|onereu\w*)\b)|"
                       r"jamais)\b|\bn'|しないで|ないで|しない|やめて|せずに|ません(?!か)|"
                       r"(?:じゃ|では)なく")
# Clause breaks: a negated clause is dropped and the rest read on its own.
_CLAUSES = re.compile(r"[,;.!?、。！？]|\b(?:but|only|just|instead|rather|mais|seulement|"
                      r"plutot)\b|(?:けど|だけ)")
_QUESTION_OPENING = re.compile(
    r"^(?:how|what|what's|whats|which|when|where|where's|wheres|why|who|is|are|am|was|"
    r"does|did|do(?= (?:you|u|i|we|they|these|those|any|your|all|both)\b)|can i|could i|"
    r"may i|am i|is it|are there|is there|has|have|will|would it|"
    r"comment|combien|quand|ou|quel|quelle|quels|quelles|pourquoi|est-ce|est ce|puis-je|"
    r"peut-on|peut on|y a-t-il|ai-je|est-il)\b")
# Questions that are really requests ("can you add two?", "could I get a dozen?").
_POLITE_REQUEST = re.compile(
    r"^(?:(?:please )?(?:can|could|would|will) you|(?:can|could|shall) we|"
    r"can i (?:get|have|order|buy)|"
    r"could i (?:get|have|order|buy)|may i (?:get|have)|i'?d like|i want|i need|"
    r"pouvez-vous|pourriez-vous|peux-tu|pourrais-tu|tu peux|vous pouvez|je voudrais|je veux)\b")
_JA_REQUEST = re.compile(r"(?:ください|下さい|てほしい|して$|お願い|おねがい|"
                         r"たい$|たいです|もらえますか|いただけますか|くれますか)")


# Verbs that make a "no, …" a new request ("no, cancel it", "non, ajoute deux").
_ACTION = re.compile(r"\b(?:add|buy|cancel|remove|return|check|show|find|make|change|switch|"
                     r"pause|resume|rate|tip|apply|use|want|need|like|take|get|prefer|instead|"
                     r"rather|ajoute|annule|retire|montre|cherche|veux|voudrais|prends)")


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


def _is_japanese(text: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) is not None


def _assent_only(folded: str) -> bool:
    words = re.findall(r"[\w'-]+", folded)
    if not words or len(words) > 16 or len([w for w in words if w not in _ALONG]) > 8:
        return False  # politeness does not count towards the length of a plain assent
    has_head = any(word in _ASSENT for word in words) or _ASSENT_PHRASES.search(folded)
    return bool(has_head) and all(word in _ASSENT or word in _ALONG for word in words)


def _declines_only(tail: str) -> bool:
    """What follows a "no" adds nothing asked for: no product, number or other request
    ("no thanks, not today", "nah, not for me"; unlike "no, the blue one" or "no, 3")."""
    said = re.findall(r"[\w'-]+", tail)
    return all(word in _NO_TAIL for word in said) or (
        len(said) <= 6 and not content_words(tail) and quantity(tail) is None
        and not _ACTION.search(tail))


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
    if _is_japanese(text):
        if _JA_REFUSAL.search(text):
            return Act("refusal", text)
        assent = _JA_ASSENT.search(text)
        rest = text[assent.end():] if assent else ""
        if assent and (_JA_ALONG.match(rest) or not japanese_query(rest)) and \
                quantity(rest) is None:
            return Act("confirmation", text)  # "はい、お願いします", not "はい、2つください"
    elif (head := _NO_HEAD.search(folded)) and _declines_only(folded[head.end():]):
        return Act("refusal", text)
    elif _assent_only(folded):
        return Act("confirmation", text)
    if _JUST_ASKING.search(folded):
        kept, negated = _without_negated(text)
        return Act("question", kept, negated, just_asking=True)
    kept, negated = _without_negated(text)
    if negated and _assent_only(fold(kept)):
        return Act("confirmation", kept, negated)
    if _question(kept, fold(kept).strip()):
        split = conditional(kept)
        if split is not None:
            return Act("question", kept, negated, condition=split[0], main=split[1])
        return Act("question", kept, negated)
    if not negated and _NEGATION.search(folded):
        return Act("statement", kept, wholly_negated=True)
    return Act("instruction", kept, negated)

