"""Japanese verbs as shoppers inflect them: a lexicon names a verb by its stem, and the
shopper's ending is theirs (受け取ります, 受け取りたいです, 受け取って,
取りに行きます, 取りに伺いますね).

- `COLLECTING`: the shopper comes for the order themselves (受け取る, 引き取る, 取りに行く/来る/
  伺う/寄る), in any form, but not a noun about collecting (受け取り方法, 受け取り時間);
  `COLLECTING_VERB` the same verbs only where they are verbs (not 店頭受け取り).
- `TAIL`: the inflected ending after a stem, a short run of kana that ends the clause, without
  the particles that open another phrase (を, は, が, も). Kana before a kanji are the next
  word's (お会計|お願いします), never the ending. Read with a stem, the ending is part of the
  act; left behind, it would be read as a request of its own ("きます", "たいです").
"""

from __future__ import annotations

_COMING_FOR_IT = r"取りに(?:行|い|来|伺|寄)"
_TAKING = r"(?:受け|引き)取"
COLLECTING = rf"{_COMING_FOR_IT}|{_TAKING}(?:り|る|って)(?!方|時間|場所|日)"
# Only as a verb: 受け取り then ます/たい, never the noun of 「店頭受け取りできる」 (a product's
# words may say how it is had; the shopper's plan to collect is cut from a request).
COLLECTING_VERB = rf"{_COMING_FOR_IT}|{_TAKING}(?:り(?=ま|た)|る|って)"
TAIL = ("(?:[" + "".join(chr(code) for code in range(0x3041, 0x3097) if chr(code) not in "をはがも")
        + "ー]{1,8}(?![\\u3041-\\u30ff\\u3400-\\u9fff]))?")
