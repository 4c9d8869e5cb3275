"""A whole message that refuses an act, not a thing: "no tip thanks", "I don't want to check
out yet", « je ne veux pas passer commande », 「キャンセルは結構です」「チップはなし」.

Such a message is a no: it declines what is on the table and touches nothing else (no line
is removed, no tip or cancellation is asked for). A message that refuses an act and asks
for something else ("don't cancel, just tell me when it ships") is not one: only the whole
message, with its courtesy words, is matched.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.folding import fold_accents

_TAIL = (r"(?:[\s,.!]+(?:thanks|thank you|thx|ty|please|pls|merci|yet|for now|right now|now|"
         r"just yet|today|pour l'instant|pour le moment|tout de suite|encore|pour aujourd'hui))*"
         r"[\s.!]*$")
_OPENING = r"^(?:(?:no|nope|nah|non|ok|okay|um+|hmm+|ah|oh|wait|stop|bon|euh)[\s,.!]+)*"
# "no tip", "skip the tip", "without a tip", « pas de pourboire », « sans pourboire »
_NO_TIP = re.compile(rf"{_OPENING}(?:no|skip(?: the)?|without(?: a| the)?|zero|pas de|sans|"
                     rf"aucun)\s+(?:tips?|gratuity|pourboires?){_TAIL}")
# "I don't want to check out yet", "I don't need to pay now", « je ne veux pas (encore) passer
# commande », « je veux pas payer »
_ACT_VERBS = (r"(?:check\s?out|pay|proceed|finish|complete|confirm|finali[sz]e|place (?:the |an |"
              r"my )?order|order(?: it| them| anything)?|commit|sign up|subscribe|tip)")
_NOT_TO = re.compile(
    rf"{_OPENING}(?:i|we)\s+(?:really\s+)?(?:don'?t|dont|do not|do n't|won'?t|wont|am not|"
    rf"'m not|m not|ain'?t)\s+(?:really\s+)?(?:want(?:ing)?|need(?:ing)?|going|ready|planning|"
    rf"wish(?:ing)?)\s+to\s+{_ACT_VERBS}{_TAIL}")
_NOT_TO_FR = re.compile(
    rf"{_OPENING}(?:je|on)\s+(?:ne\s+|n')?(?:veux|voudrais|souhaite|compte|vais)\s+pas\s+"
    rf"(?:encore\s+)?(?:passer (?:la |ma )?commande|commander|payer|valider|finaliser|regler|"
    rf"m'abonner|laisser (?:de |un )?pourboire){_TAIL}")
# 「キャンセルは結構です」「チップはなし」「注文はいいです」「返品は大丈夫です」
_DECLINED_JA = re.compile(
    r"^(?:いや|いえ|あ|えっと)?[、,\s]*(?:キャンセル|取り消し|注文|返品|返金|解約|一時停止|追加|"
    r"予約|チップ|心付け|購入|決済|支払い)(?:は|も)(?:もう)?(?:結構|大丈夫|いい|いらない|要らない|"
    r"不要|なし|無し|しない)(?:です|でーす)?(?:よ|ね)?(?:、?(?:ありがとう(?:ございます)?))?"
    r"[。！!\s]*$")


def refuses_an_act(text: str) -> bool:
    """Whether the whole message refuses an act (a tip, the checkout, a cancellation…)."""
    stripped = text.strip()
    folded = fold_accents(stripped.lower()).replace("’", "'")
    return bool(_NO_TIP.match(folded) or _NOT_TO.match(folded) or _NOT_TO_FR.match(folded)
                or _DECLINED_JA.match(stripped))
