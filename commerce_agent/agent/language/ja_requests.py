"""Japanese requests by their grammar: a polite or humble request form said in its plain one,
so every later stage reads one shape ("〜てください") whatever the politeness.

Japanese asks for a thing to be done with a verb's te-form and an auxiliary of receiving or
giving: 取り消していただけますか, キャンセルしてもらえますか, 追加していただけますでしょうか,
入れてくださいますか, 送ってほしいのですが, 止めていただきたいです. Each is the request
"〜てください". The speaker's own act, asked leave for (返品させていただきたいのですが,
予約させていただけますか), is "〜したいです"; a wish softened (買いたいのですが,
注文したいと思います) is "〜たいです"; a thing asked for with お願い (キャンセルをお願い
できますか, お取り消しをお願いいたします) is "〜をお願いします"; a thing asked for by its
noun (ティラミスを3ついただけますか) is "〜ください".

The words that cushion a request (すみません, 申し訳ございませんが, 恐れ入りますが, お手数
ですが) are dropped where they open a sentence: they ask nothing, and "ません" in them is no
negation.

What asks whether a thing can be done (キャンセルできますか, 返品は可能ですか,
キャンセルすることはできますか) is no request form and is left as said: a question about the
store's terms, answered, never done. Nothing here makes a request of a message that asked
none, and every act that changes an order or moves money still waits for the shopper's
approval.
"""

from __future__ import annotations

import re

# Where a request form ends: the end of a clause.
_END = r"(?=\s*(?:[。．.?？!！、,…]|$))"
# Auxiliaries after a verb's te-form that make it a request, by the verb they come from.
_RECEIVING = (r"いただ(?:け(?:ます|ません)(?:でしょう)?か|けないでしょうか|けない(?:か)?|"
              r"けますでしょう|"
              r"きたい(?:のですが|んですが|のですけど|んですけど|です(?:が)?)?|"
              r"けると(?:助かります|嬉しいです|うれしいです|幸いです|ありがたいです)|"
              r"けたら(?:と思います|嬉しいです|助かります)?|くことは(?:でき(?:ます|ません)か|"
              r"可能(?:ですか|でしょうか)))|"
              r"頂(?:け(?:ます|ません)(?:でしょう)?か|きたい(?:のですが|んですが|です)?)|"
              r"もら(?:え(?:ます|ません)(?:でしょう)?か|えない(?:でしょうか|か)?|える(?:か)?|"
              r"いたい(?:のですが|んですが|のですけど|んですけど|です(?:が)?)?|えると(?:助かります|"
              r"嬉しいです|うれしいです))")
_GIVING = (r"くださ(?:い(?:ます|ません)か|いませ|いますでしょうか)|"
           r"くれ(?:ます|ません)か|くれ(?:る|ない)(?:か)?|"
           r"ほしい(?:のですが|んですが|のですけど|んですけど|です(?:が)?)?|"
           r"欲しい(?:のですが|んですが|のですけど|んですけど|です(?:が)?)?")
# A verb's te-form then one of them: 取り消して|いただけますか.
_TE_REQUEST = re.compile(rf"(?<=[てで])(?:{_RECEIVING}|{_GIVING}){_END}")
# The speaker's own act asked leave for: 返品させていただきたいのですが, 予約させてください.
_LEAVE = re.compile(rf"させて(?:{_RECEIVING}|{_GIVING}|ください){_END}")
# A wish softened: 買いたいのですが, 注文したいと思います, 返品したいんですけど.
_SOFT_WISH = re.compile(rf"たい(?:のですが|んですが|のですけど|んですけど|のですけれども|"
                        rf"と思(?:います|っています|っております)|と考えています){_END}")
# お願い said politely: お願いできますか, お願いいたします, お願いしたいのですが.
_ASKING = re.compile(rf"お願い(?:でき(?:ます|ません)(?:でしょう)?か|できないでしょうか|"
                     rf"いたします|致します|いたしたいのですが|申し上げます|"
                     rf"したい(?:のですが|んですが|です)?|できれば(?:と思います)?){_END}")
# A thing asked for by its noun, with a verb of receiving (ティラミスを3ついただけますか):
# after a particle or a counter, never after a te-form.
_NOUN_REQUEST = re.compile(
    rf"(?<=[をもが\d個本枚冊杯袋箱点人名つ])(\s*)(?:いただけ(?:ます|ません)(?:でしょう)?か|"
    rf"いただきたい(?:のですが|んですが|です)?|もらえ(?:ます|ません)(?:でしょう)?か|"
    rf"くださいますか){_END}")
# Words that cushion a request, opening a sentence: they ask nothing.
_CUSHION = re.compile(
    r"(?:(?<=^)|(?<=[。．.?？!！]))\s*(?:(?:大変|誠に|本当に)?(?:申し訳(?:ありません|ございません|"
    r"ないのですが|ないです)|すみません|すいません|恐れ入ります|恐縮です|お手数(?:ですが|を"
    r"おかけしますが)|失礼ですが|ごめんなさい)(?:が|けど|けれど|けれども)?|お手数ですが)"
    r"(?:[、,。!！]\s*|\s+)")


def plain_request(text: str) -> str:
    """`text` with its Japanese request forms in their plain shape and the cushions opening
    its sentences dropped; `text` unchanged when it holds none (or only a cushion)."""
    if not re.search(r"[\u3040-\u30ff]", text):
        return text
    said = _CUSHION.sub("", text).strip() or text
    said = _LEAVE.sub("したいです", said)
    said = _TE_REQUEST.sub("ください", said)
    said = _NOUN_REQUEST.sub(r"\1ください", said)
    said = _SOFT_WISH.sub("たいです", said)
    return _ASKING.sub("お願いします", said)
