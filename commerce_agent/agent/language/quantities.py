"""How many the shopper wants: the one reader of quantities, built on the number tags.

`read()` has already written number words as digits ("two" → 2, "half a dozen" → 6, "二つ" →
2つ) and tagged every number (`number_tags`): a measure, a price, a time, an address, an
ordinal or an id is never a count. This stage reads what is left, once:

- the counts the tags give, unless refused ("4 plates, not 6", "the 12 not the 16",
  "3個はいらない") or a party or option size ("for 2 people", "5 users");
- count words the folding keeps as words ("both", "a few", "quelques", "ひとつ", "just one");
- a count relative to a cart line ("one more", "another", "encore une", "deux de plus",
  "もう一つ", "one less", "drop two") and a multiple ("double it", "double la quantité",
  "倍にして").

`quantities(text)` lists them in the message's order; `how_many` is the count said,
`change` how many more (or fewer) of a line, `relative` any change to a line (a multiple
too) and `applied` what the line becomes; `numbers_said` is every number the message names
(options and sizes included, for matching option labels). `without_named_numbers` hides the
numbers a catalogue name carries ("a 10 class pass", "the 80 tine chasen", "10回クラスパス"):
part of the name, never a count, unless a count is said besides ("two 10 class passes").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from commerce_agent.agent.language.detect import detect_language
from commerce_agent.agent.language.numbers import fold_numbers
from commerce_agent.agent.language.reading import Reading, read_message
from commerce_agent.agent.language.spans import Span

Relation = Literal["set", "more", "less", "times", "split"]


@dataclass(frozen=True, slots=True)
class Quantity:
    """A count said (`value`), and how it applies: "set" (that many), "more"/"less" (than the
    line has), "times" (the line multiplied), "split" (divided: "halve it"). `span` indexes
    the reading's folded text."""

    value: int
    relation: Relation
    span: Span


# Said after a number, it sizes the party or an option, not how many to buy: "for 2 people",
# "5 users", "4 postes", "2名", "3 GB", "4/5".
_NOT_COUNTED = re.compile(r"\s*(?:-\s*)?(?:seats?|people|persons?|personnes?|places?|postes?|"
                          r"users?|utilisateurs?|guests?|gb|mb|tb|mah|watts?|w\b|v\b|/\s*\d|"
                          r"out of|sur \d|名|人|客)(?![a-z])")
# A number the shopper refuses is never how many they want: "2 mugs, not 3", "pas la 16",
# "16じゃなくて12", "3個はいらない".
_REFUSED_BEFORE = re.compile(r"\b(?:not|no|pas|non|never|jamais|instead of|au lieu de)\s+"
                             r"(?:(?:the|a|an|le|la|les|l'|un|une|des)\s*)?$")
_REFUSED_AFTER = re.compile(r"\s*(?:[^\s、。,.]{0,3}?)(?:じゃなく|ではなく|はいらない|は要らない|"
                            r"はいりません|は結構)")
# A minus sign standing alone just before a count: "add -3 mugs".
_SIGNED = re.compile(r"(?:^|\s)[-−]$")
_NAMED_BY_ARTICLE = re.compile(r"(?:\b(?:the|le|la|les)\s+|\bl'\s*)$")
_O_CLOCK = re.compile(r"\b\d{1,2}\s*o'?\s?clock\b")

# Count words the folding leaves as words, each with its value. "one" is folded only where it
# counts; the rest here count wherever they stand.
# A vague count ("a few", "several", "a handful", « plusieurs », 「いくつか」「数袋」) is read as 3:
# the reply names the count added, and a count said alone next sets the line.
_WORD_COUNTS = {"both": 2, "single": 1, "few": 3, "quelques": 3, "several": 3, "handful": 3,
                "plusieurs": 3}
_KANA_COUNTS = {"ひと": 1, "ふた": 2, "みっ": 3, "よっ": 4, "いつ": 5, "むっ": 6, "なな": 7,
                "やっ": 8, "ここの": 9}
_COUNTER = r"(?:つ|個|冊|枚|本|杯|点|箱|袋|缶|台|脚|組|セット|パック)"
COUNTER = _COUNTER  # the Japanese counters a count is said with ("3冊", "2枚")
# A number of four digits or more is a year, a code or a reference, unless what it counts
# follows it (`LONG_COUNT.match(text, end)`): "100000 espresso cup sets", "2000 jardinières",
# "1000本".
LONG_COUNT = re.compile(rf"\s*(?:{_COUNTER}|(?!please\b|thanks?\b|merci\b|svp\b)"
                         r"[^\W\d_]{3,})")
_WORD = re.compile(
    rf"(?<![\w-])(?P<word>{'|'.join(_WORD_COUNTS)})(?![\w-])"
    rf"|(?P<kana>{'|'.join(_KANA_COUNTS)}){_COUNTER}"
    rf"|(?P<vague>いくつか|幾つか|何個か|(?<![\d〇一二三四五六七八九十])数(?={_COUNTER}))"
    # "one" kept as a word, where it still counts: "make it one", "just one", "one" alone
    r"|(?:\b(?:buy|add|get|take|book|order|want|need|make it|make that|just|only|to|have|"
    r"drop|remove|minus|subtract)\s+"
    # "just the one then", "only the one": one, the count
    r"|\b(?:just|only)\s+the\s+|^\s*|[,;:]\s*(?=one\s+(?:please|pls|thanks)\s*[.!]*$))"
    r"(?P<one>one|a single)\b(?!\s*(?:of|more|less)\b)"
)
# A count relative to the line: "one more", "2 extra", "another", "encore 1", "1 de plus",
# "add more", "increase it by 2", "もう1つ", "2つ増やして", "a second one", "une autre"; and
# fewer.
_N = r"(?:\d{1,3}|another)"
_MORE = re.compile(
    rf"\b(?P<n>{_N})\s+(?:more|extra|de plus|en plus)\b"
    r"|\banother\s+(?P<n7>\d{1,3})\b(?!\s*(?:%|ml|cl|g|kg|oz|cm|in)\b)"
    r"|\banother(?:\s+1)?\s*(?:please)?\s*[?.!]*\s*$|^\s*(?:and\s+)?another\b"
    rf"|\badd\s+(?:(?P<n2>\d{{1,3}})\s+)?more\b|\bencore\s+(?P<n3>\d{{1,3}})\b"
    r"|\b(?:increase|bump|raise)\s+(?:(?:it|that|the\s+\w+)\s+)?by\s+(?P<n4>\d{1,3})\b"
    # not "もう一つの方" (the other one)
    rf"|もう(?P<n5>\d{{1,3}})(?!\d|{_COUNTER}?(?:の|方|ほう)){_COUNTER}?"
    rf"|(?P<n6>\d{{1,3}}){_COUNTER}?(?:増や|追加で|多く)"
    # "a second one", "a 2nd copy", "un deuxième" (the ordinal is tagged "#"): one more; not
    # "wait a second"
    r"|(?<!wait )(?<!just )(?<!hold on )\b(?:a|an|un|une)\s+#(?:nd|rd|th|eme|ème|e)\b"
    # "une autre", "encore un autre": one more of it; not "une autre couleur" (an option)
    r"|\b(?:encore\s+)?(?:un|une|1)\s+autre\b(?!\s+(?:couleur|taille|version|mod[eè]le|"
    r"fois|chose|option|variante|article|produit|id[eé]e))"
    # « deux autres », 「あと2つ」「さらに2袋」: that many more
    r"|(?<!les )(?<!des )(?<!ces )(?<!mes )\b(?P<n8>\d{1,3})\s+autres\b(?!\s+(?:couleurs|"
    r"tailles|versions|mod[eè]les|choses|options|variantes|articles|produits|id[eé]es))"
    rf"|(?:あと|さらに)(?P<n9>\d{{1,3}})(?:{_COUNTER}(?!で(?:いい|大丈夫|十分|結構)|だけ)|"
    r"(?=\s*(?:追加|ください|下さい|お願い|ほしい|欲しい|$|、|。)))")
# A count of one may stay a word here ("take one plate off", "enlève une assiette").
_N_LESS = r"(?:\d{1,3}|one|une|un)"
# After a verb of taking away, an article counts one too: "drop a plate", "lose a mug".
_N_TAKEN = r"(?:\d{1,3}|one|une|un|a|an)"
_LESS = re.compile(
    # "2 less", "one plate less", "une assiette de moins"; "USD 20 or less" is a price limit
    rf"\b(?P<n>{_N_LESS})\s+(?:(?!or\b|ou\b|and\b|et\b|usd\b|eur\b|gbp\b|jpy\b|yen\b|"
    r"dollars?\b|euros?\b|pounds?\b|bucks?\b)[a-z]+\s+)?(?:less|fewer|de moins|en moins)\b"
    r"|\b(?:drop|remove|take off|take away|take out|knock off|minus|subtract|"
    rf"enl[eè]ve[rz]?|retire[rz]?|supprime[rz]?)\s+(?P<n2>{_N_LESS})\b"
    # ("remove a gift box" takes an add-on off: only these verbs count with an article)
    rf"|\b(?:drop|lose)\s+(?P<n7>{_N_TAKEN})\b(?!\s+(?:lot|bit|line)\b)"
    rf"|\b(?:take|knock)\s+(?P<n6>{_N_LESS})\s+(?:\w+\s+){{0,2}}(?:off|out|away)\b"
    r"|\b(?:decrease|reduce|lower)\s+(?:(?:it|that|the\s+\w+)\s+)?by\s+(?P<n3>\d{1,3})\b"
    r"|\b(?:enl[eè]ve|retire)[rz]?[- ]en\s+(?P<n4>\d{1,3})\b"
    rf"|(?P<n5>\d{{1,3}}){_COUNTER}?\S{{0,2}}?(?:減ら|少なく|減)")
# The line multiplied: "double it", "double the order", "double la quantité", "2倍", "倍にして".
_TIMES = re.compile(r"\b(?P<word>double|triple|quadruple)\s+(?:it|that|them|the\b|my\b|la\b|"
                    r"le\b|les\b|ma\b|mon\b|mes\b|ça\b|ca\b)|\b(?P<twice>twice) as many\b"
                    r"|\b(?P<fr>doubler|tripler)\b|(?P<n>\d)?倍")
# The line halved: "halve it", "cut that in half", "half as many", « la moitié », « divise
# par deux », 「半分にして」「半分で」.
_HALVED = re.compile(r"\bhalve\b|\b(?:cut|split)\s+(?:it|that|them|those|this|the\s+\w+)\s+"
                     r"in\s+half\b|\bhalf as many\b|(?:\b(?:only|just)\s+|^\s*)half\s+"
                     r"(?:of\s+)?(?:that|them|those|it)\s*(?:please|pls|then|thanks)?\s*[.!]*$|"
                     r"^\s*(?:la\s+)?moiti[eé]\s*(?:seulement|svp|stp|s'il\s+vous\s+"
                     r"pla[iî]t)?\s*[.!]*$|\bdivise[rz]?\s+(?:\w+\s+)?par\s+(?:2|deux)\b|"
                     r"半分(?:に|で|だけ|へ)")
# A multiple said alone, as a whole message: "double", « double svp », "triple please".
_TIMES_ALONE = re.compile(r"^\s*(?P<word>double|triple)\s*(?:up|please|pls|svp|stp|"
                          r"s'il vous pla[iî]t|merci)?\s*[.!]*\s*$")
_RELATIVE: tuple[tuple[re.Pattern[str], Relation], ...] = ((_LESS, "less"), (_MORE, "more"))
_ANOTHER = re.compile(r"\banother\b|\bencore\s+(?:un|une)\b")
_DIGITS = re.compile(r"\d+")
_MULTIPLES = {"double": 2, "triple": 3, "quadruple": 4, "twice": 2, "doubler": 2, "tripler": 3}


@lru_cache(maxsize=4096)
def quantities(text: str) -> tuple[Quantity, ...]:
    """Every quantity `text` says, in its order: counts to set, and changes to a line."""
    found = read_message(text)
    plain = _with_count_words(_counts_only(found))
    said: list[Quantity] = []
    for pattern, relation in _RELATIVE:
        for match in pattern.finditer(plain):
            number = next((group for key, group in match.groupdict().items()
                           if group and key.startswith("n")), None)
            value = int(number) if number and number.isdigit() else 1
            said.append(Quantity(value, relation, match.span()))
    for match in _TIMES.finditer(plain):
        if match.group("n") is None and "倍" in match.group():
            said.append(Quantity(2, "times", match.span()))
            continue
        word = match.group("word") or match.group("twice") or match.group("fr")
        said.append(Quantity(_MULTIPLES[word] if word else int(match.group("n")), "times",
                             match.span()))
    for match in _HALVED.finditer(plain):
        said.append(Quantity(2, "split", match.span()))
    for match in _TIMES_ALONE.finditer(plain):
        said.append(Quantity(_MULTIPLES[match.group("word")], "times", match.span()))
    relative = [quantity.span for quantity in said]
    for match in _ANOTHER.finditer(plain):  # "can I have another mug?": one, to add
        if not any(low <= match.start() < high for low, high in relative):
            said.append(Quantity(1, "set", match.span()))
    for match in re.finditer(r"\d+", plain):
        if not any(low <= match.start() < high for low, high in relative):
            # the count as said, zero and a sign kept: whether it can be bought is the add's
            # question, never this reader's
            sign = -1 if _SIGNED.search(plain[:match.start()]) else 1
            said.append(Quantity(sign * int(match.group()), "set", match.span()))
    return tuple(sorted(said, key=lambda quantity: quantity.span))


def _counts_only(found: Reading) -> str:
    """The folded text with every number that is not a count hidden (same length), including
    counts that are refused or size a party or an option."""
    chars = list(_O_CLOCK.sub(lambda match: "#" * len(match.group()), found.folded))
    for tag in found.numbers:
        start, end = tag.span
        if tag.kind != "count" or _refused(found.folded, tag.span) or (
                len(tag.text) > 3 and not _long_count(found.folded, tag.span)):
            chars[start:end] = "#" * (end - start)
    return "".join(chars)


def _long_count(folded: str, span: Span) -> bool:
    """A number of four digits or more counts when what it counts follows it, and no article
    makes it a name ("the 2027 shincha" is that year's tea)."""
    start, end = span
    return bool(LONG_COUNT.match(folded, end)) and not _NAMED_BY_ARTICLE.search(folded[:start])


def _refused(folded: str, span: Span) -> bool:
    start, end = span
    after = folded[end:]
    return bool(_NOT_COUNTED.match(after) or _REFUSED_BEFORE.search(folded[:start])
                or _REFUSED_AFTER.match(after))


def _with_count_words(plain: str) -> str:
    """`plain` with the count words the folding kept as words written as digits."""
    def digits(match: re.Match[str]) -> str:
        if match.group("word"):
            return str(_WORD_COUNTS[match.group("word")])
        if match.group("vague"):
            return "3"
        if match.group("kana"):
            return str(_KANA_COUNTS[match.group("kana")]) + match.group()[len(match.group("kana")):]
        return match.group().replace(match.group("one"), "1")
    return _WORD.sub(digits, plain)


# The count said is what the line should hold in all, not more of it: "5 in total", "make it
# 6 altogether", « 5 en tout », « 4 au total », 「全部で5つ」「合計3袋」; and a count said
# against the one the line has: "I need 4 not 2", "4 instead of 2", « 4 et pas 2 ».
_TOTAL = re.compile(r"\b(?:in total|total(?: of)?|altogether|all together|in all|all told|"
                    r"en tout|au total|en totalit[eé]|tout compris)\b|"
                    r"全部合わせて|全部で|合計で?|ぜんぶで|計(?=\d)", re.IGNORECASE)
# ("the 12 not the 16" picks a size: numbers with an article are things, not counts)
_AGAINST = re.compile(r"(?<![\d.,])(?<!the )(?<!le )(?<!la )\d{1,4}\s*,?\s*(?:and\s+|et\s+)?"
                      r"(?:not|pas|instead of|rather than|au lieu de|plut[oô]t que)\s+\d{1,4}"
                      r"(?![\d.,])")


def says_a_total(text: str) -> bool:
    """Whether the message's count is the new total of a line rather than more of it ("5 in
    total", "I need 4 not 2"); a message with no count says none."""
    found = read_message(text)
    plain = found.folded
    return how_many(text) is not None and bool(_TOTAL.search(plain) or _AGAINST.search(plain))


def without_total(text: str) -> str:
    """`text` without its "in total" words, which name no product ("actually 4 in total"
    reads as the count it sets); `text` itself when it has none."""
    kept = _TOTAL.sub(" ", text)
    return re.sub(r"\s{2,}", " ", kept).strip(" ,") if kept != text else text


def how_many(text: str) -> int | None:
    """The count the message says, set or relative ("two more" adds two when no line has it
    yet); None when it says none (a multiple or a share is no count)."""
    return next((quantity.value for quantity in quantities(text)
                 if quantity.relation not in ("times", "split")), None)


def change(text: str) -> int | None:
    """How many more (positive) or fewer (negative) of a line, or None when the message says
    no change relative to the cart."""
    for quantity in quantities(text):
        if quantity.relation == "more":
            return quantity.value
        if quantity.relation == "less":
            return -quantity.value
    return None


def relative(text: str) -> Quantity | None:
    """The first change to a line the message asks for: more, fewer, or a multiple."""
    return next((quantity for quantity in quantities(text) if quantity.relation != "set"), None)


def applied(quantity: Quantity, had: int) -> int:
    """What a line of `had` becomes after `quantity` ("two more" of 3 is 5, "double it" 6)."""
    if quantity.relation == "more":
        return had + quantity.value
    if quantity.relation == "less":
        return had - quantity.value
    if quantity.relation == "times":
        return had * quantity.value
    if quantity.relation == "split":
        return max(1, had // quantity.value)
    return quantity.value


@lru_cache(maxsize=4096)
def numbers_said(text: str) -> frozenset[str]:
    """Every number the message names, in digits, whatever it is ("five seats" says 5, "the
    twenty-seat one" 20): what an option label is matched against. Only the folding is
    needed, so this skips the rest of `read()` (stages call it on many variants of a text)."""
    plain = unicodedata.normalize("NFKC", text)
    return frozenset(_DIGITS.findall(fold_numbers(plain, detect_language(plain))))


# A number a name writes beside a word ("10-Class Pass", "Pro 5", "80 tines", "A5",
# "10回クラスパス"); one a parenthesis sets apart does not name the item ("Arancini (3)").
_NUMBER_THEN_WORD = re.compile(r"(?<![\d.,])(\d+)[ \t-]*"
                               r"([\u3040-\u30ff\u4e00-\u9fff]|[^\W\d_]{2,})")
_WORD_THEN_NUMBER = re.compile(r"([^\W\d_]+)[ \t-]*(\d+)(?![\d.,])")
_DIGIT_THEN_LETTER = re.compile(r"(\d)(?=[^\W\d_])")
# Two numbers the name writes in a row ("2-12", or "2-Douze" once "douze" is a digit); the
# second is left for the next pair, so a run of three ("1-Forty Forty") pairs each neighbour.
_NUMBER_THEN_NUMBER = re.compile(r"(?<![\d.,])(\d+)[ \t-]+(?=(\d+)(?![\d.,]))")


@lru_cache(maxsize=1024)
def _named_numbers(names: tuple[str, ...], language: str) -> re.Pattern[str] | None:
    """One pattern for every number-and-word pair the names write, as a shopper may type it:
    spaced, hyphenated or glued, the word's ending free ("10 classes", "80 tine"); numbers
    in words read in the shopper's `language`, as their message is."""
    pairs: set[str] = set()
    spelled = {unicodedata.normalize("NFKC", name).lower() for name in names}
    # a hyphen or a digit glued to it keeps a number word whole in the name ("2-douze",
    # "2fifteen"), not in a message ("2 douze"): the name is also read spaced
    for name in spelled | {_DIGIT_THEN_LETTER.sub(r"\1 ", name.replace("-", " "))
                           for name in spelled}:
        folded = fold_numbers(name, language)
        for number, word in _NUMBER_THEN_WORD.findall(folded):
            written = re.escape(word[:4]) + r"[^\W\d_]*" if len(word) > 1 else re.escape(word)
            pairs.add(rf"(?<!\d)(?<!\d[.,]){number}[\s-]*{written}")
        for first, second in _NUMBER_THEN_NUMBER.findall(folded):
            pairs.add(rf"(?<!\d)(?<!\d[.,]){first}[\s-]*{second}(?![\d.,])")
        for word, number in _WORD_THEN_NUMBER.findall(folded):
            # a comma after the number ends a clause ("for four, pickup"), unless a digit
            # follows it (a decimal)
            pairs.add(rf"\b{re.escape(word)}[\s-]*{number}(?!\d|[.,]\d)")
    if not pairs:
        return None
    # a lookahead, so pairs sharing a word ("1-aaa 3") are each found
    return re.compile(f"(?=({'|'.join(sorted(pairs, key=len, reverse=True))}))", re.IGNORECASE)


def without_named_numbers(text: str, names: tuple[str, ...]) -> str:
    """`text` with the numbers that are part of one of `names` (an item's name, its variants'
    values, its option labels) blanked out, numbers in words first written as digits."""
    plain = unicodedata.normalize("NFKC", text)
    language = detect_language(plain)
    pattern = _named_numbers(names, language)
    if pattern is None:
        return text
    chars = list(fold_numbers(plain, language))
    for match in pattern.finditer("".join(chars)):
        start, end = match.span(1)
        chars[start:end] = ["#" if char.isdigit() else char for char in chars[start:end]]
    return "".join(chars)
