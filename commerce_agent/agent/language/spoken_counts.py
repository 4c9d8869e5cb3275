"""Counts said the way people say them, written as plain counts before any stage reads them.

One pass per class, each knowing no product:

- a packaging or serving noun after a count is how the count is said, not a product: "two
  bag of genmaicha" → "2 genmaicha", "3 bottles of water", "2 portion", « deux sachets de
  thé » → « 2 thé »; a pack's size is the count: "a pack of 6 plates", « un paquet de 6 »,
  « un lot de trois » → "6", "3". Japanese counters (2袋, 3個, 二つ) are read by the number
  folding already. A unit of measure ("100 g", "300 ml") is never one of these: it stays
  the item's size.
- a word heard for a number in dictation, where a count is expected: a verb of getting, then
  "for"/"to"/"too"/"won", then the things counted ("need for margherita pizzas" → 4, "add to
  tiramisu and a lasagna" → 2, "add won bag of matcha" → 1); never "one for me", "add to my
  cart", "two for my mum", "want to buy", "for the kids".
- none of a thing is a count of zero: "none of the salads", "zero of those" (text2num writes
  "zero"), « je n'en veux aucun » → "0".

- a count read aloud in kana, as a phone types it: 「にさつ」「いっぽん」「じゅうにこ」
  「ふたふくろ」 → 2冊, 1本, 12個, 2袋 (the digit and the counter's kanji the number folding
  reads); only as a word of its own (にほんちゃ, いっこう, さつまいも stay words). A count
  written as a product on a list, 「玉露×2」, is 2個.
- a count of thousands written with separators is one number: "1,200 bottles" → "1200
  bottles" (whether the store has that many is the add's question); a price keeps its own.

What a message says is kept: only the words that say a count change, into the count.
"""

from __future__ import annotations

import re
from functools import lru_cache

from commerce_agent.agent.language.folding import fold_accents
from commerce_agent.agent.language.measures import UNITS

# Nouns that package or serve what is counted, English and French, singular and plural.
_PACKAGING_EN = (r"bags?|packets?|packs?|pouch(?:es)?|sachets?|tins?|cans?|jars?|bottles?|"
                 r"cartons?|tubs?|portions?|servings?|pieces?|units?|pcs|items?|orders?|"
                 r"boxe?s?|sets?|copies|copy|pairs?")
_PACKAGING_FR = (r"sachets?|paquets?|bo[iî]tes?|pots?|bouteilles?|canettes?|portions?|"
                 r"parts?|pi[eè]ces?|unit[eé]s?|exemplaires?|lots?")
# "box", "set" and "order" also end catalogue names ("Studio Seconds Box", "Espresso Cup Set"):
# they are read as packaging only before what they hold ("2 boxes of …") or said singular after
# a count above one ("three box"), never as a plural ending a message.
_NAMING = re.compile(r"^(?:boxe?s?|sets?|orders?|bo[iî]tes?|lots?|items?|units?|pieces?|"
                     r"pi[eè]ces?)$", re.IGNORECASE)
# The same nouns as words a name is read without, stemmed: "a bag of hojicha" is hojicha.
# Not those the stores also sell as things ("coffee cup", "tea pot", "seconds box", "set"),
# and with the words that only measure ("a slice of", "a couple of", "that kind of").
MEASURE_NOUNS = frozenset(
    "bag bottle pack packet tin jar piece portion slice pair couple dozen kind sort type one "
    "sachet paquet bouteille morceau part exemplaire paire douzaine huitaine dizaine quinzaine "
    "vingtaine trentaine".split())
# Counts as digits or as the everyday number words (the number folding comes later).
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "un": 1, "une": 1,
                 "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
                 "neuf": 9, "dix": 10, "onze": 11, "douze": 12}
_COUNT = rf"(?P<n>\d{{1,6}}|{'|'.join(_NUMBER_WORDS)})"
# What may stand between the count and the packaging noun: a size ("two 100 g bags").
_SIZE = r"(?:\s+\d+(?:[.,]\d+)?\s?(?:g|kg|ml|cl|l|oz|gram(?:me)?s?|grammes?)\b)?"
_PACKAGED = re.compile(
    rf"(?<![\w.,]){_COUNT}(?P<size>{_SIZE})\s+(?P<noun>{_PACKAGING_EN}|{_PACKAGING_FR})\b"
    r"(?P<of>\s+(?:of(?:\s+the)?|de)\s+|\s+d'|\s*(?=[,.!?]|$|\s+(?:please|pls|thanks|svp|stp|"
    r"s'il|in total|total|altogether|all together|in all|en tout|au total)\b))?", re.IGNORECASE)
# "a pack of 6", "pack of 6", « un paquet de 6 », « un lot de 6 », "a box of 12": that many.
_PACK_OF = re.compile(r"\b(?:(?:a|an|one|un|une|1)\s+)?(?:pack|box|set|bundle|paquet|lot|"
                      rf"bo[iî]te)\s+(?:of|de)\s+(?P<n>\d{{1,4}}|{'|'.join(_NUMBER_WORDS)})\b",
                      re.IGNORECASE)
# "a 6-pack of", "a six pack of", "twelve-pack", "two 6-packs of": the pack's size is the
# count (times the packs said); "6-pack" beside a unit ("a 6-pack of 330 ml cans") too.
_WORDED = "|".join(_NUMBER_WORDS)
_N_PACK = re.compile(rf"\b(?:(?P<packs>\d{{1,2}}|{_WORDED})\s+|(?:a|an|one|un|une)\s+)?"
                     rf"(?P<n>\d{{1,3}}|{_WORDED})[\s-]?(?:packs?|pk|pks)\b"
                     r"(?:\s+(?:of|de)(?:\s+the)?\b)?", re.IGNORECASE)
# A range of counts ("2-3 plates", "three or four plates", « deux-trois assiettes », "2 to 3"):
# the lower, which the reply names (a count said next sets the line).
# (single digits or words only: "12-14 rue …" is an address, "12-13 jan" two days)
_RANGE = re.compile(rf"(?<![\w.,/:#-])(?P<n>\d|{_WORDED})\s*(?:-|–|\s(?:or|to|ou|à)\s)"
                    rf"\s*(?P<m>\d|{_WORDED})(?![\w.,/:-])"
                    r"(?=\s+(?:of\s+|d['’]|de\s+)?(?:the\s+|those\s+|these\s+|les\s+|ces\s+)?"
                    r"(?![\d\s]|(?:pm|am|h|ml|cl|g|kg|oz|cm|mm|in|inch|inches|people|persons?|"
                    r"personnes?|days?|jours?|weeks?|semaines?|hours?|heures?|minutes?|mins?|"
                    r"stars?|étoiles?|st|street|rue|ave|avenue|road|rd|blvd|boulevard|lane|ln|"
                    r"drive|dr|way|place|pl|chemin|all[eé]e|impasse|bd|court|ct|jan\w*|feb\w*|"
                    r"f[eé]v\w*|mar\w*|apr\w*|avr\w*|may|mai|jun\w*|juin|jul\w*|juil\w*|aug\w*|"
                    r"ao[uû]t|sep\w*|oct\w*|nov\w*|d[eé]c\w*|mon\w*|tue\w*|wed\w*|thu\w*|fri\w*|"
                    r"sat\w*|sun\w*|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b)"
                    r"[a-zà-ÿ])", re.IGNORECASE)

# Dictation: "for" 4, "to"/"too" 2, "won" 1, after a verb of getting (and "me"/"us").
_HEARD = {"for": "4", "four": "4", "to": "2", "too": "2", "won": "1"}
_GETTING = (r"add|get|take|need|want|order|buy|grab|put|have|like|give|"
            r"'ll have|'ll take|'d like|'d take|'d have")
_DICTATED = re.compile(
    rf"\b(?P<verb>{_GETTING})(?P<whom>\s+(?:me|us))?\s+(?P<word>for|to|too|won)\s+"
    r"(?P<rest>[a-zà-ÿ][\w'-]*(?:\s+[a-zà-ÿ][\w'-]*){0,3})", re.IGNORECASE)
# Words that show "for"/"to" is the preposition or the infinitive: a determiner, a pronoun,
# a verb, a place in the shop, or whom it is for.
_NOT_COUNTED = frozenset("""
the a an my your our his her their its this that these those some any all each every it them
me us you him what which who one two three four five six seven eight nine ten
cart basket bag trolley order checkout list wishlist favorites favourites pickup delivery
collection later now today tomorrow tonight home work
buy add get see know have make go try be do check order pay cancel return book find look
keep use put ask give take change remove start pick ship send come eat drink share help
kids children guests people friends family everyone everybody parents dad mum mom wife
husband son daughter sister brother grandma grandpa party christmas xmas birthday
birthdays holidays weddings gift gifts leave purchase receive reserve schedule subscribe pause
resume rate tip switch swap update view compare read hear talk speak visit browse shop stop
here there
""".split())
_PLURAL = re.compile(r"^[a-zà-ÿ'-]+(?<!s)(?<!')s$|^[a-zà-ÿ'-]+(?:ies|oes|ches|shes|xes)$")
# After "add" a count may come before a bare singular noun ("add to tiramisu"); elsewhere a
# plural noun shows the words are what is counted ("need for margherita pizzas").
# ("get to Yanaka" is a way there, so "get" needs the plural).
_BARE_AFTER = frozenset({"add", "put", "grab", "order"})

# None of a thing: "none of the salads", "none of those, actually"; « je n'en veux aucun ».
# "none" alone answers an offer (add-ons, a choice): the refusal reads it.
# Not "none of these look right": a verb after it judges what was shown, it counts nothing.
_JUDGING = (r"look|looks|are|is|fit|fits|work|works|seem|seems|match|matches|suit|suits|do|"
            r"does|will|would|were|was|have|has|really")
_ENDS = r"(?:\s*(?:[,.!]|$)|\s+(?:actually|please|thanks|then|now|anymore|after all|at all)\b)"
_NONE_EN = re.compile(
    rf"\bnone(?=\s+of\s+(?:the|those|these|them|it|that|this|my)\b(?:\s+(?!(?:{_JUDGING})\b)"
    rf"[a-z]+){{0,2}}{_ENDS})", re.IGNORECASE)
_NONE_FR = re.compile(r"\b(?:ne\s+|n')(?P<verb>(?:en\s+|y\s+)?[a-zà-ÿ]+)\s+(?:plus\s+)?"
                      r"aucune?s?\b|(?<![\w'])aucune?s?\b(?!\s+(?:id[eé]e|probl[eè]me|"
                      r"souci|importance|raison|frais|doute)\b)", re.IGNORECASE)


# "1,200 bottles", "2,000 copies": a count's thousands; not a price ("$1,200", "1,200 yen").
_THOUSANDS = re.compile(r"(?<![\d.,$£€¥])(\d{1,3}(?:,\d{3})+)(?![\d,.])(?=\s+(?!(?:dollars?|usd|"
                        r"euros?|eur|pounds?|gbp|yen|jpy|bucks?)\b)[a-zà-ÿ])", re.IGNORECASE)


# Units a quantity of a thing is weighed or measured in ("500 grammes de hojicha").
_MEASURING = frozenset(fold_accents(spelling) for kind, spellings in UNITS.values()
                       if kind in ("volume", "mass", "length") for spelling in spellings
                       if spelling.isalpha())
_PACKAGING = re.compile(rf"(?:{_PACKAGING_EN}|{_PACKAGING_FR})")


def says_how_counted(word: str) -> bool:
    """Whether a word (folded) says how a thing is counted, not what it is: a packaging or
    serving noun ("sachets", « pots », "bottles") or a unit it is weighed or measured in
    ("grammes", "kilo"), every part of a joined one too (« demi-douzaine »)."""
    return all(part in _MEASURING or part in _FRACTIONS or _PACKAGING.fullmatch(part)
               for part in word.split("-")) and bool(word.strip("-"))


# Quantity nouns and their fractions, as `numbers` reads them into counts.
_FRACTIONS = frozenset("demi douzaine douzaines dizaine quinzaine vingtaine huitaine trentaine "
                       "paire couple dozen dozens half".split())


# Counts read aloud in kana, as a phone types them ("にさつ", "いっぽん", "じゅうにこ",
# "ふたふくろ"): the numeral's readings with their sound changes (いっ, ろっ, はっ, じゅっ) and
# the counter's (ほん, ぽん, ぼん), written as digits and the counter's kanji. Only as a word of
# its own: after a particle or another script, before a request's words or another script
# (にほんちゃ, いっこう, さつまいも stay words). 本 is never read after に: にほん is Japan.
_KANA_DIGITS = {"いち": 1, "いっ": 1, "に": 2, "さん": 3, "よん": 4, "ご": 5, "ろく": 6,
                "ろっ": 6, "なな": 7, "はち": 8, "はっ": 8, "きゅう": 9}
_KANA_TENS = ("じゅう", "じゅっ", "じっ")
_KANA_COUNTERS = {"こ": "個", "さつ": "冊", "ほん": "本", "ぽん": "本", "ぼん": "本", "まい": "枚",
                  "ふくろ": "袋", "ぶくろ": "袋", "はこ": "箱", "ぱこ": "箱", "かん": "缶"}
_NATIVE_KANA = {"ひと": 1, "ふた": 2, "み": 3, "よ": 4, "いつ": 5, "む": 6, "なな": 7, "や": 8}
_KANA_DIGIT = "|".join(sorted(_KANA_DIGITS, key=len, reverse=True))
_KANA_WORD_START = r"(?:(?<![\u3041-\u3096])|(?<=[をはがもにで]))"
_KANA_WORD_END = (r"(?=$|[^\u3041-\u3096]|く(?:ださ|れ)|ちょうだい|お|で|と|だけ|ずつ|ね|よ|を|も|"
                  r"ほしい|いただ|くらい|ぐらい|ほど)")
_KANA_COUNT = re.compile(
    _KANA_WORD_START + rf"(?:(?P<tens>(?:{_KANA_DIGIT})?(?:{'|'.join(_KANA_TENS)}))?"
    rf"(?P<units>{_KANA_DIGIT})?|(?P<native>{'|'.join(_NATIVE_KANA)})(?=ふくろ|はこ))"
    rf"(?P<counter>{'|'.join(sorted(_KANA_COUNTERS, key=len, reverse=True))})"
    + _KANA_WORD_END)


# A count written as a multiplication after a Japanese noun ("玉露×2", "ノート x 3"), as on a
# shopping list: that many pieces.
_TIMES_AFTER_NOUN = re.compile(r"(?<=[\u30a1-\u30fc\u4e00-\u9fff])\s*[×✕xXｘＸ]\s*(\d{1,3})(?!\d)")


# A count in digits with its counter typed in kana ("3 ふくろ", "2ほん", "5まい"), as a phone
# leaves a counter before conversion: the counter's kanji. Only as a word of its own.
_DIGITS_KANA_COUNTER = re.compile(
    r"(?<![\d.,])(\d{1,3})\s*(" + "|".join(sorted(_KANA_COUNTERS, key=len, reverse=True)) + ")"
    + _KANA_WORD_END)


def _kana_count(match: re.Match[str]) -> str:
    tens, units, native = match.group("tens"), match.group("units"), match.group("native")
    counter = match.group("counter")
    if native:
        return f"{_NATIVE_KANA[native]}{_KANA_COUNTERS[counter]}"
    if not tens and not units or (units == "に" and not tens and counter == "ほん"):
        return match.group()
    value = _KANA_DIGITS.get(units or "", 0)
    if tens:
        head = next(tens[:-len(ten)] for ten in _KANA_TENS if tens.endswith(ten))
        value += 10 * (_KANA_DIGITS[head] if head else 1)
    return f"{value}{_KANA_COUNTERS[counter]}"


def with_counts_plain(text: str) -> str:
    """`text` with counts said by their packaging, by dictation, or as none written as plain
    counts; `text` itself when it says none of these."""
    return _with_counts_plain(text)


@lru_cache(maxsize=4096)
def _with_counts_plain(text: str) -> str:
    plain = _THOUSANDS.sub(lambda match: match.group(1).replace(",", ""), text)
    plain = _TIMES_AFTER_NOUN.sub(r" \1個", _KANA_COUNT.sub(_kana_count, plain))
    plain = _DIGITS_KANA_COUNTER.sub(lambda found: found.group(1) + _KANA_COUNTERS[
        found.group(2)], plain)
    plain = _DICTATED.sub(_dictated, plain)
    plain = _N_PACK.sub(_packs_of, plain)
    plain = _RANGE.sub(_lower, plain)
    plain = _PACK_OF.sub(_pack_size, plain)
    plain = _PACKAGED.sub(_unpackaged, plain)
    plain = _NONE_EN.sub("0", plain)
    return _NONE_FR.sub(_none_fr, plain)


def _dictated(match: re.Match[str]) -> str:
    verb, word = match.group("verb").lower(), match.group("word").lower()
    following = match.group("rest").lower().split()
    if following[1:2] == ["of"] and re.fullmatch(_PACKAGING_EN, following[0]):
        following = following[2:]  # "add won bag of matcha": the bag is how it is counted
    if not following or following[0] in _NOT_COUNTED:
        return match.group()
    counted: list[str] = []
    for each in following:
        if each in _NOT_COUNTED or each in ("and", "or", "with", "for", "to", "in", "at", "of"):
            break
        counted.append(each)
    plural = any(_PLURAL.match(each) for each in counted)
    # "add for dinner" is when; "add to tiramisu" and "add won bag" are heard counts
    bare = (verb.rsplit(" ", 1)[-1] in _BARE_AFTER and word != "for") or word == "won"
    if not counted or not (plural or bare) or (word == "won" and plural):
        return match.group()
    start = match.start("word") - match.start()
    end = match.end("word") - match.start()
    return match.group()[:start] + _HEARD[word] + match.group()[end:]


def _value(said: str) -> int:
    return int(said) if said.isdigit() else _NUMBER_WORDS[said.lower()]


def _packs_of(match: re.Match[str]) -> str:
    packs = _value(match.group("packs")) if match.group("packs") else 1
    return f"{packs * _value(match.group('n'))}"


def _lower(match: re.Match[str]) -> str:
    low, high = _value(match.group("n")), _value(match.group("m"))
    if not 0 < high - low <= 2:  # "2-12" is no range of counts said loosely
        return match.group()
    return str(low)


def _pack_size(match: re.Match[str]) -> str:
    said = match.group("n").lower()  # « un lot de trois »: 3, as « un lot de 3 »
    return said if said.isdigit() else str(_NUMBER_WORDS[said])


def _unpackaged(match: re.Match[str]) -> str:
    noun, of = match.group("noun"), match.group("of")
    count = match.group("n").lower()
    value = int(count) if count.isdigit() else _NUMBER_WORDS[count]
    singular_after_many = value > 1 and not noun.lower().endswith(("s", "x"))
    if _NAMING.match(noun) and not (of and of.strip()) and \
            not singular_after_many:
        return match.group()
    if (of is None and not singular_after_many) or value > 999:
        # "2 bags hojicha" keeps reading as typed; "5000 copies of" keeps the word that makes
        # a long number a count once the item's name is read away
        return match.group()
    return f"{value}{match.group('size')} "


def _none_fr(match: re.Match[str]) -> str:
    verb = match.group("verb")
    return f"{verb} 0" if verb else "0"
