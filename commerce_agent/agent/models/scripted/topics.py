"""What a question asks about, in English, French or Japanese, and whether the store's terms or
an item's own data answer it.

One table per subject: each topic is the field of the Commerce API data that answers it
(the store's hours, shipping options, minimum order and return window; an item's duration,
place, capacity, weight, size, contents, allergens or materials, and trial). A question's
words are matched against the table, not against phrasings: "I was wondering whether you're
open on Sundays", "est-ce que vous êtes ouverts le lundi ?" and 「何時まで開いていますか」 all
name the store's hours. The store's terms win when a question names both ("how long does
delivery take?" is about shipping, not a duration of an item).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from commerce_agent.agent.models.scripted import words


@dataclass(frozen=True)
class Topic:
    name: str
    about: str  # "store": its terms answer; "item": the item's own data answers


# Patterns run on folded text (lowercase, accents off); Japanese is kept as written.
_STORE: dict[str, re.Pattern[str]] = {
    "hours": re.compile(
        r"\b(?:open|opens|opening|close|closes|closing|closed|business hours)\b|"
        # "hours" of a store, not a length of time ("how many hours", "2 hours", "in hours")
        r"(?<!how many )(?<!\d )(?<!\bin )\bhours\b|"
        r"\b(?:ouvert|ouverte|ouverts|ouvertes|ouvre|ouvrez|ouvrent|ferme|fermez|fermes|"
        r"fermee|fermeture|horaires?)\b|営業|開いて|開店|閉店|定休|何時から|何時まで|"
        # 「月曜日やってますか」: a day, then "doing (business)"
        r"(?:曜日?|今日|明日|祝日|週末)(?:は|に|も|って)?(?:お店)?(?:は)?やって"),
    "shipping": re.compile(
        r"\b(?:ship|ships|shipping|shipped|deliver|delivers|delivery|deliveries|postage|"
        r"courier|express|posted|dispatch)\b|\bhow long\b.{0,30}\b(?:take|arrive|get here)\b|"
        # posting a thing (not a post of a blog): "how much to post the mat to me?"
        r"\bpost(?:ing)? (?:it|them|this|that|these|those|the|a|an|one|two|to)\b|"
        r"\b(?:livraison|livrez|livrer|livre-t-on|livrez-vous|expedition|expediez|envoi|"
        r"frais de port|port)\b|送料|配送|発送|配達|お届け|速達|届く"),
    "minimum": re.compile(r"\bminimum (?:order|spend|purchase|basket|amount)\b|"
                          r"\b(?:order|spend) minimum\b|\bminimum de commande\b|"
                          r"\bmontant minimum\b|\bcommande minimum\b|最低注文|最低金額"),
    "returns": re.compile(r"\breturn\w*|\bsend (?:\w+ )?back\b|\brefund\w*|\bexchange\w*|"
                          r"\bretour\w*|\bretourn\w*|\brenvoy\w*|\brembours\w*|返品|返金|交換"),
}
_HELD = r"(?:held|take place|takes place|happen\w*|hosted|run|meet)\b"
_A_LIEU = r"(?:a lieu|se deroule\w*|se passe|se tient)\b"
_ITEM: dict[str, re.Pattern[str]] = {
    "duration": re.compile(r"\bhow long (?:is|does|will|are)\b|\bduration\b|\bminutes?\b|"
                           r"\bduree\b|\bcombien de temps\b|\bdure(?:nt)?\b|何分|何時間|"
                           r"所要時間|時間はどのくらい|どのくらいかか"),
    # "where" only with a verb of taking place, so the thing's name between stays
    "place": re.compile(rf"\bwhere\b(?=.{{0,50}}\b{_HELD})|\b{_HELD}|"
                        rf"\bou\b(?=.{{0,30}}\b{_A_LIEU})|\b{_A_LIEU}|どこで|会場|場所"),
    # "hold" is a vessel's, not "on hold" (a subscription's pause)
    "capacity": re.compile(r"(?<!\bon )\bhold(?:s|ing)?\b(?! (?:on|off)\b)|\bcapacity\b|"
                           r"\bvolume\b|\bhow many cups\b|"
                           r"\bcontenance\b|\bcapacite\b|容量|何杯|何ml|何cc"),
    "weight": re.compile(r"\b(?:heavy|heavier|weigh|weighs|weight)\b|\bpoids\b|\bpese\w*\b|"
                         r"\blourd\w*\b|重さ|重い|重量|何グラム|何キロ"),
    "size": re.compile(r"\bhow (?:big|tall|wide|large|small)\b|\b(?:dimensions?|measurements?|"
                       r"size)\b|\btaille\b|\bgrand\w* (?:est|fait)\b|大きさ|サイズ|寸法|高さ"),
    "contents": re.compile(r"\bcontains?\b|\binclud\w*\b|\bingredients?\b|\bmade (?:of|from|"
                           r"with)\b|\bwhat'?s in\b|\bwhat (?:do|does|will) (?:i|you|it|we) "
                           r"(?:\w+ )?(?:get|come)\b|\bcomes? with\b|\bcontien\w*\b|"
                           r"\bcompos\w*\b|\bqu'est-ce qu'il y a\b|入って|原材料|"
                           r"材料|成分|含まれ|中身|セット内容"),
    "allergens": re.compile(r"\b(?:nuts?|peanuts?|gluten|dairy|lactose|allerg\w*|vegan|"
                            r"vegetarian|materials?|noix|arachides?|allergen\w*|vegetalien\w*|"
                            r"vegetarien\w*|matiere|materiau\w*)\b|アレルギー|ナッツ|グルテン|"
                            r"乳製品|素材|材質"),
    # how it may be used and cared for: its description says, or the answer says it doesn't
    "care": re.compile(r"\b(?:dishwasher|microwave|oven|freezer|washable|machine wash\w*|"
                       r"(?:\w+[- ])?(?:safe|proof)|lave-vaisselle|micro-?ondes?|(?:au|en) four|"
                       r"congelateur|lavable)\b|食洗機|電子レンジ|オーブン|冷凍|洗え"),
    "trial": re.compile(r"\btrial\b|\bessai\b|お試し|無料体験|トライアル"),
    # what can be added to it: its add-ons ("do you do gift wrapping?")
    "addons": re.compile(r"\bgift[- ]?(?:wrap\w*|box\w*)|\bwrapping\b|\bemballage\w*|"
                         r"\bpaquet cadeau\b|ラッピング|包装|ギフト包装|のし"),
    # whether it is there to buy, or how many are left
    # (or whether it is still sold: "do you still sell the raku bowl?", 「まだ売ってる？」)
    "stock": re.compile(r"\bin stock\b|\b(?:available|availability|sold out|left)\b|"
                        r"\bstill (?:sell|selling|sold|carry|carrying|stock|make|making|have|"
                        r"got)\b|"
                        # (not "the last one" alone: that points at the last shown)
                        r"\b(?:is|are) (?:it|that|this|these|those|they) the last\b|"
                        r"\blast (?:one|few|ones|piece|pieces) (?:left|remaining)\b|"
                        r"最後の(?:1|一)?(?:つ|個|点)|"
                        r"\ben stock\b|\bdisponibles?\b|\bdispos?\b|\bepuise|\breste\b|"
                        r"\bencore (?:en vente|vendu\w*|dispo\w*)\b|\b(?:vendez|faites)(?:-vous)? "
                        r"encore\b|在庫|売り切れ|残り|あと何|何個|(?:まだ)?(?:売って|販売して|買え)(?:い?る|います|ます)?|"
                        r"販売中"),
}
STOCK = _ITEM["stock"]
RETURNS = _STORE["returns"]
# Words that point at the item in view ("does it contain nuts?", "il pèse combien ?", この急須).
_POINTER = re.compile(r"\b(?:it|its|this|that|these|those|they|them|il|elle|ils|elles|ca|"
                      r"cela|celui-ci|celle-ci)\b|これ|この|それ|その|あれ|あの")
# A subscription's commitment is its item's terms, answered elsewhere (answers.topic_of).
_COMMITMENT = re.compile(r"\bminimum (?:term|period|duration|commitment|months?)\b|"
                         r"\bengagement\b|最低(?:契約)?期間")


def topic(text: str) -> Topic | None:
    """The first topic the question's words name: the store's terms before an item's data."""
    folded = words.fold(text)
    if _COMMITMENT.search(folded):
        return None
    for name, pattern in _STORE.items():
        if pattern.search(folded):
            return Topic(name, "store")
    for name, pattern in _ITEM.items():
        if pattern.search(folded):
            return Topic(name, "item")
    return None


def names_an_item(text: str, found: Topic) -> bool:
    """Whether the question is about a thing: a pointer to the one in view or words left
    once the topic's own words are gone ("the tea ceremony workshop", 茶道体験). A duration
    needs a named thing: "how long does it take?" asks about delivery."""
    if found.about != "item":
        return False
    folded = words.fold(text)
    left = _ITEM[found.name].sub(" ", folded)
    if words.re_japanese(left):
        named = bool(words.japanese_query(left).strip())
    else:
        named = bool(words.content_words(words.without_elision(left)) - _ASKING)
    # what can be added is the item in view's, whether or not the question points at it
    return named or found.name == "addons" or (
        found.name != "duration" and _POINTER.search(folded) is not None)


def points(text: str) -> bool:
    """Whether the question points at the item in view ("does it…", "il…", "この…")."""
    return _POINTER.search(words.fold(text)) is not None


# Asking to be told is asking ("tell me how long delivery takes", "dites-moi…", 教えて).
_TELL_ME = re.compile(r"^(?:and |et |please |so )?(?:tell me|let me know|can you tell me|"
                      r"dites-moi|dis-moi|indiquez-moi)\b|教えて")


def asks(text: str) -> bool:
    return _TELL_ME.search(words.fold(text).strip()) is not None


# Japanese asking words that name nothing ("どれくらい", "いくつ").
_JA_ASKING = re.compile(r"どれくらい|どのくらい|どのぐらい|どれぐらい|いくつ|ありますか|教えて\S*")


def without_topic(text: str, keep: tuple[str, ...] = ()) -> str:
    """The question's words without those that name an item's topic ("how much does it
    hold?" → "how much does it"), so what is left names the thing asked about; the topics
    `keep` names stay (a search for "anything gluten free" is for what its words describe)."""
    folded = words.fold(text)
    for name, pattern in _ITEM.items():
        if name not in keep:
            folded = pattern.sub(" ", folded)
    return _ASKING_WORDS.sub(" ", _JA_ASKING.sub(" ", folded))


# Question words that name nothing ("any", "actually", "wondering"), beyond the stop words.
_ASKING = frozenset("""
wondering wonder curious guy chance possible actually exactly roughly approximately whether
if pese lourd dure temps demandai savoir quest
""".split())
_ASKING_WORDS = re.compile(rf"\b(?:{'|'.join(sorted(_ASKING - {'if'}))})s?\b")
