"""Asking where an order is collected: "where do I pick it up?", "where do I go to get it?",
"which address do I collect from?", « où est-ce que je le récupère ? », « je le retire où ? »,
「どこで受け取れますか」「受け取り場所は？」.

Such a question asks for a place, never for an order to be placed or for a product: the
agent answers with the pickup address of the cart or order it is about. A question about
whether pickup is possible ("can I pick it up?") or when ("what time can I collect it?") is
another question, read elsewhere.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from commerce_agent.agent.language.folding import fold

# Getting the order in person: the verbs and the things they take.
# ("get", "grab", "fetch" only of the order itself: "where can I get a teapot?" is finding one)
_COLLECT = (r"(?:collect|pick\s+(?:\w+\s+){0,2}?up|pickup|pick-up|"
            r"(?:go|come|head|drive|walk)\s+(?:to\s+|and\s+)?(?:get|grab|fetch|collect|pick)|"
            r"(?:get|grab|fetch)\s+(?:it|them|my\s+\w+|our\s+\w+|the\s+(?:order|food)))")
_WHERE_EN = re.compile(
    r"\bwhere(?:'s|\s+is|\s+are|\s+do|\s+does|\s+should|\s+can|\s+will|\s+would|\s+to|\s+d'?you)?"
    r"\b.{0,25}?\b" + _COLLECT + r"\b|"
    r"\b(?:which|what)\s+(?:address|place|location|shop|store|branch)\b.{0,25}?\b"
    + _COLLECT + r"\b|"
    r"\b(?:pick-?\s?up|collection)\s+(?:address|place|point|location|spot)\b|"
    r"\bwhere\b.{0,20}\b(?:the\s+)?(?:pick-?\s?up|collection)\b")
_WHERE_FR = re.compile(
    r"\bou\b.{0,30}?\b(?:r[ée]cup[èeé]r\w*|retir\w*|cherch\w*|prend\w*)\b|"
    r"\b(?:r[ée]cup[èeé]r\w*|retir\w*|cherch\w*)\b.{0,20}?\bou\b\s*\??\s*$|"
    r"\b(?:lieu|adresse|point)\s+de\s+(?:retrait|r[ée]cup[ée]ration|collecte)\b")
_WHERE_JA = re.compile(r"どこ(?:で|に|へ)\s*(?:受け取|受取|引き取|取りに)|"
                       r"(?:受け取り|受取|引き取り)\s*(?:場所|先)|"
                       r"(?:受け取り|受取)\s*は\s*どこ")
# "where's my order?", "where is my parcel": where the order is on its way, not where it is had.
_STATUS = re.compile(r"\bwhere(?:'s|\s+is|\s+are)\s+(?:my|the|our)\s+(?!pick|collect)\w+\s*\??\s*$")


@lru_cache(maxsize=2048)
def asks_where_to_collect(text: str) -> bool:
    """Whether `text` asks where the order (or the thing) is collected."""
    folded = fold(unicodedata.normalize("NFKC", text))
    if _STATUS.search(folded):
        return False
    plain = folded.replace("ù", "u")
    return bool(_WHERE_EN.search(folded) or _WHERE_FR.search(plain) or _WHERE_JA.search(folded))


# Delivery itself dropped, the order kept: "scratch the delivery", "no need to ship it",
# "forget shipping", « annulez la livraison », « pas besoin de livraison », 「配送はやめて」.
_DROPS_DELIVERY = re.compile(
    r"\b(?:scratch|forget|cancel|drop|skip|ditch|remove|no)\s+(?:the\s+|about\s+(?:the\s+)?)?"
    r"(?:delivery|shipping)\b|\bno\s+need\s+to\s+(?:ship|deliver)\b|"
    r"\b(?:annule[rz]?|oublie[rz]?|supprime[rz]?|pas\s+(?:besoin\s+)?de)\s+(?:la\s+)?"
    r"livraison\b|"
    r"(?:配送|配達|発送)\s*(?:は|を)?\s*(?:やめ|キャンセル|なし|いらな|不要)")


def drops_delivery(text: str) -> bool:
    """Whether `text` drops delivery itself (to collect instead), not a line of the cart."""
    return _DROPS_DELIVERY.search(fold(unicodedata.normalize("NFKC", text))) is not None
