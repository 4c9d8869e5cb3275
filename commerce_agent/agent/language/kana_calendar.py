"""Days and times typed in kana, as a phone's keyboard leaves them before conversion, read in
the kanji the date reader (`dates`) knows: 「1がつ11にちの あさ7じ」 is 1月11日の朝7時,
「ごご2じはん」 午後2時半, 「3がつ4かの よる」 3月4日の夜.

A unit is read only after its number (7じ, 11にち), a day's own reading (ついたち, よっか)
only after a month, and a part of the day or a near day only as a word of its own (after the
start, a space, a number or の, before a number, a particle or a space), so no other word's
kana are touched (いちばん, によると, いつか, とうきょう).
"""

from __future__ import annotations

import re

_DAY_READINGS = {"ついたち": 1, "ふつか": 2, "みっか": 3, "よっか": 4, "いつか": 5, "むいか": 6,
                 "なのか": 7, "ようか": 8, "ここのか": 9, "とおか": 10, "はつか": 20}
_WORDS = {"ごぜん": "午前", "ごぜんちゅう": "午前中", "ごご": "午後", "あさ": "朝", "ひる": "昼",
          "ゆうがた": "夕方", "よる": "夜", "ばん": "晩", "こんや": "今夜", "こんばん": "今晩",
          "あした": "明日", "あさって": "明後日", "らいしゅう": "来週", "こんしゅう": "今週",
          "さらいしゅう": "再来週", "しゅうまつ": "週末",
          # weekdays: どようび, どよう
          **{f"{kana}よう{tail}": f"{kanji}曜{tail_kanji}"
             for kana, kanji in (("げつ", "月"), ("か", "火"), ("すい", "水"), ("もく", "木"),
                                 ("きん", "金"), ("ど", "土"), ("にち", "日"))
             for tail, tail_kanji in (("び", "日"), ("", ""))}}

_MONTH = re.compile(r"(\d{1,2})\s*がつ")
_DAY = re.compile(r"(\d{1,2})\s*にち")
# "3月4か": the day's count read with its short ending, only after a month
_SHORT_DAY = re.compile(r"(?<=月)\s*(\d{1,2})か(?=[のにでは、,\s]|$)")
_READ_DAY = re.compile(r"(?<=月)\s*(" + "|".join(_DAY_READINGS) + r")")
_HOUR = re.compile(r"(\d{1,2})\s*じ(?!かん|ゃ|ゅ|ょ)(\s*はん)?")
_MINUTE = re.compile(r"(?<=時)\s*(\d{1,2})\s*(?:ふん|ぷん)")
_WORD = re.compile(r"(?:^|(?<=[\s、,。の日\d]))(" + "|".join(
    sorted(_WORDS, key=len, reverse=True)) + r")(?=[\s、,。のにはで\d]|$)")


def in_kanji(text: str) -> str:
    """`text` with its kana days and times written in kanji."""
    if not re.search(r"[\u3041-\u3096]", text):
        return text
    text = _MONTH.sub(r"\1月", text)
    text = _DAY.sub(r"\1日", text)
    text = _SHORT_DAY.sub(r"\1日", text)
    text = _READ_DAY.sub(lambda found: f"{_DAY_READINGS[found.group(1)]}日", text)
    text = _HOUR.sub(lambda found: found.group(1) + "時" + ("半" if found.group(2) else ""), text)
    text = _MINUTE.sub(r"\1分", text)
    return _WORD.sub(lambda found: _WORDS[found.group(1)], text)
