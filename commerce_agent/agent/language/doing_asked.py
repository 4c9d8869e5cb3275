"""A question about doing a thing of shopping, not a request to do it: "should I buy the
gyokuro?", "did you add the mug?", "why did you add the mug?", "aren't you adding it?",
« je devrais acheter le gyokuro ? », « tu as ajouté le mug ? », 「玉露を買ったほうがいいです
か？」「玉露は買わないの？」「どうして追加したの？」.

The verb of buying or adding sits after an interrogative, a modal with its subject, a past
tense or a negative: what is asked is answered (the cart, or the thing's details), nothing is
added or bought. A verb said first ("add the mug?", « ajoute le mug ? ») is a request with a
question mark, and stays one.
"""

from __future__ import annotations

import re
from typing import Literal

from commerce_agent.agent.language.folding import fold_accents

Asked = Literal["cart", "details"]

_SUBJECT = r"(?:i|you|u|we|it|they|he|she|ya)"
# What was done, asked: "did you add the mug?", "have you added it", "why did you add…",
# « tu as ajouté le mug ? », « vous avez mis le mug ? ».
_DONE_EN = re.compile(
    rf"^(?:(?:so|and|wait|hmm|um|ok|okay)[\s,]+)*(?:why\s+)?(?:did|didn'?t|have|haven'?t|has|"
    rf"hasn'?t)\s+{_SUBJECT}\s+(?:\w+\s+)?(?:add|added|put|buy|bought|order|ordered|book|booked)\b")
_DONE_FR = re.compile(
    r"^(?:(?:et|alors|mais|attends)[\s,]+)*(?:pourquoi\s+)?(?:est-ce que\s+|est ce que\s+)?"
    r"(?:tu|vous|t')\s*(?:n')?(?:as|avez)\s+(?:pas\s+|deja\s+)?(?:ajoute|mis|achete|commande|"
    r"reserve)\b")
_DONE_JA = re.compile(r"(?:(?:追加|注文|購入|予約)(?:し|され)|入れ|買っ|頼ん)(?:た|ました)"
                      r"(?:の|ん(?:です|だ))?(?:か)?[?？]?\s*$")
# Advice or a negative asked: "should I buy…", "aren't you adding…", "is it worth…", "why
# would I…", « je devrais acheter… », « faut-il acheter… », 「買ったほうがいいですか」,
# 「買わないの？」.
_WEIGHED_EN = re.compile(
    rf"^(?:(?:so|and|hmm|um|ok|okay)[\s,]+)*(?:(?:why|what|which|how)\s+(?:would|could|shall)|"
    rf"should|must|aren'?t|isn'?t|won'?t|wouldn'?t|shouldn'?t)\s+{_SUBJECT}\b"
    rf"(?!\s+(?:please|pls|kindly)\b)|"
    rf"^(?:why|is it worth|is it a good idea to|would it be (?:better|smart|wise) to)\b")
_WEIGHED_FR = re.compile(
    r"^(?:(?:et|alors|mais)[\s,]+)*(?:pourquoi\s+)?(?:est-ce que\s+|est ce que\s+)?"
    r"(?:je devrais|je dois|on devrait|faut-il|il faut|vaut-il mieux|ca vaut le coup)\b|"
    r"^pourquoi\b")
_WEIGHED_JA = re.compile(r"(?:た|だ)ほうが(?:いい|良い)|(?:べき|いいかな)|"
                         r"(?<=[\u4e00-\u9fff][わかさたまらがばえけせてめれげべ])ない(?:の|んですか|ですか|"
                         r"でしょうか)[?？]?\s*$|^(?:どうして|なんで|なぜ)")
# A request said as a question stays one: "would you add the mug?", "could you buy it?" (and
# "could I book…", "shall we order…" ask for it: a bare modal is no advice asked).
_ASKED_OF_YOU = re.compile(r"^(?:please\s+)?(?:would|could|will|can)\s+(?:you|u|ya)\b")


def doing_asked(text: str) -> Asked | None:
    """What a question about buying or adding asks for: "cart" (what was done), "details"
    (advice, a negative), or None when it is a request (or no such question)."""
    stripped = text.strip()
    folded = fold_accents(stripped.lower())
    if _ASKED_OF_YOU.search(folded):
        return None
    if _DONE_EN.search(folded) or _DONE_FR.search(folded) or _DONE_JA.search(stripped):
        return "cart"
    if _WEIGHED_EN.search(folded) or _WEIGHED_FR.search(folded) or _WEIGHED_JA.search(stripped):
        return "details"
    return None
