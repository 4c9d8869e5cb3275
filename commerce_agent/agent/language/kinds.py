"""Kinds of things, by every everyday word the three languages have for them: a shopper's
"cup" is what a catalog files as a mug (マグカップ), « bol » / ボウル / どんぶり are bowls, a
"matcha whisk" is a 茶筅 or a « fouet à matcha ». A word of a kind names any item that says
another word of the same kind, in any language its store serves (`evidence`).

Only words for the thing itself, never its options, its material or its store's names; a
Japanese word only when it names nothing else as part of a longer word (鉢 alone is also a
planter's pot, so only 大鉢 is a bowl).
"""

from __future__ import annotations

import re
from functools import lru_cache

from commerce_agent.agent.language.folding import fold_accents

# kind → its words (Latin ones folded, singular; Japanese ones as written).
_KINDS: dict[str, tuple[str, ...]] = {
    "mug": ("mug", "cup", "tasse", "マグ", "マグカップ", "カップ"),
    "bowl": ("bowl", "bol", "saladier", "chawan", "ボウル", "ぼうる", "どんぶり", "丼", "大鉢",
             "茶碗", "ちゃわん"),
    "whisk": ("whisk", "fouet", "chasen", "茶筅", "茶せん", "ちゃせん", "泡立て器"),
    "teapot": ("teapot", "theiere", "kyusu", "急須", "きゅうす", "ティーポット"),
    "plate": ("plate", "assiette", "皿", "プレート"),
    "hojicha": ("hojicha", "houjicha", "ほうじ茶", "焙じ茶", "ほうじちゃ", "ホウジ茶", "棒茶"),
    "salad": ("salad", "salade", "サラダ"),
    "notebook": ("notebook", "carnet", "cahier", "ノート"),
    "ink": ("ink", "encre", "インク"),
    "mat": ("tapis", "マット"),
    "planter": ("planter", "cache-pot", "プランター"),
}
_LATIN = {word: kind for kind, spelled in _KINDS.items() for word in spelled if word.isascii()}
_LATIN_WORD = re.compile(r"[a-z][a-z-]*")
_JAPANESE = tuple((word, kind) for kind, spelled in _KINDS.items()
                  for word in spelled if not word.isascii())


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith(("s", "x")) else word


@lru_cache(maxsize=4096)
def kind_of(word: str) -> str | None:
    """The kind a shopper's word names ("cups", « bols », どんぶり), or None."""
    japanese = next((kind for spelled, kind in _JAPANESE if spelled == word), None)
    if japanese is not None:
        return japanese
    plain = fold_accents(word)
    return _LATIN.get(plain) or _LATIN.get(_singular(plain))


@lru_cache(maxsize=8192)
def kinds_in(text: str) -> frozenset[str]:
    """The kinds a text (an item's name or description, in any language) says it is."""
    folded = fold_accents(text)
    latin = {_LATIN.get(word) or _LATIN.get(_singular(word))
             for word in _LATIN_WORD.findall(folded)}
    japanese = {kind for spelled, kind in _JAPANESE if spelled in text}
    return frozenset(kind for kind in latin | japanese if kind)
