"""Courtesy that asks nothing of its own, read as the request it wraps.

- An apology or a cushion opening a message ("so sorry, could you cancel…", « désolé,
  pourriez-vous… », 「申し訳ございませんが、…」, 「お手数ですが、…」) is dropped: it negates
  nothing (「すみません」 ends in the ません of a negation) and names no product.
- A Japanese request in its polite question forms (〜ていただけますか, 〜てもらえませんか,
  〜ていただけないでしょうか, 〜てくださいませんか, お願いできますか) is the plain request
  (〜てください, お願いします): a request, never a question about whether it can be done,
  and none of its endings is cut at a word it holds (the だけ of いただけ is no "only").

Only the wrapping changes: the verb and what it acts on are the shopper's own, and a message
that is nothing but courtesy ("sorry?", 「すみません」) is left as typed.
"""

from __future__ import annotations

import re

_EN_SORRY = (r"(?:(?:oh|um|hi|hello|hey)[,!.\s]+)?(?:i'?m\s+|i am\s+)?"
             r"(?:(?:so|very|really|terribly|awfully)\s+)?"
             r"(?:sorry(?:\s+to\s+(?:bother|trouble)\s+you)?(?:\s+for\s+the\s+(?:trouble|hassle|"
             r"bother))?|apologies|my apologies|excuse me|pardon me)")
_FR_SORRY = (r"(?:(?:oh|bonjour|salut)[,!.\s]+)?(?:je\s+suis\s+)?(?:(?:vraiment|tres|très)\s+)?"
             r"(?:d[ée]sol[ée]e?s?|navr[ée]e?s?|excusez-moi|excuse-moi|pardon|"
             r"je\s+m'excuse)(?:\s+de\s+vous\s+d[ée]ranger)?")
# Said first, and set off by a comma, "but" or « mais », before what is asked.
_OPENING = re.compile(rf"^\s*(?:{_EN_SORRY}|{_FR_SORRY})\s*(?:,\s*(?:but|mais)?|\s+(?:but|mais)\b)"
                      r"\s*(?=\S)", re.IGNORECASE)
_JA_OPENING = re.compile(
    r"^\s*(?:(?:大変|本当に|誠に|たいへん|ほんとうに)\s*)?"
    r"(?:申し訳(?:ございません|ありません|ないのです|ないんです|ない)|すみません|すいません|"
    r"恐れ入ります|恐縮です|お手数(?:を(?:おかけ|お掛け)(?:いたします|します))?(?:です)?|"
    r"ご面倒(?:を(?:おかけ|お掛け)(?:いたします|します))?(?:です)?)"
    r"(?:が|けど|けれど(?:も)?)?[、,。\s]*(?=\S)")
# 〜て + a verb of receiving or giving, asked: 取り消していただけますか, 入れてもらえませんか,
# 追加してくださいますか, 送っていただけないでしょうか, 見せていただいてもよろしいですか.
_JA_ASKED_FAVOUR = re.compile(
    r"(?<=[てで])(?:いただけ|頂け|もらえ|貰え|くれ)(?:ます|ません|ない)(?:でしょう)?か[?？]?|"
    r"(?<=[てで])(?:くださ|下さ)(?:います|いません)か[?？]?|"
    r"(?<=[てで])(?:いただいても|もらっても)(?:いい|よい|よろしい)(?:です|でしょう)?か[?？]?")
_JA_ASKED_PLEASE = re.compile(
    r"お願い(?:でき|いたせ|出来)(?:ます|ません|ない)(?:でしょう)?か[?？]?")


def plain_request(text: str) -> str:
    """`text` without an opening apology or cushion, and with a Japanese favour asked as a
    question said as the request it is."""
    rest = _JA_OPENING.sub("", _OPENING.sub("", text, count=1), count=1)
    rest = _JA_ASKED_PLEASE.sub("お願いします", _JA_ASKED_FAVOUR.sub("ください", rest))
    return rest if rest.strip() else text
