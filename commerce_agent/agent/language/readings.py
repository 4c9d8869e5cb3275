"""How Japanese words sound: a shopper may write a catalog's name in kana, the way it is read
(げんまいちゃ for 玄米茶, ぼうちゃ for 加賀棒茶), in the other kana (マグカップ as まぐかっぷ),
half-width (ｶｶﾞﾎﾞｳﾁｬ), with its long vowels written out (ぎふとかあど) or in romaji
(diavola for ディアボラ).

Every text is compared by its sound key: kanji read as kana (pykakasi, once per name: the
readings are cached), katakana folded into hiragana, small kana made large, ゔ read as ぶ,
and long vowels dropped (ー, and a vowel kana that only lengthens the one before), so that
カード, かーど and かあど are one key. A phrase names a name when its key is inside the name's
key. Short phrases are no evidence: a particle or a single kana is inside every reading.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

import pykakasi

# The fewest kana a phrase must have (as written, long marks aside) to name something by
# its sound: two kana (ちゃ, のと) are inside too many readings.
MIN_KANA = 3
_KANA_ONLY = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u30fc\uff66-\uff9f]+")
_HIRAGANA_ONLY = re.compile(r"[\u3041-\u3096ー]+")
_LATIN_WORD = re.compile(r"[a-z]{4,}")
# Words of a request written in kana that name no product: politeness, wanting, counts and
# their counters, pointers.
_NO_EVIDENCE = frozenset("""
ください くださいな おねがい おねがいします おねがいいたします いただけますか いただけますでしょうか
いただけますでしょう いただけません いただきたい いただけると ほしい ほしいです かいたい
かいたいです かいます かう かい ちょうだい いれて いれてください いれといて いれる ついか
これ それ あれ どれ ぜんぶ ひとつ ふたつ みっつ よっつ いつつ むっつ ななつ やっつ ここのつ
ひとり ふたり さつ まい ほん こ はい つ かーと よやく よやくで ちゅうもん
""".split())
# A particle that ends a spaced word (げんまいちゃを): the word is what comes before it.
_TRAILING_PARTICLE = re.compile(r"(?:から|まで|を|は|が|に|で|と|も|へ|や|の)$")
_SMALL = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")
_VU = (("ゔぁ", "ば"), ("ゔぃ", "び"), ("ゔぇ", "べ"), ("ゔぉ", "ぼ"), ("ゔ", "ぶ"))
_ROWS = {vowel: frozenset(row) for vowel, row in {
    "あ": "あかさたなはまやらわがざだばぱ", "い": "いきしちにひみりぎじぢびぴ",
    "う": "うくすつぬふむゆるぐずづぶぷ", "え": "えけせてねへめれげぜでべぺ",
    "お": "おこそとのほもよろをごぞどぼぽ"}.items()}
# A vowel kana after a kana of these rows only lengthens it (かあ, こう, けい, くう).
_LENGTHENS = {"あ": ("あ",), "い": ("い", "え"), "う": ("う", "お"), "え": ("え",), "お": ("お",)}


@lru_cache(maxsize=1)
def _kakasi() -> Any:
    return pykakasi.kakasi()  # type: ignore[no-untyped-call]  # loads its dictionaries once


def is_kana(text: str) -> bool:
    """Whether `text` is written in kana only (hiragana, katakana, half-width katakana)."""
    return bool(text) and _KANA_ONLY.fullmatch(text) is not None


def is_hiragana(text: str) -> bool:
    return _HIRAGANA_ONLY.fullmatch(text) is not None


def names_nothing(word: str) -> bool:
    """A kana word of a request that names no product (おねがい, ひとつ, さつ)."""
    return fold(word) in _FOLDED_NO_EVIDENCE


def spaced_kana_words(text: str, split: Callable[[str], list[str]]) -> list[str]:
    """The words of `text` a Japanese shopper spaced apart: when written in kana, a spaced
    word is one word (らざにあ, ぎふとかあど keep their に and と), less the particle that
    ends it; any other part is cut by `split` (at particles, as unspaced writing is)."""
    chunks = text.split()
    if len(chunks) < 2:
        return split(text)
    found: list[str] = []
    for chunk in chunks:
        if is_hiragana(chunk):  # katakana has no particles to keep
            word = _TRAILING_PARTICLE.sub("", chunk)
            if len(word) > 1:  # a particle or a kana left alone names nothing
                found.append(word)
        else:
            found += split(chunk)
    return found


def fold(text: str) -> str:
    """The sound key of kana `text`: hiragana, large kana, ゔ as ぶ, no long vowels."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(chr(ord(ch) - 0x60) if "\u30a1" <= ch <= "\u30f6" else ch for ch in text)
    for vu, plain in _VU:
        text = text.replace(vu, plain)
    text = text.replace("ー", "").translate(_SMALL)
    kept: list[str] = []
    for ch in text:
        before = _vowel(kept[-1]) if kept else None
        if before and ch in _LENGTHENS and before in _LENGTHENS[ch]:
            continue
        kept.append(ch)
    return "".join(kept)


def _vowel(kana: str) -> str | None:
    return next((vowel for vowel, row in _ROWS.items() if kana in row), None)


@lru_cache(maxsize=8192)
def reading(name: str) -> str:
    """The sound key of a name: its kanji read as kana, then folded. Cached by name, so a
    catalog's names are read once however many messages compare against them."""
    return fold("".join(part["hira"] for part in _kakasi().convert(name)))


@lru_cache(maxsize=8192)
def romaji(name: str) -> str:
    """The name's sound in Latin letters, folded the way katakana loses a loanword's
    spelling (v as b, l as r, no doubled letters): ディアボラ and diavola are "diabora"."""
    latin = "".join(part["hepburn"] for part in _kakasi().convert(name))
    return _sound(latin)


def _sound(latin: str) -> str:
    text = unicodedata.normalize("NFKD", latin.lower())
    text = "".join(ch for ch in text if "a" <= ch <= "z")
    text = text.replace("v", "b").replace("l", "r")
    return re.sub(r"(.)\1+", r"\1", text)


def names_by_sound(phrase: str, name: str) -> bool:
    """Whether a shopper's `phrase` names `name` by how it sounds: a kana phrase of three
    kana or more whose key is inside the name's reading, or a Latin word of four letters or
    more inside the name's romaji. Particles, counts and politeness are never evidence."""
    phrase = unicodedata.normalize("NFKC", phrase).lower().strip()
    if is_kana(phrase):
        if names_nothing(phrase) or len(phrase.replace("ー", "")) < MIN_KANA:
            return False
        key = fold(phrase)
        return len(key) >= 2 and key in reading(name)
    if _LATIN_WORD.fullmatch(phrase):
        return _sound(phrase) in romaji(name)
    return False


def names_in(items: Iterable[dict[str, Any]], phrases: Sequence[str]) -> list[dict[str, Any]]:
    """The items whose names (or variants' and options' values) the most of `phrases` name
    by sound; when no name is, those whose descriptions do (ほうじちゃ: 加賀棒茶, whose
    description calls it 焙じ茎茶（ほうじ茶）); none when no phrase names anything."""
    listed = list(items)
    for texts in (_texts, _described):
        scored = [(sum(any(names_by_sound(phrase, text) for text in texts(item))
                       for phrase in phrases), item) for item in listed]
        top = max((score for score, _ in scored), default=0)
        if top:
            return [item for score, item in scored if score == top]
    return []


def _described(item: dict[str, Any]) -> list[str]:
    description = str(item.get("description", ""))
    return [description] if description else []


def _texts(item: dict[str, Any]) -> list[str]:
    texts = [str(item.get("name", ""))]
    for variant in item.get("variants") or []:
        if isinstance(variant, dict):
            texts += [str(value) for value in (variant.get("options") or {}).values()]
            texts.append(str(variant.get("name", "")))
    return [text for text in texts if text]


_FOLDED_NO_EVIDENCE = frozenset(fold(word) for word in _NO_EVIDENCE)
