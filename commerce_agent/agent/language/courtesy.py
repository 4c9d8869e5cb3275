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


# The other request forms, by their grammar: leave asked for the speaker's own act
# (返品させていただきたいのですが, 予約させてください) is 〜したいです; a favour wished
# (〜ていただきたいのですが, 〜てほしいのですが, 〜てもらえる？) is 〜てください; a thing asked
# for by its count with a verb of receiving (ティラミスを3ついただけますか) is 〜ください (a
# thing alone, 「袋をいただけますか」, may ask about a service, and stays); a wish
# softened (買いたいのですが, 注文したいと思います) is 〜たいです. Asking whether a thing can be
# done (キャンセルできますか, 〜することはできますか) is none of them and stays a question.
_END = r"(?=\s*(?:[。．.?？!！、,…]|$))"
_SOFTENED = r"(?:のですが|んですが|のですけど|んですけど|です(?:が)?)?"
_JA_LEAVE = re.compile(
    rf"させて(?:いただ(?:きたい{_SOFTENED}|け(?:ます|ません)(?:でしょう)?か)|"
    rf"もら(?:いたい{_SOFTENED}|え(?:ます|ません)か)|ください|ほしい{_SOFTENED}){_END}")
_JA_WISHED_FAVOUR = re.compile(
    rf"(?<=[てで])(?:いただきたい|頂きたい|もらいたい|ほしい|欲しい){_SOFTENED}{_END}|"
    rf"(?<=[てで])(?:もらえる|くれる|くれない)か?{_END}|"
    rf"(?<=[てで])いただ(?:けると|けたら)(?:助かります|嬉しいです|うれしいです|幸いです)?{_END}|"
    rf"(?<=[てで])いただくことは(?:でき(?:ます|ません)か|可能(?:ですか|でしょうか)){_END}")
_JA_NOUN_RECEIVED = re.compile(
    rf"(?<=[\d個本枚冊杯箱点人名つ])(\s*)(?:いただけ(?:ます|ません)(?:でしょう)?か|"
    rf"いただきたい{_SOFTENED}|もらえ(?:ます|ません)(?:でしょう)?か|くださいますか){_END}")
_JA_SOFT_WISH = re.compile(rf"たい(?:のですが|んですが|のですけど|んですけど|のですけれども|"
                           rf"と思(?:います|っています|っております)|と考えています){_END}")
_JA_POLITE_PLEASE = re.compile(rf"お願い(?:いたします|致します|申し上げます|"
                               rf"したい{_SOFTENED}){_END}")


def _plain_japanese(text: str) -> str:
    """The request forms `plain_request` reads besides a favour asked as a question."""
    if not re.search(r"[\u3040-\u30ff]", text):
        return text
    text = _JA_LEAVE.sub("したいです", text)
    text = _JA_WISHED_FAVOUR.sub("ください", text)
    text = _JA_NOUN_RECEIVED.sub(r"\1ください", text)
    text = _JA_SOFT_WISH.sub("たいです", text)
    return _JA_POLITE_PLEASE.sub("お願いします", text)


def plain_request(text: str) -> str:
    """`text` without an opening apology or cushion, and with a Japanese favour asked as a
    question said as the request it is."""
    rest = _JA_OPENING.sub("", _OPENING.sub("", text, count=1), count=1)
    rest = _plain_japanese(rest)  # before the favour asked: させていただけますか is leave
    rest = _JA_ASKED_PLEASE.sub("お願いします", _JA_ASKED_FAVOUR.sub("ください", rest))
    return rest if rest.strip() else text
