"""Option words in French and Japanese as the catalogs write them (in English): colours,
sizes, finishes and grades, so "en bleu", "la grande" or "青いの" pick the variant whose
values say "Blue", "Large" (the catalog data is English; variant values are not translated).

A small table per language of everyday words, never item names: it maps what a shopper calls
an option to the English words a variant value uses.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from commerce_agent.agent.language.folding import fold_accents

_FRENCH = {
    "bleu": "blue", "bleue": "blue", "bleus": "blue", "bleues": "blue", "blanc": "white",
    "blanche": "white", "blancs": "white", "noir": "black", "noire": "black", "rouge": "red",
    "vert": "green", "verte": "green", "jaune": "yellow", "gris": "grey gray",
    "grise": "grey gray", "rose": "pink", "violet": "purple", "violette": "purple",
    "marron": "brown", "brun": "brown", "beige": "beige oat", "dore": "gold", "doree": "gold",
    "argent": "silver", "argente": "silver", "mouchete": "speckled", "mouchetee": "speckled",
    "tachete": "speckled", "satine": "satin", "mat": "matte", "mate": "matte",
    "brillant": "glossy gloss", "petit": "small", "petite": "small", "moyen": "medium",
    "moyenne": "medium", "grand": "large", "grande": "large", "pouces": "inch",
    "pouce": "inch", "ceremonie": "ceremonial", "culinaire": "culinary",
    "cuisine": "culinary", "patisserie": "culinary",
    # toppings, extras and add-ons
    "champignon": "mushrooms", "champignons": "mushrooms", "jambon": "prosciutto",
    "poulet": "chicken", "oeuf": "egg", "oeufs": "egg", "anchois": "anchovies",
    "miel": "honey", "piment": "chili", "pimente": "chili", "huile": "oil",
    "fromage": "cheese", "classique": "classic", "frais": "fresh", "fraiche": "fresh",
    "fraiches": "fresh", "emballage": "wrap", "cadeau": "gift",
    "boite": "box", "sous-verre": "coaster", "prioritaire": "priority", "polices": "fonts",
    "coffret": "box", "liege": "cork", "pimentee": "chili", "epicee": "chili",
    "emballer": "wrap", "emballe": "wrap", "paquet": "wrap", "ail": "garlic",
    "postes": "seats", "sieges": "seats", "focaccia": "focaccia",
}
_JAPANESE = {
    "青": "blue", "ブルー": "blue", "白": "white", "ホワイト": "white", "黒": "black",
    "ブラック": "black", "赤": "red", "レッド": "red", "緑": "green", "グリーン": "green",
    "黄": "yellow", "イエロー": "yellow", "灰色": "grey gray", "グレー": "grey gray",
    "ピンク": "pink", "紫": "purple", "茶色": "brown", "金": "gold", "銀": "silver",
    "まだら": "speckled", "斑": "speckled", "大きい": "large", "大きめ": "large",
    "ラージ": "large", "小さい": "small", "小さめ": "small", "スモール": "small",
    "ミディアム": "medium", "インチ": "inch", "料理用": "culinary", "製菓": "culinary",
    "お点前": "ceremonial", "点前": "ceremonial", "茶道用": "ceremonial",
    # toppings, extras and add-ons
    "マッシュルーム": "mushrooms", "きのこ": "mushrooms", "キノコ": "mushrooms",
    "オリーブ": "olives", "生ハム": "prosciutto", "プロシュート": "prosciutto",
    "チキン": "chicken", "鶏": "chicken", "卵": "egg", "たまご": "egg", "玉子": "egg",
    "アンチョビ": "anchovies", "はちみつ": "honey", "蜂蜜": "honey", "ハチミツ": "honey",
    "チリオイル": "chili oil", "ラー油": "chili oil", "ブッラータ": "burrata",
    "グルテンフリー": "gluten free", "チーズ": "cheese", "クラスト": "crust",
    "ギフトボックス": "gift box", "ギフト": "gift", "コースター": "coaster",
    "包装": "wrap", "ラッピング": "wrap", "風呂敷": "furoshiki", "ふろしき": "furoshiki",
    "サポート": "support", "優先": "priority", "プリセット": "preset", "フォント": "fonts",
    "席": "seats", "シート": "seats", "ウェブ": "web", "クラシック": "classic",
    "フォカッチャ": "focaccia", "ガーリック": "garlic", "ニンニク": "garlic",
}
# What "sans …" / "without …" names as an option rather than declines: « sans gluten » is the
# gluten-free crust or pasta, as "gluten free" is (a lookahead for the declining patterns).
NOT_DECLINED = r"(?!\s+gluten\b)"
# The English words the tables map to: what a catalog's option values say ("crust", "gluten
# free", "seats", "blue"), so a phrase of only these names an option, not a product.
ENGLISH_OPTION_WORDS = frozenset(word for table in (_FRENCH, _JAPANESE)
                                 for english in table.values() for word in english.split())
# Words that pick a size by its rank among the item's own, not a thing: "the bigger one", "the
# 16 oz size", « la grande taille ». A phrase of only these and option values is an option.
SIZE_RANK_WORDS = frozenset({
    "big", "bigger", "biggest", "large", "larger", "largest", "small", "smaller", "smallest",
    "little", "size", "sized", "sizes", "taille", "tailles", "grande", "grand", "petite",
    "petit", "plus", "format", "tin", "version",
})
_JAPANESE_FOUND = re.compile("|".join(sorted(map(re.escape, _JAPANESE), key=len, reverse=True)))
# Hiragana runs of a message: where an option word typed in kana (せいかよう, おてまえ) is.
_HIRAGANA_RUN = re.compile(r"[\u3041-\u3096ー]+")
# The fewest kana a word typed in kana must have to be read as an option word: two (あお, きん)
# are inside too many other words.
_MIN_KANA = 3


# How the table's kanji words are read, for a shopper who leaves them in kana (製菓 as せいか,
# お点前 as おてまえ). A single kanji is left out: its kana are a word of their own too (緑 is
# みどり, as in the name Midori-dō; 席 is せき). Katakana words are read in hiragana by their
# code points (ブルー as ぶるー).
_KANJI_READINGS = {
    "灰色": "はいいろ", "茶色": "ちゃいろ", "大きい": "おおきい", "大きめ": "おおきめ",
    "小さい": "ちいさい", "小さめ": "ちいさめ", "料理用": "りょうりよう", "製菓": "せいか",
    "お点前": "おてまえ", "点前": "てまえ", "茶道用": "さどうよう", "生ハム": "なまはむ",
    "蜂蜜": "はちみつ", "ラー油": "らーゆ", "包装": "ほうそう", "風呂敷": "ふろしき",
    "優先": "ゆうせん",
}
_TO_HIRAGANA = str.maketrans({chr(code + 0x60): chr(code) for code in range(0x3041, 0x3097)})


@lru_cache(maxsize=1)
def _japanese_in_kana() -> tuple[re.Pattern[str], dict[str, str]]:
    """The Japanese table's words as typed in hiragana, three kana or more."""
    table: dict[str, str] = {}
    for word, english in _JAPANESE.items():
        kana = _KANJI_READINGS.get(word) or word.translate(_TO_HIRAGANA)
        if kana != word and len(kana) >= _MIN_KANA and _HIRAGANA_RUN.fullmatch(kana):
            table.setdefault(kana, english)
    return re.compile("|".join(sorted(map(re.escape, table), key=len, reverse=True))), table


@lru_cache(maxsize=4096)
def english_option_words(text: str) -> frozenset[str]:
    """The English option words a French or Japanese message says ("en bleu" → blue)."""
    found: set[str] = set()
    # whole words, and hyphenated ones as written ("sous-verre") as well as by their parts
    for word in re.findall(r"[a-z]+(?:-[a-z]+)*|[a-z]+", fold_accents(text)):
        found.update(_FRENCH.get(word, "").split())
    for word in re.findall(r"[a-z]+", fold_accents(text)):
        found.update(_FRENCH.get(word, "").split())
    normal = unicodedata.normalize("NFKC", text)
    for match in _JAPANESE_FOUND.finditer(normal):
        found.update(_JAPANESE[match.group()].split())
    if _HIRAGANA_RUN.search(normal):
        in_kana, table = _japanese_in_kana()
        for run in _HIRAGANA_RUN.findall(normal):
            for match in in_kana.finditer(run):
                found.update(table[match.group()].split())
    return frozenset(found)


def japanese_options_only(text: str) -> bool:
    """Whether a Japanese phrase says only option words ("青", "大きいの", "ギフトで"), not a
    thing whose name holds one ("ギフトカード" is a gift card, not the gift option)."""
    rest = _JAPANESE_FOUND.sub("", unicodedata.normalize("NFKC", text))
    return rest != text and not re.sub(r"[のでをがはにもと、。\s]", "", rest)
