"""Casual Japanese said in the plain forms the stages read: 「入れといて」 is 「入れてください」,
「急須って ある？」 is 「急須は ある？」, 「ノート1冊注文で」 is 「ノート1冊注文してください」.

Three classes, each by its grammar, never by a phrasing:

- a request's casual endings after the て-form: the contracted 〜ておく (〜といて, 〜どいて,
  〜ておいて) and the casual favour (〜てちょうだい, 〜てくれ, 〜てくれる？, 〜てね, 〜てよ,
  〜てくんない？), said last, are 〜てください;
- the topic marker って after a noun (玉露って どんなお茶？, 急須って ありますか) is は: the
  noun stays whole instead of carrying って into a search. Not after the kanji of a verb
  whose て-form is 〜って (買って, 送って, 取って…);
- a verbal noun ended by で (注文で, 購入で, 追加で, 予約で, キャンセルで), said last, is the
  request 〜してください, as 「会計で」 already asks for the checkout.

Only endings change: what is asked for and the thing asked about are the shopper's own, and a
message in no Japanese script is returned as typed (the check is the only work done).
"""

from __future__ import annotations

import re

_KANA = re.compile(r"[\u3041-\u3096]")
# Where a request's ending stops: the message's end or a clause's mark.
_END = r"(?=\s*(?:[。．.?？!！、,…]|$))"
# The て-form's own kana: て after a verb (入れて, 送って), で after a voiced one (頼んで,
# never the particle で of 「製菓用でね」).
_TE = r"(?:(?<=[\u3041-\u3096\u4e00-\u9fff])(て)|(?<=ん)(で))"
_CASUAL_REQUEST = re.compile(
    _TE + r"(?:おいて|おいてね|おいてよ|おいてくれ(?:る|ない)?か?|"
          r"ちょうだい|頂戴|くれ(?:る|ない)?か?|くれよ|くんない|ね|よ|ほしいな)[?？]?" + _END)
# 〜といて / 〜どいて: ておいて / でおいて contracted (入れといて, 頼んどいて, 取っといて).
_CONTRACTED = re.compile(r"(?<=[\u3041-\u3096\u4e00-\u9fff])([とど])い(?:て|てね|てよ|"
                         r"てくれ(?:る|ない)?か?|てください|て下さい)[?？]?" + _END)
# Kanji whose verb makes its て-form with って: 買って is "buy", not 買 + topic.
_TTE_VERBS = "買送取払使持待言知思作帰切入貼張洗撮乗走登守行立打違願歌拾習祝迷誘貰笑扱伺吸酔勝経"
_TOPIC = re.compile(rf"(?<=[\u30a1-\u30fc\u4e00-\u9fff\uff10-\uff19a-zA-Z0-9])(?<![{_TTE_VERBS}])"
                    r"って(?=\s*[^\s。．.?？!！、,…])")
_VERBAL_NOUN_DE = re.compile(r"(注文|購入|追加|予約|キャンセル|取り消し)で" + _END)


def plain(text: str) -> str:
    """`text` with its casual Japanese request endings, topic って and verbal noun で in the
    plain forms; as typed when it holds no kana."""
    if _KANA.search(text) is None:
        return text
    text = _CONTRACTED.sub(lambda found: ("て" if found.group(1) == "と" else "で") + "ください",
                           text)
    text = _CASUAL_REQUEST.sub(lambda found: (found.group(1) or found.group(2)) + "ください",
                               text)
    text = _VERBAL_NOUN_DE.sub(r"\1してください", text)
    return _TOPIC.sub("は", text)
