"""Days and times written in kana, as a phone's keyboard leaves them before conversion
("あしたの あさ7じ", "1がつ11にち", "らいしゅうの どようび"), in the kanji the date reader
reads (明日の 朝7時, 1月11日, 来週の 土曜日), with where each character came from, so a span
found in the kanji text is a span of the text as typed.

Each kana word is taken only where it stands as a word of time: a counter (じ, ふん, はん,
がつ, にち) right after a number, a part of the day or a day word between particles, spaces,
numbers or the ends of the text, so "あさひも" (麻ひも) or "きょうと" (京都) stay as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Counters after a number: 7じ is 7時, 30ふん/30ぷん 30分, 7じはん 7時半, 1がつ 1月, 11にち
# 11日 (never じかん, hours long).
_COUNTERS = {"じ": "時", "ふん": "分", "ぷん": "分", "がつ": "月", "にち": "日"}
_COUNTER = re.compile(r"(?<=\d)(?:じ(?!かん)|ふん|ぷん|がつ|にち)|(?<=[\d時]じ)はん|(?<=時)はん")
# Words of their own: the parts of a day, days counted from today, weeks and weekdays.
_WORDS = {
    "ゆうがた": "夕方", "ごぜんちゅう": "午前中", "ごぜん": "午前", "ごご": "午後",
    "あさ": "朝", "ひる": "昼", "よる": "夜", "こんや": "今夜", "こんばん": "今晩",
    "あさって": "明後日", "あした": "明日", "あす": "明日", "きょう": "今日",
    "さらいしゅう": "再来週", "らいしゅう": "来週", "こんしゅう": "今週", "しゅうまつ": "週末",
    **{f"{kana}よう{tail}": f"{kanji}曜{tail_kanji}"
       for kana, kanji in (("げつ", "月"), ("か", "火"), ("すい", "水"), ("もく", "木"),
                           ("きん", "金"), ("ど", "土"), ("にち", "日"))
       for tail, tail_kanji in (("び", "日"), ("", ""))},
}
# What may stand around a word of time: the text's ends, spaces and marks, numbers, kanji,
# and the particles that tie it to the rest (の before it; の, に, は, で, から, まで after it).
# Never に before it: "地域による" is "depends on", no night.
_BEFORE = r"(?<![\u3041-\u3096\u30a1-\u30fa\u30fc])|(?<=[のはも])"
_AFTER = r"(?=[\s、。,.!?！？\d]|$|[のにはでか]|まで|[\u4e00-\u9fff])"
_WORD = re.compile(
    rf"(?:{_BEFORE})(?:{'|'.join(sorted(_WORDS, key=len, reverse=True))}){_AFTER}")


_HIRAGANA = re.compile(r"[\u3041-\u3096]")


@dataclass(frozen=True, slots=True)
class InKanji:
    """`text` with its kana words of time in kanji; `origin[i]` is where character i of it
    was in the text as typed (one more entry: the end)."""

    text: str
    origin: tuple[int, ...] | None  # None: nothing was read in kanji, every index stays

    def span_as_typed(self, start: int, end: int) -> tuple[int, int]:
        """The span of the typed text that characters start..end of `text` came from."""
        if self.origin is None:
            return start, end
        if end <= start:
            return self.origin[start], self.origin[start]
        last = self.origin[end - 1]
        following = self.origin[end]
        return self.origin[start], following if following > last else last + 1


def in_kanji(text: str) -> InKanji:
    """`text` with each kana word of time in kanji, and where each character came from."""
    if not _HIRAGANA.search(text):  # most messages: no kana to read
        return InKanji(text, None)
    found = sorted([(match.start(), match.end(), _COUNTERS.get(match.group(), "半"))
                    for match in _COUNTER.finditer(text)] +
                   [(match.start(), match.end(), _WORDS[match.group()])
                    for match in _WORD.finditer(text)])
    if not found:
        return InKanji(text, None)
    pieces: list[str] = []
    origin: list[int] = []
    last = 0
    for start, end, kanji in found:
        if start < last:
            continue  # overlapping readings: the first one stands
        pieces.append(text[last:start])
        origin.extend(range(last, start))
        pieces.append(kanji)
        # every kanji character stands for the whole kana word it replaced
        origin.extend([start] * len(kanji))
        last = end
    pieces.append(text[last:])
    origin.extend(range(last, len(text) + 1))
    return InKanji("".join(pieces), tuple(origin))
