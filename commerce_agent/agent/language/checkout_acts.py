"""Checkout acts: the clauses of a message that conclude the purchase, read clause by clause
from one lexicon per language (en, fr, ja).

A shopper says the checkout in a sentence of their own ("yes, make the order", "buy it.
address …", "Kindly deliver it to … I am ready to pay", « passe la commande pis livre ça au
… », 「お会計お願いします」), often beside another request ("grab me one and check out",
« ajoute un tiramisu et on passe à la caisse »). Each clause (cut at punctuation and at the
conjunctions "and", "then", « et », « puis », « pis », 「、」) is read for one act:

- **order**: a verb that concludes the purchase, with the order as its object or alone
  ("place / make / put through / send the order", "check out", "ring it up", "go ahead and
  order", « passe la commande », « on valide », « je commande », 「注文を確定」「会計して」);
- **pay**: paying now ("I'll pay now", "I'm happy to pay", "charge my card", "take my money",
  « je paie », « je règle », 「支払います」);
- **send**: where it goes, said as an act ("deliver it to …", "my address is …", « livrez
  au … », 「…に送って」); the address itself is the delivery stage's;
- **collect**: the shopper comes for it ("I'll come get it", "I'll swing by", « je viens
  les chercher », 「取りに行きます」).

What no act took (and is no filler such as "ok", « parfait », 「じゃあ」) is `rest`: another
request said in the same message ("grab me one"), or nothing. A message concludes the
purchase when one of its clauses orders or pays. A question that asks how or when to pay
("can I pay at pickup?", « je peux payer sur place ? », 「店頭で支払えますか」) is `asked`:
answered from the store's terms, never done.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from commerce_agent.agent.language import japanese_verbs
from commerce_agent.agent.language.delivery import TAKEN_AWAY
from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.language.reading import without_when

Act = Literal["order", "pay", "send", "collect"]

# The order as a noun, in the three languages.
_ORDER_NOUN = r"(?:order|purchase|checkout|commande|achat)"
_IT = r"(?:it|them|this|that|these|those|everything|it all|them all|the lot|all)"
_LEXICON: dict[str, tuple[tuple[Act, str], ...]] = {
    "en": (
        ("order", rf"\b(?:place|make|put in|put through|send|submit|confirm|complete|"
                  rf"finali[sz]e|finish|process|do|go ahead with|proceed with|push|run|"
                  rf"lodge|pass)\b(?:\s+(?:the|my|this|our|that|an?))?\s+{_ORDER_NOUN}\b"
                  r"(?:\s+(?:in|through))?"),
        ("order", r"\bcheck ?(?:me |us )?out\b|"
                  r"\bring\s+(?:it|me|them|this|that|everything|it all)\s+up\b|"
                  r"\bwrap\s+(?:it|this|things|everything)\s+up\b|"
                  r"\b(?:buy|order|purchase)\s+" + _IT + r"\b(?!\s+(?:again|once more))|"
                  r"\b(?:i'?ll|i will|let'?s|let me|i want to|i'?d like to|i wanna|i'?m ready to|"
                  r"i am ready to|ready to|happy to|go ahead and|just|now|please)\s+"
                  r"(?:order|buy|purchase)\b(?!\s+(?:a|an|one|two|three|some|the|\d)\b)|"
                  r"^\s*(?:order|buy)\s*(?:now|please)?\s*$|\b(?:order|buy) now\b|"
                  # a concluding verb said alone: "confirm", "finalize please"
                  r"^\s*(?:please\s+)?(?:confirm|finali[sz]e|submit|proceed)"
                  r"(?:\s+(?:now|please|pls))?\s*$|"
                  r"\bsend (?:it|the order) through\b|\bthat'?ll do\b|"
                  # the order as the result wanted: "let's get this ordered", "get it paid for"
                  r"\bget\s+(?:it|this|them|these|that|those|everything|it all|the order)\s+"
                  r"(?:ordered|placed|paid(?: for)?|done|sorted|through)\b|"
                  r"\b(?:finali[sz]e|complete|confirm|submit|process|place)\s+" + _IT + r"\b|"
                  r"\b(?:put|send|push|get)\s+(?:the|my|this|our)\s+order\s+(?:in|through)\b|"
                  # sending it, said at the end with no place ("yes, and ship it"): the order
                  # (a place after it, "ship it to …", is where it goes)
                  r"\b(?:ship|send|mail)\s+(?:it|them|this|that|everything|it all)"
                  r"(?:\s+(?:over|out|off|along))?(?:\s+(?:please|pls|now|then|already))*"
                  r"[\s.!]*$"),
        ("pay", r"\b(?:i'?ll|i will|i'?d like to|i want to|i wanna|let me|i can|i'?m ready to|"
                r"i am ready to|ready to|happy to|i'?m happy to|i am happy to|going to|gonna|"
                r"i'?m going to)\s+pay\b|\b(?:i'?m|i am|we'?re|we are)\s+paying\b|"
                r"\bpay\s+(?:now|up|the bill|right away|for (?:it|them|this|that|everything|"
                r"it all))\b|^\s*pay\s*(?:please)?\s*$|"
                r"\btake my (?:money|payment|card)\b|\bcharge (?:me|it|my card|the card)\b|"
                r"\bbill me\b"),
        ("send", r"\b(?:deliver|ship|send|mail|post|bring)\b(?:\s+(?:it|them|this|that|"
                 r"everything|the \w+|my order|it all))?(?:\s+(?:over|out|off))?\s+to\b|"
                 r"\b(?:my|our|the|delivery|shipping)\s+address\b|^\s*address\b"),
        ("collect", r"\b(?:i'?ll|i will|i can|i come|i'?m coming|we'?ll|let me)\s+(?:come\s+|"
                    r"swing by\s+|stop by\s+|drop by\s+|pop by\s+|pop in\s+)?(?:(?:and|to)\s+)?"
                    r"(?:pick(?:\s+(?:it|them|this|that|everything))?\s+up|collect|"
                    r"(?:get|grab|take|fetch)\s+(?:it|them|this|that|everything))\b"
                    r"|\b(?:i'?ll|i will|we'?ll)\s+(?:swing|stop|drop|pop|come)\s+(?:by|in|over)\b|"
                    r"\bpick(?:ing)?\s+(?:it|them)\s+up\b|\bpick-?up\b|\bi'?ll collect\b|"
                    # the order taken away, not brought: "to go", "takeaway", "no delivery
                    # needed, I'm nearby", "click and collect", "in person"
                    rf"\b(?:{TAKEN_AWAY})\b|\btake-?(?:away|out)\b|\bclick (?:and|&|n) collect\b"),
    ),
    "fr": (
        ("order", r"\b(?:passe[rz]?|passons|lance[rz]?|lancez|valide[rz]?|validons|"
                  r"confirme[rz]?|envoie[rz]?|envoyez|finalise[rz]?|termine[rz]?|fai[st]|"
                  r"faites|boucle[rz]?)(?:-la)?\s+(?:la\s+|ma\s+|notre\s+|cette\s+)?"
                  r"commande\b|\b(?:on|je|nous)\s+passe\w*\s+commande\b"),
        ("order", r"\b(?:pass\w*|aller|allons|va|allez)\s+(?:direct(?:ement)?\s+)?a la caisse\b|"
                  r"\b(?:je|on|nous)\s+(?:commande|valide|confirme|validons|commandons|"
                  r"finalise|finalisons|boucle)\b"
                  r"(?!\s+(?:un|une|des|deux|trois|le|la|les|du|de)\b)|"
                  r"^\s*(?:commande[rz]?|valide[rz]?)\s*(?:le tout|tout)?\s*(?:svp|stp)?\s*$|"
                  r"\bcommande[rz]?\s+(?:le tout|tout)\b|\bc'est bon pour la commande\b|"
                  # the imperative with its object or after a lead-in: « commandez-le »,
                  # « vas-y commande »
                  r"\b(?:commande[rz]?|valide[rz]?|achete[rz]?|confirme[rz]?)"
                  r"-(?:le|la|les)(?:-(?:moi|nous))?(?![\w-])|"
                  r"(?:^|\b(?:vas-y|allez-y|go|ok|alors|donc|bon|ben|bah|oui|parfait)\s+)"
                  r"(?:commande[rz]?|valide[rz]?)\b(?!\s+(?:un|une|des|deux|trois|le|la|les|du|"
                  r"de|d')\b)"),
        ("pay", r"\b(?:je|on|nous)\s+(?:vais\s+|veux\s+|voudrais\s+|peux\s+|va\s+)?"
                r"(?:paie|paye|payons|payer|regle|reglons|regler)\b|"
                r"\bpret\w*\s+a\s+(?:payer|regler|commander)\b|\bpayer\s+(?:maintenant|"
                r"tout de suite|direct)\b|\bencaisse[rz]?\b|\bdebite[rz]?\b"),
        ("send", r"\b(?:livre[rz]?|livrez|envoie[rz]?|envoyez|expedie[rz]?|poste[rz]?)"
                 r"(?:-(?:le|la|les|moi|nous))*(?:\s+(?:le|la|les|moi|ca|tout|le tout))?\s+"
                 r"(?:a|au|aux|chez)\b|\b(?:mon|notre|l')\s*adresse\b|\blivraison\s+(?:a|au)\b|"
                 r"^\s*(?:adresse|livraison)\s*$"),
        ("collect", r"\b(?:je|on|nous)\s+(?:passe\w*|vien\w*|viendr\w*|vais|va|irai|ira)\s+"
                    r"(?:venir\s+)?(?:le |la |les |l')?(?:chercher|prendre|recuperer)\b|"
                    r"\b(?:je|on)\s+(?:le|la|les)\s+(?:recupere|ramasse)\b|\ba emporter\b|"
                    r"\bsur place\b"),
    ),
    "ja": (
        # 「お支払いまで進めてください」「決済へ進んで」「注文まで進めて」: on to paying, said whole
        ("order", r"(?:お?支払い?|お?会計|決済|精算|注文|購入(?:手続き)?|レジ)(?:まで|へ|に)"
                  r"(?:進め|進ん|進み|すすめ|すすん|行って|いって|行き|いき)"
                  r"[てでまくださいす]*|"
                  r"注文(?:を)?(?:確定|お願い|します|する(?:わ|よ)?$|して|したい|で)|注文確定|"
                  r"購入(?:を)?(?:します|する$|して|したい|手続き|確定|お願い)|確定(?:して|します|で|お願い)|"
                  r"チェックアウト|レジ|お?会計|精算|決済"),
        ("pay", r"お?支払(?:い|う|います|って)|払(?:います|う|って)"),
        ("send", r"(?:に|へ)(?:送って|届けて|配送して|発送して)|"
                 r"(?:送り先|お届け先|届け先|配送先|住所)(?:は|：|:)"),
        # the verbs of collecting in any of their forms (受け取りたい, 受け取って, 取りに行く)
        ("collect", japanese_verbs.COLLECTING),
    ),
}
# Collecting and sending are read first: "I'll swing by to get it" collects, it buys nothing.
_FIRST: dict[Act, int] = {"collect": 0, "send": 1, "order": 2, "pay": 3}
_COMPILED = {lang: tuple(sorted(((act, re.compile(
    f"(?:{pattern}){japanese_verbs.TAIL}" if lang == "ja" else pattern)) for act, pattern in table),
    key=lambda entry: _FIRST[entry[0]])) for lang, table in _LEXICON.items()}
# Clause breaks: punctuation, and the conjunctions that join acts ("and", « pis »).
_BREAK = re.compile(r"[,;.!?:、。！？；：]|\s[—–-]\s|\s+(?:and|then|so|et|puis|pis|alors)\s+")
# Clauses that carry nothing of their own: assent, politeness, lead-ins.
_FILLERS = (
    "yes", "yeah", "yep", "yup", "ok", "okay", "sure", "alright", "all right", "right", "great",
    "perfect", "good", "fine", "cool", "lovely", "excellent", "please", "kindly",
    "if you please", "if you would", "thanks", "thank you", "cheers", "now", "then", "so",
    "and", "just", "also", "go ahead", "let's go", "lets go", "let's do it", "let's do this",
    "do it", "right away", "straight away", "myself", "oui", "ouais", "d'accord", "dac",
    "parfait", "super", "bon", "bien", "tres bien", "alors", "allez", "allez-y", "vas-y",
    "on y va", "c'est parti", "c'est bon", "c'est beau", "merci", "s'il vous plait",
    "s'il te plait", "svp", "stp", "nickel", "impeccable", "maintenant", "direct",
    "tout de suite", "de suite", "moi-meme", "go", "ok go", "voila", "ben", "bah", "bon ben",
    "donc", "envoye", "let's go", "after all", "anyway", "anyways", "apres tout",
    "finalement", "quand meme",
    # closings: nothing more is wanted ("that's all I need, thanks so much")
    "that's all", "thats all", "that's all i need", "thats all i need", "that's it", "thats it",
    "that's everything", "thats everything", "nothing else", "all done", "that'll be all",
    "all set", "i'm all set", "im all set",
    "much", "so much", "a lot", "a bunch", "many thanks", "can you", "could you", "would you",
    "c'est tout", "ce sera tout", "rien d'autre")
# longest first, so "right away" goes whole before "right"
_FILLER_WORDS = "|".join(re.escape(word) for word in sorted(_FILLERS, key=len, reverse=True))
_FILLER = re.compile(rf"^(?:(?:{_FILLER_WORDS})\b[\s]*)+$|"
                     r"^(?:はい|うん|じゃあ|では|それでは|それで|これで|以上で|以上です|そのまま|お願いします|"
                     r"よろしく(?:お願いします)?)+$")
_FILLER_WORD = re.compile(rf"\b(?:{_FILLER_WORDS})\b")
# A question about paying or ordering that asks how, when or where ("can I pay at pickup?",
# "do I pay now or on delivery?"): the store's terms answer it.
_ASKS_TERMS = re.compile(
    r"\bpay\w*\s+(?:at|on|upon|when|in|with|by|cash|later|after|before|online|in person|"
    r"now or)\b|\b(?:when|how|where)\b.{0,30}\bpay\w*\b|\bpay\w*\b.{0,40}\bor\b|"
    r"\bpa(?:y|i)\w*\s+(?:a|au|sur|en|lors|quand|par|avec|plus tard|a la livraison)\b|"
    r"\b(?:quand|comment|ou)\b.{0,30}\bpa(?:y|i)\w*|"
    r"(?:店頭|受け取り|受取|着払い|代引|現金|カード|後で|あとで).{0,10}(?:支払|払|会計|精算)|"
    r"(?:支払|払|会計).{0,10}(?:店頭|受け取り|現金|カード|後|どう|いつ)")
# What a Japanese clause says around its act without naming anything: lead-ins, politeness.
_JA_FILLER = re.compile(r"はい|うん|じゃあ|では|それでは|それで|これで|以上(?:です|で)?|そのまま|"
                        r"お願い(?:します|いたします)?|よろしく|ください|下さい|します|して|です|ます|"
                        r"今|すぐ")



@dataclass(frozen=True)
class Checkout:
    """The checkout acts of one message and what else it says."""

    acts: frozenset[Act]
    # The clauses no act took, in the message's words (the other request, if any).
    rest: str
    # The message without its clauses that order or pay ("add a tiramisu, I'll collect it").
    request: str
    # A question about how, when or where to pay or order: answered, never done.
    asked: bool = False

    @property
    def concludes(self) -> bool:
        """Whether the message asks to place the order now."""
        return bool(self.acts & {"order", "pay"}) and not self.asked


def _fold(text: str) -> str:
    """Lower case without Latin accents, one character for one ("règle" is "regle"), so a
    clause's span in the folded text is its span in the message."""
    normal = unicodedata.normalize("NFC", text).replace("’", "'")
    return "".join(unicodedata.normalize("NFKD", ch)[0] if ch < "\u0250" else ch
                   for ch in normal).lower()


def _spans(folded: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for cut in _BREAK.finditer(folded):
        spans.append((start, cut.start()))
        start = cut.end()
    spans.append((start, len(folded)))
    return [(a, b) for a, b in spans if folded[a:b].strip()]


def _clause_acts(clause: str) -> list[Act]:
    """Every act a clause says, collecting and sending first: "check me out for pickup" both
    orders and collects."""
    found: list[Act] = []
    for table in _tables(clause):
        for act, pattern in table:
            if act not in found and pattern.search(clause):
                found.append(act)
    return found


def _tables(clause: str) -> tuple[tuple[tuple[Act, re.Pattern[str]], ...], ...]:
    return (_COMPILED["ja"],) if in_japanese_script(clause) else (_COMPILED["en"], _COMPILED["fr"])


def _without_acts(clause: str) -> str:
    """The clause with its act's words blanked out (same length: spans still hold)."""
    for table in _tables(clause):
        for _, pattern in table:
            clause = pattern.sub(lambda found: " " * len(found.group()), clause)
    return clause


def _bare(clause: str) -> bool:
    """Whether a clause holds its act and nothing else a request could name: "please make
    the order", not "add a tiramisu and ring me up" read as one clause."""
    left = _without_acts(clause)
    if in_japanese_script(clause):
        left = _JA_FILLER.sub(" ", left)
        return re.fullmatch(r"[をにでがはもの、\s]*", left) is not None
    left = _FILLER_WORD.sub(" ", without_when(left))
    left = re.sub(r"\b(?:i|i'?m|i am|we|you|it|them|me|my|let'?s|let us|je|j'|on|nous|vous|le|"
                  r"la|les|"
                  r"myself|moi-meme|now|can|could|would|will|to|the|a|un|une|y|ca|tout|pour|"
                  r"for|up)\b", " ", left)
    return not left.strip(" ,.!'-")


@lru_cache(maxsize=4096)
def read_checkout(text: str) -> Checkout:
    """The checkout acts said in `text`, clause by clause, and the clauses left over."""
    folded = _fold(text)
    if len(folded) != len(text):
        text = folded  # a character that folds to two: read and cut the folded text
    acts: set[Act] = set()
    kept: list[str] = []  # what no act took
    unpaid: list[str] = []  # what no order or payment took
    for start, end in _spans(folded):
        clause = folded[start:end].strip()
        said = text[start:end].strip()
        said_acts = _clause_acts(clause)
        act = said_acts[0] if said_acts else None
        if _FILLER.fullmatch(clause):
            continue
        if act is None:
            kept.append(said)
            unpaid.append(said)
            continue
        bare = _bare(clause)
        if act in ("order", "pay") and not bare:
            kept.append(said)  # "I want to order a mug": a request, no checkout
            unpaid.append(said)
            continue
        acts.update(said_acts if bare else (act,))
        if act in ("send", "collect"):
            unpaid.append(said)  # the words the checkout reads where it goes from
            if not bare:  # "two arancini for pickup": collected, and still a request
                blank = _without_acts(clause)
                kept.append("".join(ch if blank[i] != " " or ch == " " else " "
                                    for i, ch in enumerate(said)).strip())
    asked = bool(_ASKS_TERMS.search(folded)) and bool(acts & {"order", "pay"} or re.search(
        r"\bpa(?:y|i)\w*|支払|払|会計", folded))
    return Checkout(frozenset(acts), _joined(text, kept), _joined(text, unpaid), asked)


def _joined(text: str, parts: list[str]) -> str:
    joint = "、" if in_japanese_script(text) else ", "
    return joint.join(part for part in (" ".join(part.split()) for part in parts) if part)


def says_nothing_else(text: str) -> bool:
    """Whether every clause of `text` is a checkout act or a filler ("address", "kindly",
    "I'll swing by"): nothing is left to ask for."""
    folded = _fold(text)
    for start, end in _spans(folded):
        clause = folded[start:end].strip()
        act = next(iter(_clause_acts(clause)), None)
        if not _FILLER.fullmatch(clause) and not (act is not None and _bare(clause)):
            return False
    return True
