"""How Japanese words sound: a shopper may write a catalog's name in kana, the way it is read
(げんまいちゃ for 玄米茶, ぼうちゃ for 加賀棒茶), in the other kana (マグカップ as まぐかっぷ),
half-width (ｶｶﾞﾎﾞｳﾁｬ), with its long vowels written out (ぎふとかあど) or in romaji
(diavola for ディアボラ).

A name in Latin letters written in katakana (ピクセルフォージ for PixelForge, パイソン for Python,
テセレート・ターミナル for Tessellate Terminal) is compared by the consonants both spellings
keep (`loanword_key`): katakana adds a vowel after every consonant and English writes vowels
katakana does not hear, so the consonants, folded where katakana merges them (l and r, v and
b, s and z, m and n, "x" as ks, a soft "ge" as j, an r after a vowel unsaid), are what the
two share. A katakana phrase names a run of whole Latin words of the name with the same key.

Some kanji are read wrongly by the dictionary in names (美濃和紙 as みのわかみ, 高山 as
こうざん, トスカーナ風 as かぜ): `_READINGS` holds their readings, read before pykakasi.

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
_KANA_ONLY = re.compile(r"[\u3041-\u3096\u30a1-\u30fc\uff65-\uff9f]+")  # ・ joins words
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
    for index, chunk in enumerate(chunks):
        if is_hiragana(chunk):  # katakana has no particles to keep
            word = _TRAILING_PARTICLE.sub("", chunk)
            if len(word) <= 1 and index and chunks[index - 1].endswith("の"):
                word = chunk  # a noun after "Xの" is whole: "わしの のと" is のと, no の + と
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
    text = text.replace("ー", "").replace("・", "").translate(_SMALL)
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
    return fold("".join(part["hira"] for part in _kakasi().convert(_read_as_said(name))))


# Kanji the dictionary misreads in names, in kana: a word (和紙 is わし, though 美濃和紙 reads
# as 美濃和 + 紙), or a suffix by what it follows (風 after a loanword is "style", ふう).
_READINGS = (
    (re.compile(r"和紙"), "わし"), (re.compile(r"高山"), "たかやま"),
    (re.compile(r"大鉢"), "おおばち"), (re.compile(r"(?<=[\u30a1-\u30fc])風"), "ふう"),
    (re.compile(r"(?<=\d)人前"), "にんまえ"), (re.compile(r"秋柿"), "あきがき"),
)


def _read_as_said(name: str) -> str:
    """`name` with the kanji the dictionary misreads in their readings (`_READINGS`)."""
    for kanji, kana in _READINGS:
        name = kanji.sub(kana, name)
    return name


@lru_cache(maxsize=8192)
def romaji(name: str) -> str:
    """The name's sound in Latin letters, folded the way katakana loses a loanword's
    spelling (v as b, l as r, no doubled letters): ディアボラ and diavola are "diabora"."""
    latin = "".join(part["hepburn"] for part in _kakasi().convert(_read_as_said(name)))
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
        return len(key) >= 2 and key in reading(name) or _names_a_loanword(phrase, name)
    if _LATIN_WORD.fullmatch(phrase):
        return _sound(phrase) in romaji(name)
    return False


# Where katakana merges what English tells apart, and what it does not hear: the rules, in
# order, on lower-case Latin letters (the romaji of katakana, or an English spelling).
_LOAN_RULES = (
    (r"ph", "f"), (r"ck", "k"), (r"x", "ks"), (r"q", "k"), (r"c(?=[eiy])", "s"), (r"c", "k"),
    (r"th", "s"), (r"sh", "s"), (r"ch", "t"), (r"ts", "t"), (r"dge|ge\b", "j"),
    (r"(?<=[aeiou])r(?![aeiouy])", ""), (r"l", "r"), (r"v", "b"), (r"z", "s"), (r"m", "n"),
    (r"[aeiouyw]", ""), (r"\s+", ""), (r"(.)\1+", r"\1"),
)
_LOAN = tuple((re.compile(pattern), replacement) for pattern, replacement in _LOAN_RULES)
# The fewest consonants a katakana phrase must keep to name a Latin name: two are in too many.
_MIN_CONSONANTS = 3
_LATIN_RUN = re.compile(r"[a-z]+(?:['’][a-z]+)?")


def loanword_key(latin: str) -> str:
    """The consonants of a word as katakana keeps them (`_LOAN_RULES`): "pixelforge" and
    ピクセルフォージ's "pikuserufooji" are both "pksrfj"."""
    text = unicodedata.normalize("NFKD", latin.lower())
    text = "".join(ch for ch in text if "a" <= ch <= "z" or ch == " ")
    for pattern, replacement in _LOAN:
        text = pattern.sub(replacement, text)
    return text


@lru_cache(maxsize=8192)
def _latin_runs(name: str) -> frozenset[str]:
    """The keys of every run of whole Latin words in `name` ("Aurelia", "Aurelia Sans"…)."""
    said = _LATIN_RUN.findall(unicodedata.normalize("NFKC", name).lower())
    return frozenset(loanword_key(" ".join(said[start:end]))
                     for start in range(len(said)) for end in range(start + 1, len(said) + 1))


@lru_cache(maxsize=8192)
def _katakana_key(phrase: str) -> str:
    latin = "".join(part["hepburn"] for part in _kakasi().convert(phrase.replace("・", "")))
    return loanword_key(latin)


def _names_a_loanword(phrase: str, name: str) -> bool:
    """Whether a katakana phrase is the name's Latin words as katakana writes them."""
    if not re.search(r"[a-zA-Z]{3}", name) or not re.fullmatch(r"[\u30a1-\u30fc]+", phrase):
        return False
    key = _katakana_key(phrase)
    return len(key) >= _MIN_CONSONANTS and key in _latin_runs(name)


def said_together(phrases: Sequence[str]) -> list[str]:
    """A name said in parts ("わし のと" for 和紙ノート): each two kana phrases side by side,
    read as one."""
    return [first + second for first, second in zip(phrases, phrases[1:], strict=False)
            if is_kana(first) and is_kana(second)]


def names_in(items: Iterable[dict[str, Any]], phrases: Sequence[str]) -> list[dict[str, Any]]:
    """The items whose names (or variants' and options' values) the most of `phrases` name
    by sound; when no name is, those whose descriptions do (ほうじちゃ: 加賀棒茶, whose
    description calls it 焙じ茎茶（ほうじ茶）); none when no phrase names anything."""
    listed = list(items)
    phrases = [*phrases, *said_together(phrases)]
    for texts in (_texts, _described):
        # how many phrases the texts name, then how many the name's own words do, its gloss in
        # brackets aside: きゅうす is 常滑焼 急須 before セラドン釉のティーポット（急須）
        scored = [((sum(any(names_by_sound(phrase, text) for text in texts(item))
                        for phrase in phrases),
                    sum(any(names_by_sound(phrase, _GLOSS.sub(" ", text)) for text in texts(item))
                        for phrase in phrases)), item) for item in listed]
        top = max((score for score, _ in scored), default=(0, 0))
        if top[0]:
            return [item for score, item in scored if score == top]
    return []


_GLOSS = re.compile(r"[(（][^)）]*[)）]")


def sounded(phrase: str) -> str:
    """A Japanese phrase written with kanji as it sounds, in kana (焙じ茶: ほうじ茶's key), for
    reading a catalog by sound when no search found the kanji as written; "" for a phrase
    with no kanji."""
    if not re.search(r"[\u4e00-\u9fff]", phrase):
        return ""
    return reading(phrase)


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
