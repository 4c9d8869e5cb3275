"""Slots from a shopper's own words: quantities, ordinals, prices, codes, addresses, stars.

Every function here is pure and cached by its text, so folding a long conversation again on
each model step costs little.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache

from commerce_agent.agent.language import item_lists, quantities, readings
from commerce_agent.agent.language.addresses import find_address
from commerce_agent.agent.language.delivery import (
    collects_in_person,
    read_delivery,
    without_any_collecting,
    without_collecting,
)
from commerce_agent.agent.language.detect import in_japanese_script
from commerce_agent.agent.language.folding import fold as fold  # read here as `words.fold` too
from commerce_agent.agent.language.measures import NO_COUNT_UNIT, SIZE_WITH_UNIT, UNITS
from commerce_agent.agent.language.numbers import NUMBER_WORDS, fold_numbers
from commerce_agent.agent.language.option_words import (
    ENGLISH_OPTION_WORDS,
    SIZE_RANK_WORDS,
    english_option_words,
    japanese_options_only,
)
from commerce_agent.agent.language.ordinals import index_named
from commerce_agent.agent.language.prices import bounds_by_limit_word
from commerce_agent.agent.language.spans import remove_spans
from commerce_agent.agent.models.scripted import normalized

# Words that carry no product meaning: dropped from search queries and name matching. What
# holds a count ("two tins of", "3 bouteilles de") counts; it names no item ("tins" ≠ "tines").
STOP = frozenset("""
throw toss grab snag pop chuck bung sorry soz sry handful plusieurs
ugh urgh argh meh sigh geez jeez nah ach oops oop whoops welp um uh er eh ah bof euh bah oups
enrol enroll enrolling register become member reinstate renew sign signing join joining
a an the some any i im i'm me my mine we us our you your it its it's that this these those them
him her youve youre ive weve
they one ones please pls thanks thank hi hello hey can could would will shall should do does did
have has had get got give want wanted need needed like love looking look find search show tell
see browse for to of in on at from with and or but also too just only really actually maybe
something anything stuff thing things is are was be been am there here what which whats how
much many about more some kind sort type lot lots please let lets let's go shop shopping store
buy purchase order add put cart basket now today then so ok okay yes sure yeah new id ill
make remove where check out apply code discount deal offer come doe second third first last
number two three four five six seven eight nine ten twelve dozen couple pair another fewer cancel
rate star
subscribe switch place pause resume know tip return book reserve schedule available price
cheap where when who why up into over under below above less than cost pickup collect
instead rather prefer oh well hmm sell sold toppings topping options option extras extra
addons addon ons
choices choice variants variant morning afternoon evening tonight weekend am pm monday
tuesday wednesday thursday friday saturday sunday january february march april may june july
august september october november december jan feb mar apr jun jul aug sep sept oct nov dec
delivery deliver
take great good sound sounds ahead fine perfect cool nice sure yep yeah yup alright right
thing great wonderful awesome lovely mind anymore yet either neither also else exactly
half few several those these least expensive cheapest lowest priced pricey not no
think guess suppose believe reckon probably pense crois
tin tins bottle bottles jar jars packet packets sachet sachets bouteille bouteilles
total altogether zero none aucun aucune
je j tu il elle nous vous on le la les l un une des du de d au aux et ou en pour avec mon ma
mes votre vos ton ta moi quel quelle quels quelles lequel laquelle cherche cherchez voudrais
veux voulez aimerais ajoute ajoutez ajouter
mets mettez mettre panier commande commander montrez montre montrer avez avons est que qui
quoi s il te plait svp merci oui non achete achetez acheter trouve trouvez combien prix moins
cher chere plus bonjour ce cette ces celui celle-la celui-la ceux-la y a sil plait
said meant dit jen prend prends prenez prendre prenons retirez retire retirer enlevez enleve
enlever supprimez
supprime supprimer donnez donne donner voulais aimerais faut maintenant finalement plutot
deux trois quatre cinq sept huit neuf dix onze douze douzaine paire quelques huitaine dizaine
quinzaine vingtaine trentaine
quand comment pourquoi peux peut pouvez puis dois doit faut si aussi encore tres bien tout tous
toute toutes sont etre avoir fait faire mais ou sur dans chez par vers ca cela ceci voici voila
accord dacc parfait alors bon celle celui-ci celle-ci ceux-ci ceux celles garde choisis choisi
""".split()) | frozenset("""
janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre janv fevr
avr juil sept oct nov dec lundi mardi mercredi jeudi vendredi samedi dimanche matin midi soir
soiree apres-midi demain aujourdhui prochain prochaine semaine h heure heures
t ti est-ce qu quest-ce quoi-ce on peut-on pourrait pourriez pourrais auriez aurais serait
voudriez as-tu avez-vous vends vendez livrez livre-t-on emporter magasine magasiner magasinage
dispo disponible disponibles merci bcp stp ben bon alors genre juste fois
adherer adhere inscrire inscris rejoindre souscrire
as comme correct budget max maximum balles qqch truc trucs quelque chose offrir
pas ne n meme disons mettons say
""".split())  # French: days, months, times, question frames ("est-ce", "y a-t-il"), the tu forms
# and the « pas » of a question asked in the negative (« vous auriez pas des mugs ? »), as
# English's "not" and "no" above; a count hedged (« disons quatre », "say four") names no thing
_WORD = re.compile(r"[a-z0-9]+")
# French elided articles and pronouns ("l'assiette", "d'encre", "qu'il"): the word after is
# what is meant.
_ELISION = re.compile(r"\b(?:[ldjmtsnc]|qu|jusqu|lorsqu|puisqu)'(?=\w)")
# A French verb of wanting, taking or selling in any person and tense ("prendrai",
# "voudrions", "vendez"), folded: it says what to do, never which product.
_FRENCH_VERB = re.compile(r"(?:prend|prenn?|voudr|voul|aim|aimer|souhait|souhaiter|achet|achete|"
                          r"ajout|ajouter|vend|command|commander|trouv|trouver|cherch|chercher|passe|passez|passer|"
                          r"passons)"
                          r"(?:e|es|ent|ez|er|ons|ais|ait|aient|ai|as|a|ions|iez|re|s|z|"
                          r"ra|ras|rai|rez|rons|ront|rais|rait|rions|riez)?")


def without_elision(text: str) -> str:
    return _ELISION.sub(" ", text)


def french_verb(word: str) -> bool:
    return _FRENCH_VERB.fullmatch(fold(word)) is not None
_MONEY = (r"(?:[$£€¥]\s*[\d,]+(?:\.\d+)?|[\d,]+(?:\.\d+)?\s*"
          r"(?:dollars?|usd|euros?|eur|pounds?|gbp|yen|jpy|[$£€¥]))")
# (an id may be glued to the Japanese after it: 「ord_…の状況は？」)
_ORDER_ID = re.compile(r"\bord_[0-9a-z]+(?![0-9a-z_])")


def stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 5 and word.endswith("eaux"):  # French: "cadeaux", "gâteaux", "plateaux"
        return word[:-1]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=4096)
def words(text: str) -> tuple[str, ...]:
    """Every word of `text`, folded and singular."""
    return tuple(stem(word) for word in _WORD.findall(fold(text).replace("'", "")))


@lru_cache(maxsize=4096)
def content_words(text: str) -> frozenset[str]:
    """The words of `text` that can name a product."""
    said = _WORD.findall(fold(without_false_friends(text)).replace("'", ""))
    return frozenset(stem(word) for before, word in zip(["", *said], said, strict=False)
                     if not is_stop(word, before) and not any(ch.isdigit() for ch in word))


# Verbs of the shop that are also things it sells: "book a class", "a book to learn Rust".
_ALSO_NOUNS = frozenset({"book"})
_DETERMINERS = frozenset("a an the any some good your my this that which what new".split())


def is_stop(word: str, before: str = "") -> bool:
    """Whether a folded word carries no product meaning, as written or made singular
    ("moins" is "moins", not "moin"); a shop verb that is also a product is a noun in the
    plural or after a determiner ("books", "a book")."""
    base = stem(word)
    if base in _ALSO_NOUNS and (word != base or before in _DETERMINERS):
        return False
    if word in STOP or base in STOP:
        return True
    # "est-ce", "a-t-il", "peut-on": a question's inversion is made of function words only
    parts = [part for part in word.split("-") if part]
    return len(parts) > 1 and all(part in STOP for part in parts)


# French product words whose accents alone tell them from an English function word: folded
# (and in the search index, which folds too) "thé" is "the".
# Who a thing is for, said by what they love ("a gift for a tea lover", "for someone who
# likes coffee", "un cadeau pour quelqu'un qui aime le thé"): the thing loved names the
# product; the gift and the person do not.
# The people a gift is for ("my dad", « ma sœur »): never the product.
_PEOPLE = ("mum mom mother mama dad father papa sister brother wife husband partner boyfriend "
           "girlfriend colleague coworker boss friend friends grandma grandmother grandpa "
           "grandfather son daughter kid kids child teacher neighbour neighbor host hostess "
           "parents aunt uncle niece nephew cousin mere maman pere soeur frere femme mari "
           "copain copine collegue patron patronne grand-mere grand-pere fils fille enfant "
           "enfants ami amie amis voisin voisine hote tante oncle cousine parents")
_FOR_WHOM_CUE = re.compile(r"\b(?:(?:gift|present|cadeau)s? (?:for|pour) "
                           r"(?:(?:my|a|an|our|ma|mon|mes|un|une|notre) )?"
                           rf"(?:{'|'.join(_PEOPLE.split())})\b|"
                           r"lovers?|fans?|enthusiasts?|addicts?|(?:someone|somebody|people|"
                           rf"friend|person|{'|'.join(_PEOPLE.split())}) (?:who|that|qui)|"
                           r"qui (?:aime|adore)|amateurs? d|passionne|"
                           r"(?:she|he|they|elle|il|ils|elles) "
                           r"(?:loves?|likes?|adores?|enjoys?|aiment|aime|adorent|adore)\b)")
_FOR_WHOM = frozenset(f"""gift gifts present presents lover lovers fan fans enthusiast enthusiasts
addict addicts someone somebody people person friend who likes like loves love adores cadeau
cadeaux quelqu'un quelquun qui aime adore amateur amateurs passionne passionnee personne ami
amie that enjoys enjoy into drinks drink reads read does practices practises bakes cooks makes
lot lots really big huge boit lit fait pratique cuisine beaucoup vraiment adorent aiment
obsessed obsede obsedee his her he's hes she's shes their
she he they elle ils elles {_PEOPLE}""".split())


def for_whom(text: str) -> bool:
    """Whether `text` says who a thing is for by what they love."""
    return _FOR_WHOM_CUE.search(fold(text)) is not None


def without_the_recipient(kept: list[str]) -> list[str]:
    """The product words of a request that says who it is for: the gift and the person
    gone, unless nothing else is left."""
    left = [word for word in kept if fold(word) not in _FOR_WHOM]
    return left or kept


# The English values of a colour or a size: what a variant says, never what a product is.
_LOOKS = frozenset({"blue", "white", "black", "red", "green", "yellow", "grey", "gray", "pink",
                    "purple", "brown", "beige", "oat", "gold", "silver", "speckled", "small",
                    "medium", "large"})


def without_looks(kept: list[str]) -> list[str]:
    """The words of a French request without its colour and size adjectives ("un grand mug
    bleu" → mug): they choose the variant (choices.py reads them from the whole message), and
    in a search they match other items' descriptions ("émaillé bleu"). Kept when nothing else
    is left ("le bleu")."""
    rest = [word for word in kept
            if not (looks := english_option_words(word)) or not looks <= _LOOKS]
    return rest or kept


# "the other one", « l'autre », 「もう一つの方」: of two things shown, the one not offered.
_OTHER_ONE = re.compile(r"\b(?:the other(?: one)?|l'autre|(?:celui|celle) d'a cote)\b(?! "
                        r"(?:colou?r|size|couleur|taille|option))|もう一つの(?:方|ほう)|もう片方|"
                        r"もう一方|別の(?:方|ほう)")


def the_other_one(text: str) -> bool:
    return _OTHER_ONE.search(fold(text)) is not None


def names_more_than_looks(text: str) -> bool:
    """Whether the words name a thing, not only its colour or size ("a blue one please")."""
    return any(not (looks := english_option_words(word)) or not looks <= _LOOKS
               for word in content_words(text) if word not in _LOOKS)


def without_false_friends(text: str) -> str:
    """`text` with "thé" as the English word the catalogs write ("tea"), typed with its
    accent or, after a French article, without (« aime le the », « du the vert »)."""
    text = re.sub(r"\b(le|du|de|au|aux|les|des|d'|l')\s*thes?(?!\w)", r"\1 tea", text,
                  flags=re.IGNORECASE)
    return re.sub(r"\bthés?(?!\w)", "tea", text, flags=re.IGNORECASE)


# A month by its name or its abbreviation: "2 margheritas" is two pizzas, not 2 March.
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")


def _without_measures(text: str) -> str:
    text = re.sub(_MONEY, " ", text)
    text = re.sub(r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*o'?\s?clock\b", " ", text)
    # A unit ends its word: "2 classic" is a count before "classic", not "2 cl".
    text = re.sub(rf"\b\d+(?:[.,]\d+)?\s*-?\s*{NO_COUNT_UNIT}(?![a-z])", " ", text)
    text = re.sub(r"\b\d+(?:st|nd|rd|th)\b", " ", text)
    text = re.sub(rf"\b{_MONTH}\.?\s+\d{{1,2}}\b", " ", text)
    text = re.sub(rf"\b\d{{1,2}}\s+{_MONTH}(?![a-z])", " ", text)
    # an id ("ord_8f3", "a5") or a year; "x3" is a count
    # or a year, unless what it counts follows it ("100000 planters")
    # (the id ends where Japanese begins: "a5のノートを3冊" keeps "のノートを3冊")
    text = re.sub(r"\b(?!x\d{1,3}\b)[a-z]+\d+[a-z0-9_]*", " ", text)
    return re.sub(r"\b[1-9]\d{3,}\b|\b0\d{3,}\b", lambda number: number.group()
                  if number.group()[0] != "0" and quantities.LONG_COUNT.match(text, number.end())
                  else " ", text)


# French number words a rating says ("trois étoiles"), accents folded away.
_FRENCH_NUMBERS = {"un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5}
# Japanese counters: a number with one is a count, never part of a product's name.
_COUNTER = r"(?:つ|個|冊|枚|本|杯|点|箱|袋|缶|台|名|人|客|脚|組|セット)"


def without_sizes(text: str) -> str:
    """`text` folded, without volumes, weights and lengths ("the 30 cl kyusu" → "the kyusu"):
    a name writes its size in its own unit, if at all, so a search does not need it."""
    return SIZE_WITH_UNIT.sub(" ", fold(text))


def names_a_measure(text: str) -> bool:
    """Whether `text` names a size or a measure ("100グラム", "the 12 oz"), per the normalize
    stage's number tags."""
    return any(tag.kind == "measure" for tag in normalized.reading(text).numbers)


def without_measures(text: str) -> str:
    """`text` without sizes, prices, times and dates: their numbers are never counts."""
    return _without_measures(fold(text))


# How many, and how many more or fewer: the one reader is `language.quantities`; these names
# stay for the many stages that ask them.
quantity = quantities.how_many


def without_choice_group(text: str) -> str:
    """`text` without the group a choice is made among ("le plus cher des deux" → "le plus
    cher"), so that no later reading takes its number for a count."""
    found = normalized.reading(text)
    return remove_spans(found.folded, list(found.among)) if found.among else text


@lru_cache(maxsize=4096)
def ordinal(text: str) -> int | None:
    """The position named ("the second one", "number 2", "the last"), 0-based; -1 is last."""
    index = index_named(fold(text))
    return index if index is not None else normalized.ordinal(text)  # "le premier", "2番目"


# A Japanese position with its counter ("2番目の", "3つ目", "二枚目"): the one picked, never
# how many.
_JA_POSITION = re.compile(r"[\d０-９一二三四五六七八九十]+\s*"
                          r"(?:番目|つ目|個目|本目|枚目|冊目|袋目)")


def counted_beside_position(text: str) -> bool:
    """Whether a count is said beside a Japanese position ("2番目のを3つ": three of the
    second)."""
    return bool(_JA_POSITION.search(text)) and quantity(_JA_POSITION.sub(" ", text)) is not None


@lru_cache(maxsize=4096)
def price_bounds(text: str) -> dict[str, str]:
    """maxPrice / minPrice from "under $20", "less than 3000 yen", "between 10 and 30",
    "moins de 15 €", "1500円まで" (the normalize stage first, then any limit word)."""
    limits, _ = normalized.price_limit(text)
    return limits or bounds_by_limit_word(text)


def excluded_prices(text: str) -> frozenset[Decimal]:
    """The limit amounts a request leaves out ("under $22": a $22 item is not under it)."""
    return normalized.excluded_limits(text)


def price_currency(text: str) -> str | None:
    """The currency a price limit names ("under €15" → EUR), or None."""
    return normalized.price_limit(text)[1]


# Japanese: particles split a sentence into its phrases; these phrases never name a product.
_JA_PARTICLES = re.compile(r"[をはがにでともへやの、。？！?!「」\s]+")
_JA_FILLER = re.compile(r"^(?:カート|追加|注文|確定|予約|購入|商品|お店|店|それ|これ|あれ|"
                        r"ありますか|あります|あり|ある|見せて|探して|見たい|欲しい|ほしい|"
                        r"入れて|追加して|ください|下さい|お願い|して|買いたい|買う|どれ|"
                        r"どの|何|なに|です|すか|ますか|いくら|一番|します|いい|よろしく|買い$|買っ|"
                        r"ありがとう|ね$|よ$|人$|方$|以下|以上|未満|以内|まで$|くらい|程度|うち$|"
                        # "among them" (お茶の中で一番安いもの): the kind is said before it
                        r"中$|なか$|中から$|もの$|やつ$|"
                        r"送って|送る$|届けて|届ける$|"
                        # a plan's acts and when ("いつでも解約"): what is done, never the plan
                        r"(?:解約|退会|一時停止|休止|休会|再開|登録|申し?込み?|入会|加入|"
                        r"いつでも|いつ)$)")
# A marker that opens a reply ("じゃあ茶筅を", "それなら急須"): it names nothing.
_JA_OPENING = re.compile(r"^\s*(?:じゃあ|じゃ|では|それでは|それなら|なら|やっぱり|えっと|えーと|"
                         r"うーん)[、,\s]*")
# Who a thing is for, said by what they love ("お茶好き", "コーヒー好きの人"): the thing loved
# is the product word.
_JA_LOVER = re.compile(r"(?:好き|ずき|愛好家|ファン)(?:な人|の人|の方|さん)?$")
# Numbers with their counter or unit; a kanji numeral only with one (八女 is a place).
_UNIT_SPELLINGS = "|".join(sorted((re.escape(spelling) for _, spellings in UNITS.values()
                                   for spelling in spellings if spelling.isalpha()),
                                  key=len, reverse=True))
_JA_MEASURE = re.compile(rf"(?:半|\d+|[一二三四五六七八九十]+)?ダース|"
                         rf"\d+(?:\.\d+)?\s*(?:{_UNIT_SPELLINGS}|{_COUNTER}|パック|円)?|"
                         rf"[一二三四五六七八九十百]+(?:{_COUNTER}|パック)|"
                         rf"(?:ひと|ふた|みっ|よっ|いつ|むっ|なな|やっ|ここの)つ")


# ("できますか" whole: split at its で, it would leave a stray "き")
_JA_ENDING = re.compile(r"(?:できますか|できません|できる|ですか|ですね|です|しますか|します|"
                        r"しました|ますか|ます|"
                        r"でした|ました|でしょうか)"
                        r"(?=[、。？！?!\s]|$)")


_JA_ASSENT = re.compile(r"^\s*(?:はい|ええ|うん|いいですね|いいね)(?:[、,。!！\s]+|$)")
_JA_DEMONSTRATIVE = re.compile(r"(?:この|その|あの)(?=[\u3040-\u30ff\u4e00-\u9fff])")


def re_japanese(text: str) -> bool:
    return in_japanese_script(text)


def japanese_query(text: str) -> str:
    """The product phrases of a Japanese request ("300mlの急須をカートに追加して" → 急須)."""
    # (the shopper collecting it, "お店で受け取ります", names no product)
    plain = _DEAREST.sub(" ", _CHEAPEST.sub(" ", _JA_MEASURE.sub(" ", fold(without_collecting(
        text)))))
    plain = _JA_WHAT.sub(" ", _JA_SOFTENED.sub(" ", plain))  # before the particles split them
    plain = _JA_ENDING.sub(" ", plain)  # before the particles split "です" at its で
    # assent before a request ("はい、1枚ください") and "この/その/あの" before a noun, before the
    # particles split them into a stray "い" or "こ"
    plain = _JA_OPENING.sub(" ", _JA_ASSENT.sub(" ", _JA_DEMONSTRATIVE.sub(" ", plain)))
    plain = _JA_ALSO.sub(" ", plain)  # "抹茶、あと茶筅": a joiner, no stray "あ"
    phrases = [_JA_ADJECTIVE.sub("", _JA_LOVER.sub("", _JA_PREDICATE_TAIL.sub("", part)))
               for part in readings.spaced_kana_words(plain, _JA_PARTICLES.split)
               if part and not _JA_FILLER.match(part) and not readings.names_nothing(part)]
    return " ".join(_JA_HONORIFIC.sub("", part) for part in phrases if part)


# A clause's softened ending after its predicate ("ほしいんだけど", "欲しいんですが",
# "探してるんですけど", "ないかな", "ほしいなあ"): the explanatory ん/の, the copula, a
# trailing けど/が and a final particle say how it is asked, never what. The の of "青いの" (the
# blue one) stays: it is cut only with what follows it.
_CLAUSE_END = r"(?=\s*(?:[、。？！?!…]|$))"
_JA_SOFTENED = re.compile(
    r"(?<=[いるてたすう])(?:[んの](?:(?:です|だ|でしょう)(?:けど|けれど(?:も)?|けども|が)?|"
    r"けど|けれど(?:も)?|けども|が)|けど|けれど(?:も)?|けども)(?:ね|な|なあ|よ|か|かな)?"
    + _CLAUSE_END + r"|(?<=しい|たい|ない|ある)(?:なあ|かな|かなあ|な|よ|ね)" + _CLAUSE_END)
# What a question asks with ("なにがある？", "どんなお茶", "何かおすすめ"): no product's word.
_JA_WHAT = re.compile(r"(?:どんな|どういう|どのような)(?:の|もの|やつ)?|"
                      r"(?:なに|何)か?(?=[がをはも\s、。？！?!]|$)|おすすめ|オススメ|お勧め")


_JA_ALSO = re.compile(r"(?:^|(?<=、))\s*(?:それと|あと|それから)|および|及び")


# A colour or size said before the noun with no particle ("青いマグ", "大きいお皿", "白い急須"):
# an option of the item (option_words.py reads it from the whole message), never part of its
# name. Only when a noun follows: "青いの" alone is the option itself.
_JA_ADJECTIVE = re.compile(r"^(?:(?:青|白|赤|黒|黄色|茶色|大き|小さ|長|短)い|(?:大き|小さ)な)(?=.)")


# What a phrase says of its noun when no particle sets them apart ("茶筅ありますか",
# "急須ほしい", "ノートください"): the predicate, never part of a product's name; with its
# particle when a kind said in English left it apart ("stationery をください").
_JA_PREDICATE_TAIL = re.compile(r"(?:^[をがは])?(?:あり|ある|ない|なし|欲しい|ほしい|ください|"
                                r"下さい|お願い|見せて|探して(?:い|いる|る)?|入れて|追加して|したい|買いたい|頂戴|ちょうだい|"
                                r"申し?込み?(?:たい|ます)|入り(?:たい|ます)|始めたい)+$")


def names_a_thing(text: str) -> bool:
    """Whether the words name something to buy: a content word, or a Japanese noun phrase."""
    if content_words(text):
        return True
    return re_japanese(text) and bool(japanese_query(text).strip())


# Hiragana and katakana hold the same sounds 0x60 code points apart (きゅうす, キュウス).
_HIRAGANA = "".join(chr(code) for code in range(0x3041, 0x3097))
_KATAKANA = "".join(chr(code + 0x60) for code in range(0x3041, 0x3097))
_TO_KATAKANA = str.maketrans(_HIRAGANA, _KATAKANA)
_TO_HIRAGANA = str.maketrans(_KATAKANA, _HIRAGANA)


def kana_spellings(text: str) -> list[str]:
    """Other ways to write a Japanese query: in katakana, in hiragana, and without long-vowel
    marks (ティーポット, ティポット), each different from `text`."""
    spellings = [text.translate(_TO_KATAKANA), text.translate(_TO_HIRAGANA),
                 text.replace("ー", "")]
    return list(dict.fromkeys(spelling for spelling in spellings if spelling != text))


# The polite prefix of a noun (お茶, お皿, ご飯): the noun is what names the product.
_JA_HONORIFIC = re.compile(r"^[おご](?=[\u4e00-\u9fff])")


# The order by price, by its parts rather than by phrase: a superlative or comparative of
# cheapness or dearness ("least costly", "most affordable", "costs the least", "le moins
# onéreux", "最安", "一番高い"), in any of the three languages.
_ADJ_DEAR = r"(?:expensive|costly|pricey|dear)"
_FR_DEAR = r"(?:chere?s?|couteu(?:x|se|ses)|onereu(?:x|se|ses))"
_CHEAPEST = re.compile(rf"\b(?:cheap(?:est|er)?|least {_ADJ_DEAR}|less {_ADJ_DEAR}|"
                       rf"not (?:too |very |that |so )?{_ADJ_DEAR}|"
                       r"most (?:affordable|economical|budget[- ]friendly)|"
                       r"low(?:est)?[- ]?(?:priced?|cost)|lowest (?:price|cost)|"
                       r"cost(?:s|ing)? (?:the )?least|(?:the )?best price|budget|inexpensive|"
                       r"affordable|le meilleur prix|le prix le plus bas|"
                       r"reasonably priced|(?:most|very) reasonable|entry[- ]level|"
                       # sorting: "low to high", "price ascending", « prix croissant »
                       r"(?:price )?low(?:est)? to high(?:est)?|(?:by )?price ascending|"
                       r"ascending price|(?:par )?prix croissants?|"
                       r"du moins cher au plus cher|"
                       rf"(?:le|la|les)? ?moins {_FR_DEAR}|(?:le|la|les)? ?plus (?:abordables?|"
                       r"economiques?)|bon marche|pas chere?s?)\b|"
                       r"一番安い|一番安|最も安い|最も安|最安値|最安|安い|安め|安価な?|格安の?|"
                       r"(?:値段|価格|お値段)(?:が|の)(?:一番)?安い|(?:お)?手頃な?|リーズナブルな?")
_DEAREST = re.compile(rf"\b(?:most {_ADJ_DEAR}|priciest|dearest|pricier|more {_ADJ_DEAR}|"
                      r"highest[- ]?(?:priced?|cost)|highest price|cost(?:s|ing)? (?:the )?most|"
                      rf"top[- ]end|premium|(?:le|la|les)? ?plus {_FR_DEAR}|haut de gamme|"
                      r"high[- ]end|top of the (?:range|line)|fanciest|most luxurious|"
                      r"(?:le|la|les)? ?plus luxueu(?:x|se)s?|"
                      # sorting: "high to low", "price descending", « prix décroissant »
                      r"(?:price )?high(?:est)? to low(?:est)?|(?:by )?price descending|"
                      r"descending price|(?:par )?prix decroissants?|"
                      r"du plus cher au moins cher)\b|"
                      r"一番高い|一番高|最も高い|最も高|最高級|高級な?|高価な?|高い順|高いほう|高い方|"
                      r"(?:値段|価格|お値段)(?:が|の)(?:一番)?高い")


def without_price_order(text: str) -> str:
    """The text without "the cheapest", "le moins cher" and the like (they sort, not match)."""
    return _DEAREST.sub(" ", _CHEAPEST.sub(" ", text))


@lru_cache(maxsize=4096)
def price_order(text: str) -> dict[str, str]:
    """{"sort": …} when the person asks for the cheapest or the dearest of a kind."""
    folded = fold(text)
    if _CHEAPEST.search(folded):
        return {"sort": "price_asc"}
    if _DEAREST.search(folded):
        return {"sort": "price_desc"}
    return {}


# Where one item ends and the next begins: "a glaze mug and two dinner plates", "un mug et
# deux assiettes", "玄米茶と急須" (Québec's "pis" is "et"). The next item starts with a count or
# an article; a list after "with" is the first item's add-ons ("a mug with a gift box and a
# coaster"), not new items.
_NEXT_ITEM = re.compile(
    r"(?:,\s*(?:and then\s+|and\s+|then\s+|plus\s+|et\s+|puis\s+|pis\s+|ensuite\s+)?|"
    r"\s+(?:and then|and|then|plus|as well as|"
    # « vingt et une », « soixante et onze »: a number's own « et » joins no two items
    r"(?:(?<!vingt )(?<!trente )(?<!quarante )(?<!cinquante )(?<!soixante )et|"
    r"et(?!\s+(?:un|une|onze)\b))|"
    r"aussi|puis|pis|ensuite)\s+|\s*[&+]\s*|"
    # "with" before a count of several: an item of its own unless the item before has it as
    # an extra (« une lasagne avec deux tiramisus »; "a caesar with 2 anchovies" once read)
    r"\s+(?:with|avec)\s+(?=(?:two|three|four|five|six|deux|trois|quatre|cinq|\d+)\s+"
    r"(?!(?:ml|cl|g|grams?|kg|oz|ounces?|cm|mm|inch(?:es)?|in|seats?|users?|places?|postes?|"
    r"pouces?|people|persons?|personnes?|licen[cs]es?|min(?:utes?)?|hours?|heures?)\b)[a-z]))"
    r"(?=(?:also\s+)?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|some|the|"
    r"all\s+\d+\s+of|"
    r"\d+|half|un|une|des|deux|trois|quatre|cinq|six|le|la|les|du)\b)|"
    # joiners no product name holds: "a lasagna as well as tiramisu", « ainsi que »
    r",?\s+(?:as well as|along with|together with|ainsi que|and also|et aussi)\s+")
_TITLES_JOINED = re.compile(r"(?<=[a-z])\s+(and|et)\s+(?=(?!I\b)[A-Z][a-z])")
_TITLED = re.compile(r"\b[A-Z][a-z]+\s+[A-Z][a-z]+\s+(?:and|et)\s+[A-Z]")
# Inside a list already read, a comma before a bare noun starts another item too
# ("arancini, caesar salad, 2 tiramisu"), unless what follows only qualifies the one before.
_BARE_COMMA = re.compile(r",\s*(?!(?:with|without|no|not|extra|hold|but|please|thanks|sans|"
                         r"avec|pas|mais|merci|s'il|svp|en|in|size|taille)\b)(?=[a-z])")
_WITH = re.compile(r"\b(?:with|avec|plus extra)\b")
_WITH_JOINER = re.compile(r"\s+(?:with|avec)\s+")  # "with" before a count, not "along with"
# Extras added onto the item just named, with no count or article of a new thing ("kale
# caesar, add grilled chicken and an egg"): a "with" list (", extra cheese" is an option).
_ADDING_TO_IT = re.compile(r"(?<=\w),\s*(?:and\s+|then\s+)?(?:add|adding|plus|"
                           r"and add|topped with)\s+(?!(?:a|an|one|two|three|four|five|some|the|"
                           r"another|\d+)\b)(?=\w)")
# A piece that starts with a size or a seat count is an option of the item before it ("a
# margherita, 16 inch, with mushrooms"; "the font licence, 5 seats, with web fonts").
_OPTION_FIRST = re.compile(r"\s*\d+(?:[.,]\d+)?\s*-?\s*(?:ml|cl|dl|l|litres?|liters?|g|grams?|kg|"
                           r"oz|ounces?|cm|mm|inch(?:es)?|in|\"|seats?|users?|places?|postes?|"
                           r"pouces?)(?![a-z])")
# A piece that says the thing before it again, by a pro-form ("the green tea that is roasted,
# the stems one"), or only how many of it in packs ("hojicha, 2 bags please"): no new item.
_SAME_THING = re.compile(
    r"\s*(?:the|that|this)\s+(?:[\w'-]+\s+){1,3}?ones?\b(?!\s+(?:of|and|with)\b)|"
    r"\s*\d+\s+(?:bags?|packs?|packets?|tins?|jars?|bottles?|boxes|box|pieces?|portions?|"
    r"servings?|sachets?|paquets?|bouteilles?)\s*(?:please|pls|plz|thanks|svp)?[\s.!]*$")
_ADDED = re.compile(r"\b(?:and|plus|then|also|et|puis|pis|ensuite|aussi|as well as|along with|"
                    r"together with|ainsi que)\b")
# "and a half" after a count goes on counting ("a dozen and a half plates", "two and a half
# kilos"): it starts no item of its own.
_HALF_MORE = re.compile(r"(?:a\s+)?half\b")
_ENDS_IN_COUNT = re.compile(r"(?:\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                            r"twelve|dozen|dozens|\d+)|\d)\s*$")
_SHARED = re.compile(r",?\s*\b(?:both|each|all of them|all(?!\s+\d)|tous les deux|toutes les deux|"
                     r"chacun|chacune)\b\s*(?:in\s+|en\s+)?(.+)$")


# "と" joins two items ("玄米茶と急須"), but not inside a count or an adverb ("ひとつ", "ちょっと").
# Japanese list joiners: と, や (between two nouns: "玄米茶や茶筅"), および/及び, それと/あと
# after a comma; never the と of ひとつ, ちょっと, もっと.
_JA_NOUN_CHAR = r"[\u4e00-\u9fff\u30a0-\u30ff]"
_JA_AND = re.compile(rf"(?<![ひっ])と|、(?:それと|あと|それから)?|"
                     rf"(?<={_JA_NOUN_CHAR})や(?={_JA_NOUN_CHAR})|および|及び")


def _japanese_items(folded: str) -> list[str]:
    """A Japanese message cut where it joins two items; a word spaced apart in kana is cut
    only by the と that ends it (ぎふとかあど is one word, "ほうじちゃと ちゃせん" two)."""
    if len(folded.split()) < 2:
        return re.split(_JA_AND, folded)
    pieces = [""]
    for chunk in folded.split():
        if readings.is_hiragana(chunk):
            joined = chunk.endswith("と") and len(chunk) > 1
            pieces[-1] += " " + (chunk[:-1] if joined else chunk)
            pieces += [""] if joined else []
        else:
            cut = re.split(_JA_AND, chunk)
            pieces[-1] += " " + cut[0]
            pieces += cut[1:]
    return [piece.strip() for piece in pieces]


# Whether a piece said after an item's "with" list is more of that item (True: "a caesar
# with chicken and anchovies") or an item of its own (False: "…with chicken and 2 san
# pellegrinos"). Only the item's own options and add-ons tell, so the caller that has read the
# item decides; given none, the piece stays with the item.
Belongs = Callable[[str, str], bool]


@lru_cache(maxsize=1024)
def things_asked_about(text: str) -> tuple[str, ...]:
    """The items a question about several things names, one phrase each ("do you have the
    glaze mug and the espresso cups?"); () when it names fewer than two, or compares them by
    price or bounds them by one ("which is cheaper, …", "between 10 and 12 dollars")."""
    if price_bounds(text) or price_order(text):
        return ()
    phrases = item_phrases(text)
    return phrases if len(phrases) > 1 and all(map(_names_any_thing, phrases)) else ()


@lru_cache(maxsize=1024)
def item_phrases(text: str) -> tuple[str, ...]:
    """The items one message asks for, each with its own words and count."""
    return tuple(whole for _, whole in item_mentions(text))


def item_mentions(text: str, belongs: Belongs | None = None,
                  configures: Belongs | None = None) -> tuple[tuple[str, str], ...]:
    """(head, whole) of each item one message asks for (`_mentions`), read line by line in a
    list written on lines or after a lead-in ("can you add:\n- 2 tiramisu\n- a lasagna")."""
    lines = item_lists.listed_lines(text, _names_any_thing)
    if len(lines) > 1 or lines[0] != text:
        found = tuple(mention for line in lines
                      for mention in _mentions(line, belongs, configures))
        if len(found) > 1:
            return found
    return _mentions(text, belongs, configures)


def _names_any_thing(line: str) -> bool:
    if in_japanese_script(line):
        return bool(japanese_query(line).strip(" -"))
    return _names_a_thing(line)


def _mentions(text: str, belongs: Belongs | None,
              configures: Belongs | None) -> tuple[tuple[str, str], ...]:
    """The items of one list, a count said for each of them ("…, two of each", 「2つずつ」)
    given to every one."""
    listed, each = item_lists.count_for_each(text)
    if each is not None:
        found = _list_mentions(listed, belongs, configures)
        if len(found) < 2:
            found = _list_mentions(_BARE_AND.sub(" and the ", listed), belongs, configures)
        if len(found) > 1:
            return tuple((head, item_lists.with_count(whole, each)) for head, whole in found)
    each_one = _each_its_own(text, configures)
    if each_one:
        return each_one
    found = _list_mentions(text, belongs, configures)
    if len(found) < 2 and _FOR_BOTH.search(fold(text)) and not in_japanese_script(text):
        # "margherita and diavola, both large": what is said of both joins two things
        apart = _list_mentions(_BARE_AND.sub(" and the ", text), belongs, configures)
        return apart if len(apart) > 1 else found
    return found


# A count of one item, then what each one is ("two mugs, one blue and one speckled", "2 lattes
# one oat one regular", « deux mugs, un bleu et un moucheté »).
_EACH_ONE = re.compile(r"^(?P<head>.*?\b(?P<n>\d+|two|three|four|deux|trois|quatre)\s+[^,:]*?)"
                       r"\s*[,:-]?\s+(?P<rest>(?:one|un|une)\s.*)$")
_ONE_SPLIT = re.compile(r"\s*(?:,|;)?\s*(?:\b(?:and|et|plus)\s+)?(?=\b(?:one|un|une)\s)")
_ONE = re.compile(r"^\s*(?:one|un|une)\s+(?:in\s+|en\s+)?")


def _each_its_own(text: str, configures: Belongs | None) -> tuple[tuple[str, str], ...]:
    """One line per "one …" piece after a count of one item, each with its own options, when
    there are as many pieces as the count and each says only options of that item; () when
    the message says no such thing."""
    found = _EACH_ONE.match(fold(text).strip(" .!"))
    if found is None or in_japanese_script(text):
        return ()
    said = found.group("n")
    count = quantities.how_many(said)
    pieces = [_ONE.sub("", piece).strip(" ,") for piece in _ONE_SPLIT.split(found.group("rest"))
              if piece.strip(" ,")]
    head = found.group("head")
    if len(pieces) != count or not all(_options_only_english(piece) or (
            names_a_measure(piece) and not _names_a_thing(piece)) or (
            configures is not None and configures(head, piece)) for piece in pieces):
        return ()
    named = re.sub(rf"\b{re.escape(said)}\s+", "", head, count=1).strip()
    return tuple((f"{named} {piece}", f"1 {named}, {piece}") for piece in pieces)


# What is said of each of several things ("…, both large"): the "and" before it joins two.
_FOR_BOTH = re.compile(r",\s*(?:(?:in|en)\s+)?(?:both|each|all of them|tous les deux|"
                       r"toutes les deux|chacun|chacune)\b[^,]*$")


# "and" between two bare nouns ("plates and cups, three of each"), read as a joiner only once
# the message says something of each of them.
_BARE_AND = re.compile(r"\s+(?:and|et|&|\+)\s+(?!(?:a|an|the|one|two|three|un|une|le|la|les|des|"
                       r"deux|trois|\d+)\b)", re.IGNORECASE)


def _list_mentions(text: str, belongs: Belongs | None,
                   configures: Belongs | None) -> tuple[tuple[str, str], ...]:
    """(head, whole) of each item one message asks for: `whole` is its words with its count,
    options and add-ons, `head` the words it was named by (before any piece `belongs` joined
    to it), which is what finds it. A piece the item named before it `configures` (once read:
    "…cobalt mugs, the bigger 16 oz size", "…5ユーザー、Webフォント付きで") is that item's."""
    # "Python Design Patterns and Designing Distributed Systems": titles, each capitalized,
    # joined with no article between them, are two items
    folded = fold(_TITLES_JOINED.sub(r" \1 the ", text) if _TITLED.search(text) else text)
    folded = _ADDING_TO_IT.sub(" with ", folded)
    if in_japanese_script(folded):
        phrases: list[str] = []
        named_by: list[str] = []  # what found each item, before its options were joined
        for part in (part for part in _japanese_items(folded)
                     if japanese_query(part) and not _only_where(part)):
            if phrases and _options_only(part):
                phrases[-1] = f"{phrases[-1]}、{part}"  # "マグを2個、青で": the mug's colour
                named_by[-1] = phrases[-1]
            elif phrases and configures is not None and configures(named_by[-1], part):
                phrases[-1] = f"{phrases[-1]}、{part}"  # "…16インチ、オリーブ追加で": its toppings
            else:
                phrases.append(part)
                named_by.append(part)
        if len(phrases) == 1 and named_by[0] != phrases[0]:
            return ((named_by[0], text),)
        return tuple(zip(named_by, phrases, strict=True)) if len(phrases) > 1 else (
            (text, text),)
    heads: list[str] = []
    parts: list[str] = []
    joiners = ["", *(found.group() for found in _NEXT_ITEM.finditer(folded))]
    for joiner, piece in zip(joiners, _NEXT_ITEM.split(folded), strict=True):
        said_with = _WITH_JOINER.fullmatch(joiner) is not None
        after_with = bool(parts) and (said_with or _WITH.search(parts[-1]) is not None)
        # said again after a comma ("…, the stems one"), not added with "and" ("and the white one")
        again = _SAME_THING.match(piece) is not None and not _ADDED.search(joiner)
        if parts and _ADDED.search(joiner) and _HALF_MORE.match(piece) and _ENDS_IN_COUNT.search(
                parts[-1]):
            parts[-1] = heads[-1] = f"{parts[-1]}{joiner}{piece}"  # "a dozen and a half …"
            continue
        # ("…, I'll pick them up at 7pm": how the order is had, no item of its own)
        if parts and (not (_names_a_thing(without_any_collecting(piece)) or points_at_one(
                piece) and _ADDED.search(
                joiner)) or _options_only_english(piece)
                      or _OPTION_FIRST.match(piece) or again or (
                after_with and (belongs is None or belongs(heads[-1], piece))) or (
                configures is not None and configures(heads[-1], piece))):
            # An add-on list, or a size or option of the item before ("a diavola, 16 inch").
            parts[-1] = f"{parts[-1]}{joiner if said_with else ', '}{piece}"
        else:
            heads.append(piece)
            parts.append(piece)
    if len(parts) == 1 and heads[0] != parts[0]:
        return ((heads[0], text),)  # one item, whose "with" list may hold others once read
    if len(parts) < 2 or not all(_names_a_thing(part) or points_at_one(part) for part in parts):
        return ((text, text),)
    shared = _SHARED.search(parts[-1])
    if shared:  # "a margherita and a diavola, both 12 inch": the size is each one's
        if parts[-1] == heads[-1]:
            heads[-1] = heads[-1][:shared.start()]
        parts[-1] = parts[-1][:shared.start()]
        parts = [f"{part}, {shared.group(1)}" for part in parts]
    return tuple((head if piece == part else piece, piece) for head, part in zip(
        heads, parts, strict=True) for piece in _bare_items(part))


# A piece of a list that names no product but points at one shown or just added ("4 of those
# and a hanging planter", "the second one and a tiramisu", « celui-là et un tiramisu »).
_POINTER = re.compile(r"\b(?:those|these|them|it|that|this|same|first|second|third|fourth|fifth|"
                      r"last|\d+(?:st|nd|rd|th|e|eme|ieme|er|ere)|premier|premiere|deuxieme|"
                      r"troisieme|dernier|derniere|(?:celui|celle|ceux|celles)-(?:la|ci))\b")


_LEADING_TALLY = re.compile(r"^\s*\d{1,3}\s+(?:of\s+)?")


def points_at_one(piece: str) -> bool:
    """Whether a piece of a list only points at an item in view, with maybe its count and
    the verb that asks for it ("add it", "4 of those", "the second one", « le deuxième »)."""
    folded = fold(piece)
    found = _POINTER.search(folded)
    if found is None:
        return False
    rest = _LEADING_TALLY.sub("", folded[:found.start()]) + " " + folded[found.end():]
    # a time, a date or a score said with it ("the 4th at 10am", "4 out of 5") is no pointing
    return not re.search(r"\d", rest) and not content_words(rest)


def _bare_items(part: str) -> list[str]:
    """A part of a list cut at its commas before bare nouns, when every piece names a thing
    and not only a look or a size of the one before ("mug, blue" stays one)."""
    pieces = _BARE_COMMA.split(part)
    if len(pieces) < 2 or _WITH.search(part) or not all(
            content_words(without_any_collecting(piece)) - ENGLISH_OPTION_WORDS - _LOOKS
            and not _OPTION_FIRST.match(piece) for piece in pieces):
        return [part]
    return pieces


def _only_where(phrase: str) -> bool:
    """A Japanese clause that only says where to send the order ("札幌市中央区北1条西2-1に送って")
    or that the shopper collects it ("お店で受け取ります"): no item of the list."""
    if collects_in_person(phrase) and not japanese_query(phrase).strip(" -"):
        return True
    found = find_address(phrase)
    if found is None:
        return False
    rest = _JA_SEND.sub("", phrase[:found.span[0]] + phrase[found.span[1]:])
    return not japanese_query(rest).strip(" -")


# "…に送って", "…まで届けてください", "…へ配送": the verb that sends to the address.
_JA_SEND = re.compile(r"(?:に|まで|へ)?\s*(?:送|届|配送|発送)[\u3040-\u309f]*"
                      r"(?:ください|下さい)?[。!！]?$")


def _options_only(phrase: str) -> bool:
    """A Japanese phrase that names only options ("青で", "12ozで", "大きいの"): each of its
    words an option word, so it belongs to the item before it."""
    parts = japanese_query(phrase).split()
    return bool(parts) and all(english_option_words(part) and (
        not re_japanese(part) or japanese_options_only(part)) for part in parts)


def is_look_word(word: str) -> bool:
    """Whether a folded word is a colour or finish, in English or as French and Japanese say
    one ("blue", "oat", « moucheté »)."""
    looks = english_option_words(word)
    return word in _LOOKS or bool(looks) and looks <= _LOOKS


def names_only_options(said: frozenset[str]) -> bool:
    """Whether content words name only options an item is taken in: a look, a size by rank or
    an option word ("all of them, 12 inch", "both in blue"), no product of their own."""
    return all(word in ENGLISH_OPTION_WORDS or word in SIZE_RANK_WORDS or is_look_word(word)
               for word in said)


def _options_only_english(piece: str) -> bool:
    """A piece whose naming words are only option words: a look, a size by rank or a measure
    ("the bigger one", "the 16 oz size", « la grande taille »), which is the item's before it."""
    folded = fold(piece)
    if price_order(folded):  # "…, la moins chère, format 12 pouces": which of the item
        folded = _DEAREST.sub(" ", _CHEAPEST.sub(" ", folded))
    said = content_words(_without_measures(folded))
    return bool(said) and not said - ENGLISH_OPTION_WORDS - _LOOKS - SIZE_RANK_WORDS


def _names_a_thing(text: str) -> bool:
    return bool(content_words(_without_measures(fold(text))))


def strip_prices(text: str) -> str:
    folded = fold(text)
    found = normalized.reading(text)
    for said in (found.price, found.spend):  # a limit or a sum to spend, its words too
        if said is None:
            continue
        start, end = said.span
        limit = fold(found.folded[start:end])
        if limit not in folded:  # « septante-deux euros »: its number words as read, digits
            folded = fold(fold_numbers(text, found.language))
        folded = folded.replace(limit, " ")
    folded = re.sub(r"\b(?:between|under|below|less than|cheaper than|up to|at most|"
                    r"max(?:imum)?|no more than|within|for less than|budget(?: of)?|over|above|"
                    r"more than|at least|min(?:imum)?|from)\s*[$£€¥]?\s*[\d,]+(?:\.\d+)?"
                    r"(?:\s*(?:and|-|to)\s*[$£€¥]?\s*[\d,]+(?:\.\d+)?)?"
                    r"(?:\s*(?:dollars?|usd|euros?|eur|pounds?|gbp|yen|jpy|bucks)\b)?", " ", folded)
    return re.sub(_MONEY, " ", folded)


def order_id(text: str) -> str | None:
    match = _ORDER_ID.search(fold(text))
    return match.group(0) if match else None


@lru_cache(maxsize=1024)
def address(raw: str) -> dict[str, str] | None:
    """The delivery address inside a message, without its lead-in, the name, e-mail or phone
    around it and its courtesy ("please send it to 742 Evergreen Terrace, Springfield, IL
    62704, thanks"): the normalize stage's `read_delivery`. None when it gives none."""
    found = read_delivery(raw)
    if found.address is None:
        return None
    return {"address": found.address, **({"countryCode": found.country_code}
                                          if found.country_code else {})}


@lru_cache(maxsize=1024)
def stars(text: str) -> int | None:
    folded = fold(text)
    if in_japanese_script(folded):
        folded = fold_numbers(folded, "ja")  # "星を四つ", "五つ星": kanji counts as digits
    if scored := re.search(r"5点満点(?:で|中|の)?\s*([1-5])点", folded):  # "5点満点で4点"
        return int(scored.group(1))
    match = re.search(r"\b([1-5])\s*(?:stars?|etoiles?|[⭐★🌟]|/\s*5|out of (?:5|five)|sur 5)|"
                      r"(?<!\d)([1-5１-５])\s*(?:つ星|点|星)|星\s*(?:を)?\s*([1-5１-５])", folded)
    if match:
        return int(unicodedata.normalize("NFKC", next(g for g in match.groups() if g)))
    match = re.search(r"\b(one|two|three|four|five|une|deux|trois|quatre|cinq)\s*(?:stars?|"
                      r"etoiles?|out of|sur cinq)", folded)
    if match:
        return NUMBER_WORDS.get(match.group(1)) or _FRENCH_NUMBERS[match.group(1)]
    drawn = len(re.findall(r"[⭐★🌟]", folded))  # "⭐⭐⭐⭐", "★★★☆☆": the stars filled in
    if 1 <= drawn <= 5:
        return drawn
    if re.search(r"\b(?:loved|perfect|excellent|amazing|great)\b", folded):
        return 5
    return None


def yes(text: str) -> bool:
    folded = fold(text)
    return re.match(r"\s*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|please do|go ahead|do it|sounds good|"
                    r"why not|perfect|that one|this one)\b(?!.*\b(?:not|don'?t)\b)",
                    folded) is not None or _THAT_ONE.fullmatch(folded) is not None


# "That one" in French and Japanese, said alone or with a please: the thing in view is taken
# ("celui-là s'il vous plaît", "va pour celle-ci", "それ", "あれで").
_THAT_ONE = re.compile(
    r"\s*(?:(?:alors|bon|ok|oui),?\s*)?(?:va pour |plutot |je veux |je prends )?"
    r"(?:(?:celui|celle|ceux|celles)-(?:la|ci)|ce(?:lui|lle) la|ca|cela)"
    r"(?:,?\s*(?:s'il (?:vous|te) plait|svp|stp|merci))?[\s.!]*|"
    r"\s*(?:それ|これ|あれ|そちら|こちら|あちら|そっち|こっち)(?:で|を|が|に)?"
    r"(?:お願いします|おねがいします|お願い|ください|下さい|します|にします|ね|で)?[。！!\s]*")


# What was just shown, pointed at: "that one", "this time", "book it", « celui-là », 「それで」.
_SHOWN = re.compile(r"\b(?:that|this|the same) (?:one|time|slot|session|class|day)\b|"
                    r"\b(?:book|reserve|take|want|get) (?:it|that|this)\b|"
                    r"\b(?:celui|celle)-(?:la|ci)\b|\b(?:ce|cet) (?:horaire|creneau)(?:-la)?\b|"
                    r"(?:それ|これ|その枠|この枠|その時間|この時間)")


def points_at_shown(text: str) -> bool:
    return _SHOWN.search(fold(text)) is not None or _THAT_ONE.fullmatch(fold(text)) is not None


def no(text: str) -> bool:
    return re.fullmatch(r"\s*(?:no|nope|no thanks|not now|never mind|nevermind)[\s.!,]*",
                        fold(text)) is not None
