"""A purchase held back while the thing goes in the cart: "don't buy the gyokuro yet, just put
it in my cart", « n'achète pas encore le gyokuro, mets-le dans mon panier », 「玉露はまだ買わ
ないで、カートに入れておいて」.

The refused clause names the thing and refuses only buying it now; the rest asks for it in the
cart. What this stage gives is the thing the refused clause names (possibly a pronoun), for
the add to find; nothing is ordered.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.folding import fold_accents

_LATER = r"(?:\s+(?:just\s+)?(?:yet|for now|right now|now|today|quite yet))?"
_ENGLISH = re.compile(
    r"^(?:(?:please|pls|but|and|ok|okay)\s+)*(?:don'?t|do not|dont|no need to|never)\s+"
    r"(?:buy|order|purchase|check\s?out|pay(?: for)?|place(?: an| the)? order(?: for)?)"
    rf"(?:\s+(?P<thing>.+?))?{_LATER}\s*[.!]*$")
_FRENCH = re.compile(
    r"^(?:(?:mais|et)\s+)?(?:ne\s+|n')?(?:l'|les\s+|le\s+)?(?:achete|commande|paye|paie|"
    r"prends)\w*\s+pas(?:\s+(?:encore|tout de suite|maintenant))?(?:\s+(?P<thing>.+?))?\s*[.!]*$")
_JAPANESE = re.compile(r"^(?P<thing>.*?)(?:は|を)?(?:まだ|今は|いまは)?(?:買わ|注文し|購入し|"
                       r"決済し|頼ま)ないで(?:ください|下さい)?[。!！\s]*$")


def refused_purchase(clause: str) -> str | None:
    """The thing a clause refuses to buy now ("" when it names none, "it"), or None when the
    clause is not such a refusal."""
    text = clause.strip()
    found = _JAPANESE.match(text)
    if found is None:
        folded = fold_accents(text.lower())
        found = _ENGLISH.match(folded) or _FRENCH.match(folded)
    if found is None:
        return None
    return (found.group("thing") or "").strip()
