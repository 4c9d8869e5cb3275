"""Kinds of goods in French and Japanese as the catalogs file them (in English): "de la
vaisselle", "des ustensiles à thé", "食器", "茶道具", "文房具". A search matches the categories
items carry ("Tableware", "Teaware", "Stationery"), and those are English; an item's name and
description are translated, its categories are not.

A small table per language of everyday words for a kind of goods, never item names: it maps
what a shopper calls a kind to the English word the categorization uses; and one of what a
thing is for ("something to read", « de quoi boire », 「読み物」), in every language.
"""

from __future__ import annotations

import re

from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.language.folding import fold_accents

# Longer phrases first: "ustensiles à thé" before "ustensiles".
_FRENCH = (
    (r"ustensiles? (?:a|pour le|de) (?:the|tea)", "teaware"),
    (r"accessoires? (?:a|pour le|de) (?:the|tea)", "teaware"),
    (r"arts? de la table|vaisselle", "tableware"),
    (r"papeterie|fournitures de bureau", "stationery"),
    (r"boissons?", "drinks"),
    (r"logiciels?", "software"),
    (r"livres? audio", "audiobooks"),
    (r"livres? numeriques?|livres? electroniques?", "ebook"),
    (r"(?<!\d )livres?", "books"),
    (r"pates", "pasta"),
    (r"goutteurs?", "brewers"),  # Québec's pour-over dripper
    # a cup for tea or coffee is a mug; « tasses à expresso » (or, typed fast, « tasses
    # expresso ») are the espresso cups
    (r"tasses?(?! (?:(?:a|d'|de|pour) ?(?:l')?)?(?:expresso|espresso))", "mug"),
    (r"desserts?|douceurs?", "desserts"),
    (r"materiel de yoga|equipement de yoga", "yoga equipment"),
)
# Patterns (the words are plain but for 本, a counter too).
_JAPANESE = (
    ("茶道具", "teaware"),
    ("お茶の道具", "teaware"),
    ("茶器", "teaware"),
    ("食器", "tableware"),
    ("文房具", "stationery"),
    ("文具", "stationery"),
    ("飲み物", "drinks"),
    ("飲みもの", "drinks"),
    ("ドリンク", "drinks"),
    ("ソフトウェア", "software"),
    ("オーディオブック", "audiobooks"),
    ("ヨガ用品", "yoga equipment"),
    ("デザート", "desserts"),
    ("甘いもの", "desserts"),
    ("パスタ", "pasta"),
    ("電子書籍", "ebook"),
    ("書籍", "books"),
    # tea as a kind (お茶, 日本茶, 緑茶, 茶葉), never inside another word: 抹茶, ほうじ茶 and
    # 茶筅 name products, 茶色 a colour, お茶碗 a bowl
    ("日本茶|茶葉|お茶っ葉", "tea"),
    ("緑茶|グリーンティー", "green tea"),
    ("煎茶", "sencha"),
    ("お茶(?![\u4e00-\u9fff\u30a0-\u30ff])|"
     "(?<![\u3041-\u30ff\u4e00-\u9fff])茶(?![\u4e00-\u9fff\u30a0-\u30ff])", "tea"),
    # 本 as a noun ("一番高い本", "本はある？"), not a counter (二本, 八十本立) nor inside a
    # word (日本, 本日, 本当, 見本)
    ("(?<![日一二三四五六七八九十百千0-9０-９基見手])本(?![日当物気店部立数])", "books"),
)
# "something to", "anything I can", "what do I need to", "stuff for": a thing wanted for
# what it does.
_FOR_DOING = (r"(?:something|anything|stuff|a thing|things?|what)(?: (?:do )?(?:i|we) "
              r"(?:can|could|need to|would need to)| to| for)? ")
# What a thing is for, in any of the three languages ("something to read", « de quoi lire »,
# 「読み物」): the kind of goods that serves it, as the catalogs file it.
_USES = (
    (r"(?:something|anything|stuff|things?|books?) (?:good )?to read|reading material|"
     r"a good read|(?:quelque chose|de quoi|des choses) (?:a )?lire|de la lecture|"
     r"読み物|読むもの|読む本|(?:likes?|loves?|enjoys?) (?:to )?read(?:ing)?|"
     r"(?:aime|adore) (?:la )?(?:lire|lecture)|読書",
     "books"),
    (r"(?:something|anything|stuff) to listen to|(?:quelque chose|de quoi) (?:a )?ecouter|"
     r"聴くもの|聞くもの", "audiobooks"),
    (r"(?:something|anything) to drink|(?:quelque chose|de quoi) (?:a )?boire|飲むもの",
     "drinks"),
    (r"(?:something|anything) sweet|(?:quelque chose|un truc) de sucre", "desserts"),
    # a vessel or tool named by what is made with it: "something to brew loose leaf tea in",
    # « de quoi infuser du thé », 「お茶を淹れる道具」; "what I need to whisk matcha"
    (rf"{_FOR_DOING}(?:brew|steep|make|brewing|steeping|making) (?:(?:my|some|the) )?"
     r"(?:loose[- ]leaf |loose |green |japanese )?teas?(?: leaves)?(?: in| with)?|"
     r"(?:de quoi|quelque chose pour|un truc pour) (?:faire|infuser|preparer) (?:du |le |mon )?"
     r"the|お?茶を(?:淹れる|いれる)(?:道具|もの)?", "teapot"),
    (rf"{_FOR_DOING}(?:brew|make|brewing|making) (?:(?:my|some|the) )?(?:filter |pour[- ]over |"
     r"drip )?coffee(?: in| with)?|(?:de quoi|quelque chose pour|un truc pour) (?:faire|"
     r"preparer) (?:du |le |mon )?cafe(?: filtre)?|コーヒーを(?:淹れる|いれる)(?:道具|もの)?",
     "brewers"),
    (rf"{_FOR_DOING}(?:whisk|whisking|make|making|prepare|preparing) (?:(?:my|some|the) )?"
     r"matcha(?: at home)?|matcha (?:tools|equipment|gear|utensils)|"
     r"(?:de quoi|quelque chose pour|un truc pour) (?:fouetter|preparer|faire) (?:du |le )?"
     r"matcha|ustensiles? (?:a|pour le|de) matcha|抹茶を点てる(?:道具|もの)?|抹茶の道具",
     "matcha tools"),
)
# The English category words the tables give: a Japanese query holding one says a kind,
# never a name written in romaji.
KINDS_IN_ENGLISH = frozenset(word for _, english in (*_FRENCH, *_JAPANESE, *_USES)
                              for word in english.split())
_USES_FOUND = re.compile("|".join(f"(?:{pattern})" for pattern, _ in _USES))
# Not inside a compound ("lave-vaisselle" is a dishwasher, not dishes).
_FRENCH_FOUND = re.compile(
    r"(?<![\w-])(?:" + "|".join(f"(?:{pattern})" for pattern, _ in _FRENCH) + r")(?![\w-])"
)
_JAPANESE_FOUND = re.compile("|".join(f"(?:{pattern})" for pattern, _ in _JAPANESE))


def _english(match: re.Match[str], table: tuple[tuple[str, str], ...]) -> str:
    for pattern, english in table:
        if re.fullmatch(pattern, match.group()):
            return f" {english} "
    return match.group()


def in_english_categories(text: str) -> str:
    """`text` (folded, for French) with each kind of goods it names as the catalogs' English
    category ("de la vaisselle" → "de la tableware", "茶道具は？" → "teaware は？")."""
    if in_japanese_script(text):
        return _JAPANESE_FOUND.sub(lambda found: _english(found, _JAPANESE), text)
    return _FRENCH_FOUND.sub(lambda found: _english(found, _FRENCH), fold_accents(text))


def by_use(text: str) -> str:
    """`text` (folded) with what a thing is for said as the kind that serves it ("something
    to read, around 15 euros" → "books, around 15 euros")."""
    return _USES_FOUND.sub(lambda found: _english(found, _USES), text)
