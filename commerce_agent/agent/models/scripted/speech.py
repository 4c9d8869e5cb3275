"""Speech act: what kind of thing a message does, before what it is about.

A shopper's message is a question (answer it, never execute it), an instruction (do it), a
confirmation (accept the offer on the table), a refusal (decline it, and touch nothing else),
or a statement negated as a whole ("I don't want the planter", "don't add it"): the intent
stage decides whether that removes something or declines. Negated clauses ("don't cancel
it, I only want to know when it ships") are cut out first, so what remains is what the
person asks for.

A message of several clauses is read clause by clause (`settle`, `_joint_request`): each
clause gets its own act from its frame; the last instruction overrides an earlier question
when the shopper drops it ("what comes in the set? never mind, just add it", « finalement »,
「やっぱり」), a question said after dropping an instruction is only asked; things named and
then an order said ("a tiramisu and 2 cannoli, pickup, place the order", "add a lasagna and
check out") are one purchase, the additions before the checkout.

Each class is read from small per-language word tables (en, fr, ja) and the message's shape
(a question mark, an interrogative opening, a Japanese sentence-final か), never from
whole phrasings, so "sure thing", "yep, go for it" and "ok do it" all confirm.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from commerce_agent.agent.language.checkout_acts import read_checkout
from commerce_agent.agent.language.closing import closing
from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.language.party import party_size
from commerce_agent.agent.language.reading import read_message
from commerce_agent.agent.models.scripted import requests, words
from commerce_agent.agent.models.scripted.assent import classify
from commerce_agent.agent.models.scripted.words import fold

Kind = Literal["question", "instruction", "confirmation", "refusal", "statement", "hedge"]
# A "statement" is a message negated as a whole; the intent stage reads what it negates.

# "pas cher" (cheap) and "not too pricey" describe a price, they negate nothing; nor does a
# bound said with "not" ("pas plus de 20 $", "not more than 30 euros", "not over $40").
_BOUND = (r"(?:(?:more|higher|dearer) than|over|above|exceeding|plus (?:de|d'|cher que)|"
          r"au-?\s?dessus (?:de|d')) ?[$€¥£]?\s?(?:\d|(?:un|une|deux|trois|quatre|cinq|six|sept|"
          r"huit|neuf|dix|onze|douze|quinze|vingt|trente|quarante|cinquante|soixante|cent|mille|"
          r"one|two|three|four|five|ten|twenty|thirty|forty|fifty|hundred)\b)")
_NEGATION = re.compile(r"\b(?:don'?t|do not|dont|doesn'?t|didn'?t|never|no need to|ne|"
                       r"not(?! (?:too |very |that |so )?(?:expensive|pricey|costly|dear)\b)"
                       rf"(?! {_BOUND})|"
                       r"pas(?! (?:trop |tres |si )?(?:chere?s?|couteu\w*|onereu\w*)\b)"
                       rf"(?! {_BOUND})|"
                       r"jamais)\b|\bn'|"
                       # spoken French drops the "ne": « je veux plus le mug », « plus besoin »
                       r"\b(?<!de )plus (?=(?:le|la|les|l'|ce|cet|cette|ces|mon|ma|mes|besoin|"
                       r"jamais|rien)\b)|しないで|ないで|しない|やめて|せずに|ません(?!か)|(?:いら|要ら)ない|"
                       # "no need to": 「解約はしなくていいです」「キャンセルしなくて大丈夫」
                       r"なくて(?:も)?(?:いい|良い|大丈夫|結構|平気)|"
                       r"(?:じゃ|では)なく|"
                       # a verb's plain negative, its stem's kana before ない (買わない, 頼まない,
                       # 入れない), never an adjective's (少ない, 高くない) nor a question
                       # (買わないの？, 入れないですか)
                       r"(?<=[\u4e00-\u9fff][わかさたまらがばえけせてめれげべ])ない"
                       r"(?!か|の?[?？]|んですか|ですか|でしょうか)")
# Clause breaks: a negated clause is dropped and the rest read on its own (だけ is "only",
# never the いただけ of a request); a dash set apart ends a clause too ("don't order yet -
# add a water").
_CLAUSES = re.compile(r"[,;.!?、。！？]|\s[-–—]+\s|"
                      r"\b(?:but|only|just|instead|rather|mais|seulement|plutot)\b|けど|(?<!いた)(?<!頂)だけ|"
                      # "大きいのじゃなくて小さいの": what is refused ends its own clause
                      r"(?<=じゃなくて)|(?<=ではなくて)|"
                      # a reason said in the negative (「気に入らないので返品」): its own clause
                      r"(?<=ないので)|(?<=ないから)|(?<=なかったので)|(?<=なかったから)|"
                      # "the speckled mug not the blue one": the refused one, said after
                      r"(?<!why)(?<=\w)\s+(?=not (?:the|a|an|that|this)\b)")
_QUESTION_OPENING = re.compile(
    r"^(?:how|what|what's|whats|which|when|where|where's|wheres|why|who|is|are|am|was|"
    r"does|did|do(?= (?:you|u|i|we|they|these|those|any|your|all|both)\b)|can i|could i|"
    r"may i|am i|is it|are there|is there|has|have|will|would it|"
    # a plural subject, or a modal before one: "do returns cost anything", "would cancelling
    # it refund me", "should I…" (a request to "you" is read before this)
    r"do(?= (?!(?:this|thus|its|his|us|yes|less|plus|as|is|was)\b)[a-z]{3,}s [a-z]+)|"
    r"would(?! (?:love|like|prefer|rather|appreciate|be (?:great|nice|good|awesome|lovely|"
    r"perfect|amazing|cool|ideal|helpful|fine|ok|okay))\b)|"
    r"should(?! be (?:fine|ok|okay|good|great|alright|enough|it)\b)|shall|"
    r"any ?way (?:to|i can|we can|of)|"
    r"comment|combien|quand(?! m[eê]me\b)|ou|quel|quelle|quels|quelles|pourquoi|est-ce|est ce|"
    r"puis-je|"
    r"peut-on|peut on|y a-t-il|ai-je|est-il)\b")
# Questions that are really requests ("can you add two?", "could I get a dozen?", « est-ce
# que je pourrais avoir deux tiramisus ? »).
_POLITE_REQUEST = re.compile(
    r"^(?:(?:please )?(?:can|could|would|will) you|(?:can|could|shall) we|"
    r"(?:can|could) i (?:get|have|order|buy|purchase|grab|snag)|may i (?:get|have)|"
    r"i'?d like|i want|i need|"
    r"pouvez-vous|pourriez-vous|peux-tu|pourrais-tu|tu peux|vous pouvez|je voudrais|je veux|"
    # « est-ce que je pourrais avoir deux tiramisus ? », « je peux prendre le mug ? »
    r"(?:est-ce que |est ce que )?(?:je peux|je pourrais|puis-je|pourrais-je|on peut|"
    r"on pourrait) (?:avoir|prendre|ajouter|mettre|me prendre)|j'aimerais)\b")
# Asking whether a thing comes a certain way, not asking for it: "can I get it gluten free?",
# "could I have that without olives", "can we get them in blue?" (a count, a time or a place
# after the pronoun asks for it: "can I get it tomorrow", "can I have it in my cart").
_WAY_ASKED = re.compile(
    r"^(?:can|could|may) (?:i|we) (?:get|have) (?:it|this|that|them|these|those|one)\s+"
    r"(?!(?:now|today|tonight|tomorrow|asap|please|pls|plz|delivered|shipped|sent|by|before|"
    r"after|at|on|for|to|instead|too|also|then|right|quickly|soon|here|there)\b|"
    r"in (?:my|the|your) (?:cart|basket|bag)\b|\d)[a-z]")


# A question said in statement order, with no question mark, as typed on a phone: "you guys
# still have the espresso cups", "u still got the teapot", "you ship to canada", « vous livrez
# au Canada », « vous avez encore des tasses ». What the shop has or does is asked, not told.
_DECLARED_ASKING = re.compile(
    r"^(?:you|u|ya|y'?all)(?:\s+(?:guys|all|folks|people))?(?:\s+(?:still|also|even|ever|"
    r"usually|normally|already))*\s+(?:have|got|sell|carry|stock|do|ship|deliver|take|accept|"
    r"open|close|offer|make|send)\b|"
    r"^(?:vous|tu)\s+(?:avez|as|vendez|vends|livrez|livres|acceptez|acceptes|prenez|prends|"
    r"ouvrez|ouvres|fermez|fermes|faites|fais|envoyez|envoies)\b(?!.*\b(?:moi|nous)\b)")


def asks_a_way(text: str) -> bool:
    """Whether a message asks if a thing comes a certain way ("can I get it gluten free?")."""
    return _WAY_ASKED.search(fold(without_discourse(text)).strip()) is not None


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
    r"質問です|ちょっと(?:聞きたい|質問)|気になって|"
    # an act only weighed, not asked for: "I'm thinking about cancelling my plan", « j'envisage
    # de résilier », 「解約を考えています」
    r"\b(?:i'?m |i am |i'?ve been |been )?(?:thinking|considering|contemplating|debating)"
    r"(?: about| of| whether(?: to| or not to)?)?\s+\w+ing\b|"
    r"\b(?:je (?:pense|songe|reflechis) a|j'envisage de|je me demande si je (?:dois|devrais))\b|"
    r"(?:しようか|するか)?(?:考えて(?:います|いる|る)|考え中|迷って)|"
    # a verb's volitional weighed: 「買おうかなと思ってる」「注文しようかな」「頼もうか迷う」
    r"(?:[おこそとのほもよろごぞどぼぽ]う|よう)かな(?:あ|ー)?(?:と|って)?(?:思|おも|考え)")


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


def _clauses(text: str) -> list[str]:
    return [part.strip() for part in _CLAUSES.split(text) if part and part.strip()]


# A clause of its own opened by its subject after an instruction ("cancel the membership i
# dont have time for it", « annule la commande je n'en veux plus »): a reason or an aside,
# whose negation is not the instruction's.
# The thing itself as the subject gives a reason too (« retourner le mug il me plaît pas »,
# "return the mat it doesn't fit").
_SUBJECT_OPENING = re.compile(r"(?<=\w)\s+(?=(?:i|i'm|im|i'd|i've|i'll|we|we're|je|j'|on|it|it's|"
                              r"they|they're|il|elle|ils|elles|ça|ca)\b)")


def _asides(part: str) -> list[str]:
    """A clause cut where a negated clause with its own subject follows an instruction."""
    pieces = _SUBJECT_OPENING.split(part)
    if len(pieces) < 2 or _NEGATION.search(fold(pieces[0])):
        return [part]
    for index in range(1, len(pieces)):
        rest = " ".join(pieces[index:])
        if _NEGATION.search(fold(rest)) and not _NEGATION.search(fold(" ".join(
                pieces[:index]))):
            return [" ".join(pieces[:index]), rest]
    return [part]


# A question opened inside a clause, after its own subject and verb ("i dont like it how long
# do i have to send it back?"): an interrogative and the verb or subject that follows it.
_ASKED_INSIDE = re.compile(
    r"(?<=\w)\s+(?=(?:how (?:long|much|many|soon|do|does|can|would|will)|what (?:is|are|do|does|"
    r"would|will|can|happens)|when (?:do|does|will|would|is|can)|where (?:do|does|is|can)|"
    r"can (?:i|we)|could (?:i|we)|do (?:i|we|you)|is (?:it|there)|are (?:there|they)|"
    r"combien|quand|comment|est-ce que)\b)")


def _question_after(part: str, asked: bool) -> list[str]:
    """A negated clause that runs on into a question without a break, cut where the question
    starts (the message ends in a question mark): the question is kept, only the clause before
    it is negated."""
    if not asked or not _NEGATION.search(fold(part)):
        return [part]
    found = _ASKED_INSIDE.search(fold(part))
    if found is None or _NEGATION.search(fold(part)[found.end():]):
        return [part]
    return [part[:found.start()].strip(), part[found.end():].strip()]


def _without_negated(text: str) -> tuple[str, tuple[str, ...]]:
    """The message with each negated clause cut out ("don't cancel it, only tell me when")."""
    asked = text.rstrip().endswith(("?", "？"))
    parts = [cut for part in _clauses(text) for piece in _asides(part)
             for cut in _question_after(piece, asked) if cut]
    if len(parts) < 2:
        return text, ()
    negated = tuple(part for part in parts if _NEGATION.search(fold(part)))
    kept = [part for part in parts if part not in negated]
    if not negated or not kept:
        return text, ()
    # "wait, no, don't order yet - add a water": the no said with the negated clause is its
    # own, not the request's
    meant = [part for part in kept if not (classify(part).act == "decline" or (
        classify(part).act == "other" and classify(part).hedged))]
    kept = meant or kept
    return " ".join(kept), negated


# Questions asked as statements ("I want to know if…", "je voudrais savoir…").
_INDIRECT = re.compile(r"\b(?:want|like|need|wanted|wanna) to know\b|\bwonder(?:ing)?\b|"

                       r"\bcheck (?:if|whether)\b|\bverifie\w* si\b|"
                       r"\b(?:tell|let) me (?:know )?(?:if|whether|what|when|where|how|which|"
                       r"who|why)\b|\b(?:pouvez|pourriez|peux|pourrais)-(?:vous|tu) me dire\b|"
                       r"\bdites-moi (?:si|quand|ou|comment|quel\w*|combien|pourquoi)\b|"
                       r"\b(?:voudrais|veux|aimerais|voulais) savoir\b|知りたい|教えてほしい")


# A statement turned into a question by its tail: "…, right?", "…doesn't it", "…or what",
# « …ou quoi », « c'est mensuel, non ? », 「…ですよね」.
_TAG = re.compile(
    # one word, set off by a comma or asked with "?": "…, right", "…right?" ("the one on the
    # right" asks nothing)
    r"(?:,\s*(?P<word>right|yeah|yes|innit|correct|no|non|hein)\s*[?]?|"
    r"\s(?P<asked>right|yeah|yes|innit|correct|no|non|hein)\s*[?])\s*$|"
    # a tag of its own shape: "…doesn't it", "…or what", « …ou quoi », « n'est-ce pas »
    r",?\s+(?P<tag>or what|or not|or no|"
    r"(?:is|are|does|do|did|was|were|has|have|can|will|would|should)(?:n'?t| not) "
    r"(?:it|they|he|she|that|there|you|we|i)|"
    r"n'est-ce pas|ou quoi|ou pas|ou non|c'est ca|pas vrai)\s*[?]?\s*$|"
    r"(?:よね|でしょう|でしょ)[?？。]?\s*$")
# What a yes or no tag needs before it to ask ("it's monthly, no?"), not to answer ("add the
# mug, no").
_COPULA = re.compile(r"\b(?:is|are|was|were|comes?|has|have|includes?|c'est|est|sont|a)\b")


# A tag typed with no comma and no question mark: "it doesnt come with a gift box right", "the
# return is free correct" (never "the one on the right").
_BARE_TAG = re.compile(r"(?<!\bthe)\s+(?:right|correct|innit)\s*$")
_AUXILIARY = re.compile(r"\b(?:do|does|did|is|are|was|were|can|will|would|has|have)(?:n'?t| not)\b|"
                        r"\b(?:dont|doesnt|didnt|isnt|arent|wasnt|cant|wont|wouldnt|hasnt|"
                        r"havent)\b")


def _tagged(folded: str) -> bool:
    found = _TAG.search(folded)
    bare = _BARE_TAG.search(folded) if found is None else None
    if bare is not None:
        before = folded[:bare.start()]
        return _COPULA.search(before) is not None or _AUXILIARY.search(before) is not None
    if found is None:
        return False
    if (found.group("word") or found.group("asked")) in ("yes", "no", "non"):
        return _COPULA.search(folded[:found.start()]) is not None
    return True


# A question opened by a hedge rather than an interrogative ("any chance the oat mug is in
# stock", "any idea when it ships", "do you happen to know…", « c'est possible de… »); never
# one that asks someone to do a thing ("any chance you could add two?").
_HEDGED_OPENING = re.compile(
    r"^(?:(?:hey|hi|hello|ok|okay|so|and|um|hmm|oh|quick question|bonjour|salut|et|alors|"
    r"euh)[\s,!:-]+)*(?:any (?:chance|idea|clue|word)|(?:do|does) (?:you|anyone|u) happen to|"
    r"happen to know|(?:do )?(?:you|u) know (?:if|whether|what|when|where|how|which)|"
    r"is it possible|would it be possible|is there any way|"
    r"(?:est-ce que )?(?:c'est|ce serait|ca serait|serait-il|est-il) possible|"
    r"(?:vous )?(?:savez|sais)(?:-vous|-tu)? (?:si|quand|combien|comment|ou|quel\w*))\b"
    r"(?!.*\b(?:you|u) (?:could|can|would|will)\b)")
# An interrogative said inside the sentence, as spoken French puts it ("le mug existe en
# quelles couleurs", « ça coûte combien », « vous fermez à quelle heure »; « quand même » is
# "all the same", no question), and the English
# measures asked in place ("and the kit weighs how much").
_WH_INSIDE = re.compile(
    r"(?<!importe )\b(?:combien|quel|quelle|quels|quelles|quand(?! m[eê]me\b)|comment|pourquoi|"
    r"c'est quoi|"
    r"quoi comme|"
    # « où » said in place, accents folded: « c'est où ma commande », « elle en est où »
    # (never « ou » as "or": « c'est ou pas », « le bleu ou le blanc »)
    r"(?:c'est|c est|est|sont|trouve|trouvent|va|vont|arrive|arrivent|rendue?s?|passee?s?)"
    r" ou(?! (?:pas|non|bien|alors|plutot|le|la|les|un|une|des)\b)|"
    r"how (?:much|many|long|big|heavy|soon|often|wide|tall)|"
    r"what (?:time|colou?rs?|sizes?|kinds?|flavou?rs?))\b")


# Words that open a turn of speech and say nothing of its act ("ok so what do I owe?", "hmm
# and is it in stock", « bon alors, c'est combien », 「じゃあ、在庫はありますか」): the shape
# of what follows is the message's shape. ("ok" alone, or before a request, is read by the
# assent stage before this.)
_DISCOURSE = re.compile(
    r"^(?:(?:ok(?:ay)?|k|so|and|but|then|well|alright|all right|right|hmm+|h?mm+|um+|uh+|"
    r"oh|ah|hey|hi|hello|yeah|yes|yep|yup|sure|cool|great|nice|perfect|fine|good|awesome|"
    r"got it|i see|thanks|thank you|cheers|sorry|also|btw|by the way|quick question|"
    r"one more thing|bon|alors|et|mais|euh|ben|bah|donc|du coup|d'accord|parfait|merci|"
    r"oui|sinon|au fait|dites|dis|salut|bonjour|bonsoir|coucou|allo|rebonjour)(?:[\s,!:.-]+|$))+")
# An interrogative closing a sentence said in statement order ("the shincha ships when",
# "and the kit costs how much", "delivery takes how long"): wh-words anywhere ask.
_WH_LAST = re.compile(r"\b(?:when|where|how much|how many|how long|how big|how heavy|"
                      r"what time|which one|who|why|or what)\s*[?!.]*\s*$")


def without_discourse(text: str) -> str:
    """The message without the discourse words opening it ("ok so", « bon alors »), as long
    as something is left; anything else unchanged."""
    folded = fold(text)
    found = _DISCOURSE.match(folded)
    if found is None or found.end() >= len(folded.rstrip()):
        return text
    return text[found.end():] if len(folded) == len(text) else folded[found.end():]


# A question said after its topic, pointing back at it ("cancelling - how does that work",
# "pausing my plan, is that a thing", « l'annulation, ça marche comment »).
_ASKED_BACK = re.compile(
    r"^(?:how (?:does|do|would|will|can|could) (?:that|it|this)|(?:is|would|will|can|could) "
    r"(?:that|it|this) (?:be )?(?:even )?(?:a thing|possible|work|allowed|free|an option|ok|"
    r"okay|doable)|(?:can|could|may) (?:i|we|you) (?:even )?do (?:that|it|this)|"
    r"comment (?:ca|cela|ce) (?:marche|fonctionne|se passe)|(?:ca|cela) (?:marche|fonctionne|"
    r"se passe) comment|c'est (?:possible|faisable|gratuit))\b")
_TOPIC_CUT = re.compile(r"\s*(?:[,;:]|\s[-–—]+)\s*")
# A topic said as an order ("cancel my order, can you do that?"): a request, asked politely.
_BARE_VERB = re.compile(r"^(?:please |pls )?(?:cancel|return|send|pause|resume|stop|end|quit|"
                        r"terminate|drop|skip|halt|add|remove|order|buy|book|subscribe|"
                        r"unsubscribe|unsub|opt|sign|put|take|give|get|apply|use|check|place|show|tell|"
                        r"annule\w*|retourne\w*|ajoute\w*|mets|mettez|commande\w*|suspend\w*|"
                        r"arrete\w*|resilie\w*|montre\w*)\b")


def opens_with_a_verb(folded: str) -> bool:
    """Whether a (folded) message opens with a verb that asks something done ("stop folio
    please", "cancel it pls", « arrête l'abonnement »), not with the thing it names."""
    return _BARE_VERB.search(folded) is not None


# The topic such a question points back at is an act ("cancelling", "pausing my plan", « l'
# annulation »), never a thing asked for ("a margherita at 7, is that ok?" orders it).
_AN_ACT = re.compile(r"^(?:(?:the|my|a|an|l'|le|la|les|un|une)\s*)?(?:[a-z]+ing|cancell?ations?|"
                     r"returns?|refunds?|exchanges?|pauses?|annulations?|retours?|"
                     r"remboursements?|resiliations?|echanges?)\b")


def _asked_after_its_topic(folded: str) -> bool:
    pieces = [piece for piece in _TOPIC_CUT.split(folded) if piece.strip()]
    return len(pieces) > 1 and any(_ASKED_BACK.search(piece) for piece in pieces[1:]) and \
        _AN_ACT.search(pieces[0]) is not None and not _asks_to_do(pieces[0]) and \
        not _BARE_VERB.search(pieces[0])


def _question(raw: str, folded: str) -> bool:
    if _INDIRECT.search(folded) or _tagged(folded) or _asked_after_its_topic(folded):
        return True
    if in_japanese_script(raw):
        return bool(re.search(r"(?:か|かな|の)[?？]?\s*$|[?？]\s*$", raw)) and not \
            _JA_REQUEST.search(raw)
    folded = fold(without_discourse(folded)).strip()
    if _WAY_ASKED.search(folded):
        return True  # "can I get it gluten free?": whether it comes so, never an order
    if _DECLARED_ASKING.search(folded):
        return True  # "you guys still have the espresso cups": asked, not told
    if _POLITE_REQUEST.search(folded):
        return False
    return folded.rstrip().endswith("?") or _QUESTION_OPENING.search(folded) is not None or \
        _HEDGED_OPENING.search(folded) is not None or _WH_INSIDE.search(folded) is not None \
        or _WH_LAST.search(folded) is not None


# A condition heading a sentence ("if …,", "what if …", "si …", "au cas où …"), or ending it
# ("when would it ship if I ordered today?"); in Japanese a verb in たら/れば/なら.
_IF_HEAD = re.compile(r"^(?:(?:and|so|but|et|mais|alors) )?(?:what|et) ?(?:if|si)\b|"
                      r"^(?:(?:and|so|but|et|mais|alors) )?(?:if|suppose|supposing|assuming|"
                      r"in case|si|s'|au cas ou|imaginons que|supposons que)\b")
_IF_TAIL = re.compile(r"\s(?:if|in case|si|au cas ou)\s")
# "if" after knowing or asking is "whether": "do you know if it's in stock?" asks, supposes
# nothing.
_WHETHER = re.compile(r"\b(?:know|knows|wonder\w*|ask\w*|tell me|let me know|check|see|sure|"
                      r"idea|savoir|sais|savez|demande\w*|dire|dites-moi|verifie\w*)\s+(?:if|si)\s")
_JA_IF = re.compile(r"(?:たら|ったら|れば|なら|場合(?:は|に)?)[、,]?")


# A verb of getting anywhere in a clause ("is one in blue add it", "…I'll take two").
_DOING = re.compile(r"\b(?:add|put|take|grab|order|buy|book|get me|i'?ll (?:take|have|get)|"
                    r"ajoute\w*|mets|mettez|prends|prenez|commande[rz]?|achete[rz]?)\b")
# Where the question starts after a condition said without a comma ("if I add another plate
# is shipping still 8.50"): an inverted verb or an interrogative after the condition's own
# subject and verb.
_ASKED_AFTER = re.compile(r"(?<=\w)\s+(?=(?:is|are|does|do|will|would|can|could|how|what|when|"
                          r"which|est-ce|combien|quel\w*|ca fait|c'est)\b)")


def conditional(text: str) -> tuple[str, str] | None:
    """(condition, what is asked) of a conditional sentence, else None. With no main clause
    ("what if I want to return it?") what is asked is the bare interrogative."""
    if in_japanese_script(text):
        found = _JA_IF.search(text)
        return (text[:found.start()], text[found.end():]) if found else None
    folded = fold(text).strip()
    if _WHETHER.search(folded):
        return None
    head = _IF_HEAD.search(folded)
    if head:
        opener = folded[:head.start()] + folded[head.start():head.end()]
        rest = folded[head.end():]
        cut = re.search(r",|\bthen\b|\balors\b", rest) or _ASKED_AFTER.search(rest)
        if cut is None:  # "what if I cancel?": the question is the condition itself
            return rest.strip(" ?"), opener.split()[0] if opener.startswith(("what", "et")) \
                else ""
        return rest[:cut.start()].strip(), rest[cut.end():].strip()
    tail = _IF_TAIL.search(folded)
    if tail:
        return folded[tail.end():].strip(" ?"), folded[:tail.start()].strip() + "?"
    return None


# Words that drop what was just said ("never mind", "forget it", « finalement », 「やっぱり」),
# after an optional interjection.
_INTERJECTION = (r"(?:oh|eh|ah|um|hmm|hm|ok|okay|well|bon|ben|euh|bah|and|et|so|no|non|ugh|"
                 r"meh|argh|urgh|pff+|bof|sigh|geez|jeez|nah|ach|puis|"
                 r"あー+|ああ|あぁ|うーん|えー+|んー)")
_DROPPING = re.compile(
    rf"^(?:{_INTERJECTION}[\s,、]*(?<=[\s,、ー]))*"
    r"(?:(?:never ?mind|nvm|forget (?:it|that|about it)|scrap that|skip that|whatever|"
    r"doesn'?t matter|no matter|on second thoughts?|actually|wait|hold on|screw it|"
    r"finalement|tant pis|laisse[zr]? tomber|peu importe|en fait|oubliez?|zut|"
    r"やっぱり(?:いいです|いい)?|やっぱ|いや|まあいい(?:や|です)?|もういい(?:や|です)?|"
    r"ちょっと待って)"
    r"(?:[\s,、。!！]+|$))+")  # "actually never mind, just add it": cues said together
# A clause whose verb asks to put something in the cart or to get it.
_ADDING = re.compile(
    r"^(?:(?:please|just|then|and|also|so|ok|okay|bon|alors|et|yeah|right)[\s,]+)*"
    r"(?:add|put|pop|stick|chuck|throw|toss|grab|include|get me|take|i'?ll (?:just )?(?:take|"
    r"have|get)|ajoute[zr]?|mets|mettez|prends|prenez)\b")
_JA_ASKING_TO_DO = re.compile(r"(?:ください|下さい|して|お願い|おねがい|たい|ほしい|欲しい|"
                              r"します|入れて|頼む)[。!！\s]*$")
# Ordering said without naming anything: the whole purchase of what the other clauses name.
_ORDERING = re.compile(
    r"\b(?:check ?out|checkout|pay(?: for (?:it|them|that|everything|it all))?|"
    r"(?:order|buy) (?:it|them|that|those|these|both|everything|it all)(?: now)?|"
    r"(?:go ahead and |just )?(?:order|place) (?:it|them|the order|my order|the lot)|"
    r"complete (?:the|my) (?:order|purchase)|"
    r"valide[rz]?|on valide|passe[rz]? (?:la )?commande|commande[rz]? (?:tout|le tout))\b|"
    r"(?:注文|購入|会計)(?:します|して|する|を?お願い|したい)")
# A thing named by a count or an indefinite article: what an order said beside it is for.
_COUNTED = re.compile(
    r"^(?:(?:and|et|also|plus)\s+)?(?:a|an|one|two|three|four|five|six|\d{1,2}|un|une|deux|"
    r"trois|quatre|cinq)\s+[a-z]|[をが]?\s*[\d０-９一二三四五六七八九十]+\s*[つ個本枚冊杯袋箱点]")
# A verbless request: a thing and "please" (or a day and an hour, for a booking).
_PLEASE = re.compile(r"\b(?:please|pls|plz|cheers|thanks)\s*[.!]*$|"
                     r"(?:s'il (?:vous|te) plait|svp|stp)\s*[.!]*$")
# A day named (a date, a weekday, "tomorrow"), for a request naming a thing, a day and an hour.
_A_DAY = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th|er)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
    r"nov|dec|janv|fevr|mars|avr|mai|juin|juil|aout|sept)\w*|(?:jan|feb|mar|apr|may|jun|jul|"
    r"aug|sep|oct|nov|dec)\w*\s+\d{1,2}(?:st|nd|rd|th)?|(?:mon|tues|wednes|thurs|fri|satur|"
    r"sun)day|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|tomorrow|today|tonight|"
    r"demain|aujourd'hui)\b|\d{1,2}月\d{1,2}日|[月火水木金土日]曜")
_AN_HOUR = re.compile(r"\b\d{1,2}(?:[:.h]\d{2})?\s*(?:am|pm)\b|\b\d{1,2}h\d{0,2}\b|"
                      r"\b(?:at|a) \d{1,2}(?::\d{2})\b")

_DAY_OF_MONTH = re.compile(r"\b(?:the|le) \d{1,2}(?:st|nd|rd|th|er)?\b(?! (?:one|of us)\b)")


def _names_an_hour(text: str, folded: str) -> bool:
    """Whether `text` names a time of day: a clock's ("7pm", "14h") or one said in words that
    the date reader reads ("half six", "630pm", "quarter past one"); not a part of the day."""
    if _AN_HOUR.search(folded):
        return True
    when = read_message(text).when
    return when is not None and when.has_time and not when.part_of_day and when.bound == "at"


# What a verbless "…please" may name that is no product.
_ABOUT_ORDERS = re.compile(r"\b(?:order|orders|booking|status|refund|cart|basket|delivery|"
                           r"receipt|invoice|tracking|commande|panier|livraison)\b")
# "a blue one please": one of the things shown, for the choice stage to pick (no new thing).
_A_CHOICE = re.compile(r"\bones?[\s,.!]*$")
_THING_OPENING = re.compile(r"^(?:the|a|an|one|two|some|\d{1,2}|le|la|les|l'|un|une|des)\b")
# A question's thing: from its first article to its next verb or question word.
_ASKED_THING = re.compile(
    r"\b((?:the|le|la|les|l'|ce|cette|ces|your|vos|votre)\s*[\w' -]+?)"
    r"(?=\s+(?:any|is|are|have|has|made|come|comes|contain|contains|include|includes|hold|"
    r"holds|weigh|weighs|last|lasts|fit|fits|take|takes|work|works|in it|est|fait|a-t-il)\b|"
    r"\s*[?？]|\s*$)")


def _sentences(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"(?<=[?？!！。])\s*|(?<=[a-z)])\.\s+", text)
            if part and part.strip()]


def _asks_to_do(clause: str) -> bool:
    """Whether a clause asks for something to be done (an imperative, a request frame)."""
    folded = fold(clause).strip()
    if in_japanese_script(clause):
        return _JA_ASKING_TO_DO.search(clause) is not None or bool(requests.asked(folded))
    return bool(requests.asked(folded) or _ADDING.search(folded) or _ORDERING.search(folded)
                or _POLITE_REQUEST.search(folded))


def _thing_asked_about(question: str) -> str:
    """The thing a question names ("how big is the dinner plate?" → "the dinner plate",
    「玄米茶は何グラム…」 → 玄米茶), so a request that drops the question keeps it."""
    if in_japanese_script(question):
        return re.split(r"[はってのをがも]", question, maxsplit=1)[0]
    found = _ASKED_THING.search(fold(question))
    return found.group(1).strip() if found else ""


# Words that wave away what came before, as opposed to those that correct it ("actually").
_DISMISSAL = re.compile(r"never ?mind|nvm|forget|scrap|skip|whatever|matter|screw|zut|"
                        r"tant pis|tomber|peu importe|oublie|もういい|まあいい|やっぱ")


def dismissed(text: str) -> str | None:
    """What follows a dismissal opening the message ("ugh never mind clear the whole cart",
    « oh et puis zut vide le panier », 「もういいや カートを空にして」), else None: the
    dismissal itself cancels nothing, the intent stage reads what follows."""
    rest = _dropped(text)
    if not rest:
        return None
    opening = fold(text)[:len(fold(text)) - len(fold(rest))]
    return rest if _DISMISSAL.search(opening) else None


def tagged(text: str) -> bool:
    """Whether a statement is made a question by its tail ("…, right?", « …ou quoi »)."""
    return _tagged(fold(text).strip())


def _dropped(sentence: str) -> str | None:
    """What is left of a sentence that opens by dropping what came before, else None."""
    found = _DROPPING.match(fold(sentence)) if not in_japanese_script(sentence) else \
        _DROPPING.match(sentence)
    if found is None:
        return None
    # folding keeps a sentence's length, so the cut is the same in its own characters
    rest = sentence[found.end():] if len(fold(sentence)) == len(sentence) else \
        fold(sentence)[found.end():]
    return rest.strip(" ,、")


@lru_cache(maxsize=4096)
def settle(raw: str) -> str:
    """The message as its last act leaves it. A question dropped for an instruction ("what
    comes in the espresso set? never mind, just add it") is the instruction, about the
    thing the question named; an instruction dropped for a question ("add the planter.
    actually wait, how long is its cord?") is only the question. Anything else is as said."""
    sentences = _sentences(raw.strip())
    for position in range(len(sentences) - 1, 0, -1):
        rest = _dropped(sentences[position])
        if not rest:
            continue
        before = sentences[:position]
        after = " ".join([rest, *sentences[position + 1:]])
        asked_before = [s for s in before if _question(s, fold(s).strip())]
        if _asks_to_do(rest) and asked_before:
            thing = _thing_asked_about(asked_before[-1])
            joint = "、" if in_japanese_script(raw) else ", "
            return joint.join(part for part in (thing, after) if part)
        if _question(rest, fold(rest).strip()) and not asked_before and any(
                _asks_to_do(s) for s in before):
            things = [found.group(1) for s in before
                      if (found := re.search(r"\b((?:the|a|an)\s+[\w' -]+)$", fold(s)))]
            return ": ".join([*things[-1:], after])
    return _wish_after_question(sentences) or raw


# A wish said on its own after a question ("whats your spicy pizza? I want a 12 inch one",
# "do you have a dinner plate? need 4 of them", "any tea with toasted rice? I'd take 3"):
# getting the thing asked about. English only; fr and ja requests read as `_asks_to_do`.
_WISH = re.compile(
    r"^(?:(?:yeah|yes|yep|ok|okay|um+|hmm+|so|then|great|cool|nice|perfect)[\s,]+)*"
    r"(?:(?:i|we)(?:'d|'ll| would| will)\s+(?:like|take|have|get|grab)|(?:(?:i|we)\s+)?"
    r"(?:want|need)|gimme)\b")
# What an existence question opens with: the thing follows ("do u have a dinner plate?").
_HAVE_YOU = re.compile(
    r"^(?:(?:do|does) (?:you|u|ya|they|y'all) (?:have|hav|has|got|sell|carry|stock|make)|"
    r"(?:have|got) you got|(?:is|are) there|you got|got|any|what'?s|what is|which is)\b\s*")


def _wish_after_question(sentences: list[str]) -> str | None:
    """The message as a request about the thing its question named, when it ends on a wish
    for it that sets no condition ("…if so, add one" stays a question with a condition)."""
    if len(sentences) < 2:
        return None
    last = sentences[-1]
    folded = fold(last).strip()
    asked = [s for s in sentences[:-1] if _question(s, fold(s).strip())]
    if not asked or _question(last, folded) or re.search(r"\b(?:if|si)\b", folded) or \
            _NEGATION.search(folded) or not (
            _WISH.search(folded) or _asks_to_do(last)) or in_japanese_script(last):
        return None
    question = fold(asked[-1]).strip().rstrip("?？ ")
    thing = _thing_asked_about(asked[-1]) or _HAVE_YOU.sub("", question, count=1)
    if not thing or thing == question:
        return None
    return f"{thing}, {last}"


def _clauses_in_order(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;.!?、。！？]|\s+(?:and|et|then|puis)\s+",
                                              text) if part and part.strip()]


def _names_only(clause: str) -> bool:
    """Whether a clause only names a thing, with no verb of its own ("lasagna with the garlic
    focaccia on the side", "the espresso set"): what a request said after it is about."""
    named = _THING_OPENING.search(clause) or _COUNTED.search(clause) or len(
        words.content_words(clause)) > 1 or (in_japanese_script(clause)
                                             and words.names_a_thing(clause))
    # ("all set, check out": a filler of the checkout names nothing, whatever a store sells)
    return bool(named) and not _ABOUT_ORDERS.search(clause) and bool(
        read_checkout(clause).rest) and not _asks_to_do(clause) and not _question(
            clause, clause) and not re.search(
            r"\b(?:i|i'?ll|i'?m|we|you|it|is|are|was|have|has|do|does|did|je|j'|vous|tu|est)\b",
            clause)


def _orders(clause: str) -> bool:
    """Whether a clause says to place the order ("check out", "place the order", « on
    valide », 「注文します」)."""
    return _ORDERING.search(clause) is not None or closing(clause) == "order"


# An order said as its own clause, with what it leans on ("et on valide direct", "and then
# check out", "place the order now").
_ORDERING_CLAUSE = re.compile(
    rf"(?:^|[,;]|\s(?:and|et|then|puis|so|alors)\b)[^,;.!?]*?(?:{_ORDERING.pattern})[^,;.!?]*")
_LEANING = re.compile(r"\b(?:and|et|then|puis|so|alors|now|direct|directement|right away|"
                      r"straight away|tout de suite|please|svp)\b")


def _without_ordering(text: str) -> str:
    """The message without its clauses that only say to place the order, so that what is
    left names the things bought (Japanese keeps its own: its order verb ends the sentence)."""
    folded = fold(text)
    if len(folded) != len(text) or in_japanese_script(text):
        return text
    spans = [found.span() for found in _ORDERING_CLAUSE.finditer(folded)
             if not words.content_words(_LEANING.sub(" ", _ORDERING.sub(" ", found.group())))]
    kept, last = [], 0
    for start, end in spans:
        kept.append(text[last:start])
        last = end
    kept.append(text[last:])
    return "".join(kept).strip(" ,;") or text


def _joint_request(text: str) -> requests.Asked | None:
    """What several clauses ask together: an order said after clauses that add or name a
    counted thing ("add a lasagna and check out", "a tiramisu and 2 cannoli, pickup, place
    the order", « un tiramisu à emporter, et on valide », 「ティラミスを1つ、…注文します」) is
    one purchase, the additions first; a verbless clause naming a thing with "please" is a
    request to add it (or, with an hour, to book it)."""
    folded = fold(text).strip()
    parts = _clauses_in_order(folded)
    ordered = [index for index, part in enumerate(parts) if _orders(part)]
    if ordered and len(parts) > 1:
        named = [part for part in parts[:ordered[-1]] if not _orders(part) and (
            _ADDING.search(part) or _COUNTED.search(part) or requests.asked(part))]
        if (named or _names_only(parts[0])) and not _question(text, folded):
            return "buy"
    if len(parts) > 1 and _names_only(parts[0]) and any(
            _ADDING.search(part) for part in parts[1:]) and not _question(text, folded):
        return "add"  # "the espresso set, just add it"
    if _PLEASE.search(folded) and not _question(text, folded) and not _ABOUT_ORDERS.search(
            folded) and words.names_a_thing(folded) and not _asks_to_do(_PLEASE.sub("", folded)):
        names_a_day = _A_DAY.search(folded) or _DAY_OF_MONTH.search(folded)
        if _names_an_hour(text, folded) or (names_a_day and party_size(text)):
            # "private yoga on 14 January at 5pm please", "two seats on the 23rd please"
            return "book"
        if _THING_OPENING.search(folded) and not _A_CHOICE.search(_PLEASE.sub("", folded)):
            return "add"  # "the cork yoga mat please"
    if _A_DAY.search(folded) and _names_an_hour(text, folded) and not _question(text, folded) and \
            not _ABOUT_ORDERS.search(folded) and words.names_a_thing(folded) and \
            not _asks_to_do(folded):
        return "book"  # "the vinyasa drop-in, 13 January, 7am": a thing, a day and an hour
    return None


# Asking to be told, the thing asked a clause of its own: "remind me what I put in my
# basket", « rappelle-moi ce que j'ai mis dans le panier », 「カートに何を入れたか教えて」. The
# verb inside the clause ("put in my basket") was done before; it is not asked for now.
_TOLD = re.compile(
    r"^(?:\W*\w+\W+){0,3}?(?:(?:can|could|would|will) (?:you|u) |please |pls )?"
    r"(?:tell|remind) me (?:again )?(?:of |about )?(?:what|which|how|when|where|whether|if)\b|"
    r"\b(?:rappelle|rappelez|dis|dites)-moi (?:ce qu|si|quand|combien|comment|ou|quel)|"
    r"(?:何|いくら|どれ|いつ|どこ)[^。！？]*か(?:を)?(?:教えて|知りたい)|"
    # a past act asked about: "what did I add to my cart?", "did I put the mug in?",
    # « qu'est-ce que j'ai mis dans mon panier ? », 「カートに入れたのは何？」
    r"^(?:\W*\w+\W+){0,2}?(?:(?:what|which|how many|how much) )?(?:did|have|had) (?:i|we)\b|"
    r"\b(?:qu'est-ce que|est-ce que|ce que|qu'est ce que) (?:j'ai|nous avons|on a)\b|"
    r"(?:入れた|追加した|頼んだ|注文した)(?:もの|の)(?:は|って)")


@lru_cache(maxsize=4096)
def read_act(raw: str) -> Act:
    raw = settle(raw)
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
    joint = _joint_request(kept)
    if joint == "buy":
        kept = _without_ordering(kept)  # the things are searched, never "on valide direct"
    told = _TOLD.search(fold(kept).strip()) is not None
    split = conditional(kept)
    if split is not None and split[1] and _IF_HEAD.search(fold(kept).strip()) and _question(
            split[1], fold(split[1])) and not _asks_to_do(split[1]) and not _DOING.search(
            fold(split[1])):
        # "if I add another plate is shipping still 8.50": what is asked under a condition
        # heading the sentence is a question whatever the condition names ("I'd be grateful
        # if you could…" asks for a thing: its tail condition is no question)
        return Act("question", kept, negated, condition=split[0], main=split[1])
    request = joint or ("" if told else requests.asked(fold(kept).strip())) or ""
    if not request and (told or _question(kept, fold(kept).strip())):
        split = conditional(kept)
        if split is not None:
            return Act("question", kept, negated, condition=split[0], main=split[1])
        return Act("question", kept, negated)
    if not negated and _NEGATION.search(folded):
        return Act("statement", kept, wholly_negated=True)
    return Act("instruction", kept, negated, request=request)

