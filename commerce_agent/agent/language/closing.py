"""Whether a message ends the shopping ("that's everything", "ring it up", « ce sera tout »,
「以上です」) or puts the checkout off ("not yet", "I'll pay later", « pas encore »,
「まだ注文しないで」), in English, French and Japanese.

Read by concept rather than by whole phrasing:

- **closure**: the shopper says they are done choosing ("I'm done", "all set", "that'll be it
  for me", "nothing else", « j'ai fini », « rien d'autre », 「これで全部です」);
- **ordering**: a verb that concludes a purchase with its object ("place/submit/confirm/
  finalize the order", "ring it up", « confirmer ma commande », 「購入手続き」);
- **deferral**: either of those, or a checkout word, with a word that puts it off ("yet",
  "later", "hold off", "wait", « pas encore », « plus tard », 「まだ」「後で」) or negates it
  ("no need to pay", « pas besoin de payer », 「注文しないで」).

A deferral wins over the rest ("not ready to place the order yet" is no checkout). A message
that only asks for a moment ("hold on", "wait a sec", « un instant », 「ちょっと待って」) is a
pause: neither yes nor no, so whatever is on the table stays there.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Literal

# "order": a verb that concludes the purchase; "done": the shopper is done choosing.
Closing = Literal["order", "done", "later"]

_CLOSURE = re.compile(
    r"\b(?:i'?m|i am|we'?re|we are)\s+(?:all\s+)?(?:done|finished|set)\b(?!\s+with\b)|"
    r"\b(?:all|pretty much)\s+(?:done|set)\b|\bdone shopping\b|\bgood to go\b|"
    r"\bthat(?:'?s| is| will be|'ll be| should be|'d be)\s+(?:all|it|everything)\b|"
    r"\b(?:this|that)\s+is\s+(?:all|everything)\b|\bnothing (?:else|more)\b|"
    r"\bthat'?s (?:all|it|everything) (?:for (?:me|now|today))\b|"
    r"\bc'est tout\b|\b(?:ce|ça|ca) sera tout\b|\bj'ai (?:fini|termine|terminé)\b|"
    r"\brien d'autre\b|\bc'est bon pour moi\b|\bc'est (?:tout )?bon\s*,?\s*merci\b|"
    r"以上(?:です|で|になります)|これで全部|それで全部|これだけで|他には(?:ありません|ない|いりません)|"
    r"(?:それ|これ)でおしまい",
    re.IGNORECASE)
_ORDERING = re.compile(
    r"\b(?:place|submit|confirm|complete|finali[sz]e|finish|process|put through|go ahead with|"
    r"proceed with|send)\b(?:\s+\w+){0,2}?\s+(?:order|purchase|checkout|cart|basket)\b|"
    r"\b(?:finali[sz]e|complete|confirm|submit|process)\s+(?:it|this|that|everything|things|"
    r"them)\b|\bring (?:it|me|this|them|that) up\b|\b(?:take|get) my (?:money|payment)\b|"
    r"\b(?:i'?m|i am) ready to (?:order|buy|pay|check ?out)\b|"
    r"\b(?:confirme[rz]?|finalise[rz]?|termine[rz]?|valide[rz]?|passe[rz]?)\s+(?:la |ma |"
    r"notre )?commande\b|\bje (?:confirme|valide|commande)\b|\bon (?:valide|commande)\b|"
    r"\b(?:regle[rz]?|r[éè]gle[rz]?|payer)\b|\b(?:je|on|nous)\s+(?:pai|pay|r[eéè]gl)(?:e|ons)\b|"
    r"^\W*(?:(?:ok|bon|alors)\W+)?(?:commande|valide|paie|paye)[rz]?\W*(?:svp|stp)?\W*$|"
    r"\bcharge (?:me|it|my card)\b|"
    r"購入手続き|注文(?:手続き|を確定|確定)|お会計|会計|精算|レジ|"
    r"^\W*(?:じゃあ|では|それでは)?\W*(?:注文|購入)(?:を)?(?:お願い(?:します)?|します|する|"
    r"して(?:ください)?|したい(?:です)?)?\W*$",
    re.IGNORECASE)
# A verb of getting whose object is only a pronoun ("buy it", "ok get it", "place it", "order
# them"): the cart's order when what was last in view is in the cart, else that thing bought.
_CONCLUDE_IT = re.compile(
    # an interjection set off by a comma may lead in ("sweet, order it"), a negation may not
    r"^\W*(?:(?!(?:no|not|don'?t|never)\b)[\w']+\s*[,!.…]+\s*)?"
    r"(?:(?:ok(?:ay)?|alright|right|fine|great|yes|yeah|so|then|now|just)\W+)*"
    r"(?:buy|get|order|place|purchase|take|pay for)\s+(?:it|them|this|that|these|those|"
    r"everything|it all|them all)(?:\s+(?:now|please|then|for me|after all|anyway|anyways))*"
    r"\W*$", re.IGNORECASE)
# The same said as the shopper's own resolve ("I'll take it", "we'll buy them", "let me get
# it"): to "Want me to add it?" it accepts the offer; once the thing is in the cart, it is the
# purchase of what is there.
_RESOLVE_IT = re.compile(
    r"^\W*(?:(?!(?:no|not|don'?t|never)\b)[\w']+\s*[,!.…]+\s*)?"
    r"(?:(?:ok(?:ay)?|alright|right|fine|great|yes|yeah|so|then|now|just)\W+)*"
    r"(?:i'?ll|i will|we'?ll|we will|i'?d like to|i want to|i wanna|let me|i'?m gonna|"
    r"i'?m going to)\s+"
    r"(?:buy|get|order|purchase|take|pay for)\s+(?:it|them|this|that|these|those|"
    r"everything|it all|them all)(?:\s+(?:now|please|then|after all|anyway|anyways))*"
    r"\W*$", re.IGNORECASE)
_CHECKOUT_WORD = re.compile(
    r"\bcheck ?out\b|\border(?:ing)?\b|\bpay(?:ing)?\b|\bbuy(?:ing)?\b|\bpurchas\w*|"
    r"\bcommand\w*|\bvalid\w*|\bpai\w*|\bpay\w*|注文|会計|購入|支払",
    re.IGNORECASE)
_DEFERRAL = re.compile(
    r"\byet\b|\blater\b|\bhold (?:off|on)\b|\bwait\b|\bnot (?:now|ready|right now)\b|"
    r"\bbefore (?:you|i)\b|\bstill (?:browsing|looking)\b|"
    r"\bpas (?:encore|tout de suite|maintenant)\b|\bplus tard\b|\battends?\b|\battendez\b|"
    r"まだ|後で|あとで|待って|ちょっと待|"
    # the checkout itself negated: "no need to pay", "don't order", « pas besoin de payer »,
    # « ne payez pas », 「注文しないで」
    r"\bno need to\b|\b(?:don'?t|do not|dont|not)\s+(?:\w+\s+)?(?:pay|order|check ?out|buy|"
    r"purchase|place)\b|\bpas (?:besoin|la peine) de\b|"
    r"\bne (?:pa[iy]\w*|command\w*|valid\w*|r[eè]gl\w*)\s+pas\b|"
    r"(?:注文|購入|会計|支払|払)(?:は|を)?(?:し|わ)?ないで",
    re.IGNORECASE)


_PAUSE = re.compile(
    r"(?:(?:oh|um+|uh+|er+|hmm+|ok(?:ay)?|euh|ah)[\s,.…]+)?"
    r"(?:(?:hold|hang) on|wait|one|just a|give me a|gimme a)(?:\s+(?:a\s+)?(?:sec(?:ond)?|"
    r"moment|minute|min|bit|tick))?|(?:un|une|juste un|juste une)\s+(?:instant|seconde|minute|"
    r"moment)|attendez|attends?|(?:ちょっと|少し|少々)?(?:待って|お待ち)(?:ください|下さい|ね)?")
_PAUSE_END = re.compile(r"[\s,.!…。！、]*(?:please|s'il (?:te|vous) pla[iî]t|svp|)[\s,.!…。！]*")


@lru_cache(maxsize=4096)
def pausing(text: str) -> bool:
    """Whether the message only asks for a moment ("hang on a sec", « attendez », 「少々お待ち
    ください」)."""
    normal = unicodedata.normalize("NFKC", text).replace("’", "'").casefold().strip()
    found = _PAUSE.match(normal)
    return found is not None and _PAUSE_END.fullmatch(normal[found.end():]) is not None


@lru_cache(maxsize=4096)
def closing(text: str) -> Closing | None:
    """"order" when the message concludes the purchase, "done" when it ends the choosing,
    "later" when it puts the checkout off, else None."""
    normal = unicodedata.normalize("NFKC", text).replace("’", "'").casefold()
    orders = bool(_ORDERING.search(normal))
    done = bool(_CLOSURE.search(normal))
    if (orders or done or _CHECKOUT_WORD.search(normal)) and _DEFERRAL.search(normal):
        return "later"
    return "order" if orders else "done" if done else None


@lru_cache(maxsize=4096)
def concludes_it(text: str) -> bool:
    """Whether the message only asks to get what is in view ("ok buy it", "order it")."""
    return _CONCLUDE_IT.search(unicodedata.normalize("NFKC", text).replace("’", "'")) is not None


@lru_cache(maxsize=4096)
def resolves_on_it(text: str) -> bool:
    """Whether the message says the shopper will get what is in view ("lovely, I'll take
    it")."""
    return _RESOLVE_IT.search(unicodedata.normalize("NFKC", text).replace("’", "'")) is not None


def without_closing(text: str) -> str:
    """`text` without its words of closing or putting off ("a tiramisu and that's all" is
    "a tiramisu and"), so what is left names what the shopper wants, if anything."""
    normal = unicodedata.normalize("NFKC", text).replace("’", "'")
    for pattern in (_CLOSURE, _ORDERING, _DEFERRAL, _CHECKOUT_WORD):
        normal = pattern.sub(" ", normal)
    return normal
