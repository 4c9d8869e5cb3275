"""Japanese typed in Latin letters (romaji): "houjicha wo futatsu kudasai", "okaikei
onegaishimasu", "matcha no otemae-you 30g wo mittsu".

A shopper without a Japanese keyboard writes Japanese in romaji; read as it is, it is taken for
English or French and its words name nothing. A message is romaji when every word of letters in
it spells whole syllables of Hepburn (or Kunrei) romanization and one of them is a word only
Japanese grammar has (a particle such as "wo", a polite ending such as "-masu", "kudasai").
Such a message is written in hiragana, syllable by syllable (a doubled consonant is っ, an "n"
before a consonant or at the end ん, a macron a long vowel), and every stage then reads it as
Japanese typed in kana (`readings` finds a catalog's names by their sound, `tidy` writes the
words of intent in kanji). Words with digits ("30g", codes such as "OCHA10") are kept as they
are. English, French and product names alone never convert: they lack the grammar words.
"""

from __future__ import annotations

import re
from functools import lru_cache

_VOWELS = {"a": "あ", "i": "い", "u": "う", "e": "え", "o": "お"}
# Consonant rows: the kana of each vowel after the consonant ("" where the row has none).
_ROWS = {
    "k": "かきくけこ", "s": "さしすせそ", "t": "たちつてと", "n": "なにぬねの",
    "h": "はひふへほ", "m": "まみむめも", "y": "や\0ゆ\0よ", "r": "らりるれろ",
    "w": "わ\0\0\0を", "g": "がぎぐげご", "z": "ざじずぜぞ", "d": "だぢづでど",
    "b": "ばびぶべぼ", "p": "ぱぴぷぺぽ", "f": "\0\0ふ\0\0", "j": "\0じ\0\0\0",
}
# Syllables with a small ゃ, ゅ, ょ: their first kana (the i-column of the row).
_YOON = {"ky": "き", "sh": "し", "ch": "ち", "ny": "に", "hy": "ひ", "my": "み", "ry": "り",
         "gy": "ぎ", "j": "じ", "by": "び", "py": "ぴ", "dy": "ぢ", "zy": "じ", "ty": "ち",
         "sy": "し", "jy": "じ"}
_SMALL_Y = {"a": "ゃ", "u": "ゅ", "o": "ょ"}
_HEPBURN = {"shi": "し", "chi": "ち", "tsu": "つ", "fu": "ふ", "ji": "じ"}
_MACRONS = str.maketrans({"ā": "aa", "ī": "ii", "ū": "uu", "ē": "ei", "ō": "ou", "â": "aa",
                          "î": "ii", "û": "uu", "ê": "ei", "ô": "ou"})


@lru_cache(maxsize=1)
def _syllables() -> dict[str, str]:
    """Every romanized syllable and its kana, longest spellings included."""
    table: dict[str, str] = dict(_VOWELS)
    for consonant, kana in _ROWS.items():
        for vowel, written in zip("aiueo", kana, strict=True):
            if written != "\0":
                table[consonant + vowel] = written
    for start, kana in _YOON.items():
        for vowel, small in _SMALL_Y.items():
            table[start + vowel] = kana + small
    table.update(_HEPBURN)
    table["chi"], table["che"] = "ち", "ちぇ"
    table["she"], table["je"] = "しぇ", "じぇ"
    table["fa"], table["fi"], table["fe"], table["fo"] = "ふぁ", "ふぃ", "ふぇ", "ふぉ"
    table["ti"], table["di"], table["tu"], table["du"] = "てぃ", "でぃ", "とぅ", "どぅ"
    return table


_WORD = re.compile(r"[A-Za-zāīūēōâîûêô][A-Za-zāīūēōâîûêô'-]*")
_HAS_DIGIT = re.compile(r"\d")
# Words only Japanese grammar has: the object particle, polite endings and requests. Endings
# that English or French words also have ("-tte" of « assiette », "-tai") are no evidence.
_GRAMMAR = re.compile(
    r"^(?:wo|kudasai|onegai\w*|desu\w*|deshou|deshita|\w+masu|\w+masen|\w+mashita|"
    r"\w+mashou|\w*shite|\w*shitai|hoshii|kaikei|okaikei|chuumon|ikura|ikutsu)$")
# English and French words that also spell romaji syllables ("une", "ajoute", "make"):
# a message with one is not Japanese.
_NOT_JAPANESE = frozenset("""
une un le la les des et est je tu il elle ajoute mets pour avec sans aussi the and you
are is it me my your please take make name
""".split())


# Answers said alone that only Japanese has ("hai", "iie"): one word is enough.
_ALONE = {"hai": "はい", "iie": "いいえ", "onegaishimasu": "お願いします", "kudasai": "ください",
          "daijoubu": "大丈夫"}


def _kana(word: str) -> str | None:
    """One word in hiragana, or None when it does not spell whole syllables."""
    table, found, at = _syllables(), [], 0
    word = word.translate(_MACRONS).lower().replace("-", "")
    while at < len(word):
        char = word[at]
        if char == "'":  # "shin'ya": the n before it is ん
            at += 1
            continue
        following = word[at + 1] if at + 1 < len(word) else ""
        if char == "n" and (not following or following == "'" or
                            (following not in "aiueoy")):
            found.append("ん")
            at += 1
            continue
        if char == following and char not in "aiueon":  # a doubled consonant: っ
            found.append("っ")
            at += 1
            continue
        if word.startswith("tch", at):  # "matcha"
            found.append("っ")
            at += 1
            continue
        for size in (3, 2, 1):
            piece = word[at:at + size]
            if piece in table:
                found.append(table[piece])
                at += size
                break
        else:
            return None
    return "".join(found)


@lru_cache(maxsize=4096)
def in_kana(text: str) -> str:
    """`text` in hiragana when it is Japanese typed in romaji, else `text` unchanged."""
    tokens = [token.strip(".,!?;:()\"") for token in text.split()]
    words = [token for token in tokens if token and not _HAS_DIGIT.search(token)]
    if len(words) == 1 and words[0].lower() in _ALONE:
        return _ALONE[words[0].lower()] + text[len(text.rstrip(".!?")):]
    if len(words) < 2 or not any(_GRAMMAR.match(word.lower()) for word in words) or \
            any(word.lower() in _NOT_JAPANESE for word in words):
        return text
    if any(_kana(word) is None for word in words):
        return text
    pieces = []
    for token in re.split(r"(\s+)", text):
        if token.isspace() or not token or _HAS_DIGIT.search(token):
            pieces.append(token)
            continue
        pieces.append(_WORD.sub(lambda found: _particle(found.group()), token))
    return "".join(pieces)


def _particle(word: str) -> str:
    """A word in kana: the particle "wo" (or a lone "o") as を, "wa" alone as は."""
    lowered = word.lower()
    if lowered in ("wo", "o"):
        return "を"
    if lowered == "wa":
        return "は"
    return _kana(word) or word
