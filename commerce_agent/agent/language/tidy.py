"""How people type, tidied before any stage reads the message: "pls cancle my ordr thx 🙏"
reads as "please cancel my order thanks please".

One pass per class, each a small table or rule that knows no phrasing:

- courtesy that asks nothing (an opening apology, a Japanese favour asked as a question) is
  the request it wraps (`courtesy`); days and times typed in kana are in kanji
  (`kana_calendar`);
- width and marks: full-width digits and letters and half-width katakana (NFKC), smart quotes,
  runs of spaces and line breaks, repeated "?!" and the "?" ending an instruction is left to
  the speech act (it reads a request's shape, not its mark);
- letters typed again for stress ("pleaaase", "yesss", "はーい"): three or more of a letter are
  one or two, whichever is a word the stages know; a long-vowel mark after hiragana is stress;
- casual words and emoji as words ("u", "thx", "wanna", "stp", "👍", "🙏"), per language;
  a "4" or "2" typed for "for" or "to" where no count can stand ("sign me up 4 the plan");
- a loanword typed in hiragana ("きゃんせる") is read in katakana when that is a known word,
  and a word the stages read in kanji typed in kana ("ちゅうもん", "いれて") in kanji;
- French typed as text messages (« cb », « qd », « g un code », « vs avez… ») written out
  (`sms_french`);
- French typed without its apostrophes (« jai », « cest », « ya des… ») with its elisions
  written out (`elision`), and a French question asked in the negative (« vous n'avez pas
  de théière ? ») said plainly (`negative_questions`);
- misspelt words that carry intent, against the vocabulary the stages already use, with the
  accents folded first (« anulé », « comande », « expedie »), as `fuzzy.correct_words` does:
  four letters at least, one edit (two from eight letters), the same first letter.

Nothing here adds a word the shopper did not type in some form, so no stage reads an action
that was not asked for.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rapidfuzz.distance import OSA

from commerce_agent.agent.language import (
    casual_japanese,
    elision,
    kana_calendar,
    negative_questions,
    romaji,
    sms_french,
)
from commerce_agent.agent.language.addresses import STREET_TYPES
from commerce_agent.agent.language.courtesy import plain_request
from commerce_agent.agent.language.folding import fold_accents
from commerce_agent.agent.language.fuzzy import correct_words

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": "« ", "»": " »", "‘": "'",
                         "’": "'", "‚": "'", "`": "'", "´": "'"})
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
_BREAKS = re.compile(r"\s*[\r\n]+\s*")
_MARKS = re.compile(r"([?!？！])[?!？！]+")
# Letters typed three times or more ("pleaaase", "sooo"); "ー" or "〜" after hiragana ("はーい",
# "うーん"): stress, not spelling (katakana keeps its long vowels: "カート").
_REPEATED = re.compile(r"([^\W\d_])\1{2,}")
# Six letters or more from a to f only: how an order id's tail may read off a receipt
# ("fbebce", "aaaaaa"), kept as typed unless a known word is behind the stress.
_HEX_LETTERS = re.compile(r"[a-f]{6,}", re.IGNORECASE)
_LONG_AFTER_HIRAGANA = re.compile(r"(?<=[\u3041-\u3096])[ー〜～]+")
_HIRAGANA_RUN = re.compile(r"[\u3041-\u3096ー]{2,}")

# Casual spellings and the word they stand for, whole words only, in any case. Words that
# would make a request of their own are not here ("rn", "asap": "now" would buy at once), nor
# any that is also an abbreviation in an address ("tx" is Texas, "r" a street's).
CASUAL: dict[str, str] = {
    # en
    "pls": "please", "plz": "please", "plse": "please", "pleez": "please", "plis": "please",
    "thx": "thanks", "thnx": "thanks", "thanx": "thanks", "ty": "thank you",
    "tysm": "thank you so much", "u": "you", "ur": "your", "ya": "yes",
    "wanna": "want to", "gonna": "going to", "gotta": "have to", "gimme": "give me",
    "lemme": "let me", "dunno": "do not know", "cuz": "because", "coz": "because",
    "w/": "with", "w/o": "without", "nvm": "never mind", "k": "ok", "kk": "ok", "okey": "okay",
    "okie": "okay", "yeh": "yeah", "yea": "yeah", "nop": "nope", "naw": "nah", "im": "i'm",
    "ive": "i've", "cant": "can't", "wont": "won't", "whats": "what's", "wheres": "where's",
    "hows": "how's", "thats": "that's", "em": "them", "'em": "them",
    "rn": "", "asap": "", "btw": "", "lol": "",
    # fr
    "stp": "s'il te plaît", "svp": "s'il vous plaît", "slt": "salut", "bjr": "bonjour",
    "mrc": "merci", "mci": "merci", "ouai": "ouais", "ouaip": "ouais", "d'ac": "d'accord",
    "dacc": "d'accord", "jveux": "je veux", "jvoudrais": "je voudrais", "chui": "je suis",
    "qqch": "quelque chose",
    # ja
    "おけ": "オッケー", "おっけ": "オッケー", "おk": "オッケー",
    "ううん": "いいえ", "おなしゃす": "お願いします", "おねしゃす": "お願いします",
}
# What casual words stand for ("" for a word that is only filler, which names nothing).
_CASUAL_READINGS = frozenset(CASUAL.values()) - {""}
# Emoji read as the word they stand for; the rest of the pictographs are dropped.
EMOJI: dict[str, str] = {
    "👍": " yes ", "👌": " ok ", "✅": " yes ", "✔": " yes ", "☑": " yes ", "🆗": " ok ",
    "❌": " no ", "✖": " no ", "👎": " no ", "🚫": " no ", "🙏": " please ",
}
_PICTOGRAPH = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\ufe0f\u200d]")
# Latin words after an emoji (its modifiers and other pictographs between).
_WORDS_AFTER = "[\U0001f3fb-\U0001f3ff\ufe0f\u200d]*(?=\\s*[A-Za-z\u00c0-\u00ff])"
_CASUAL_WORD = re.compile(r"(?<![\w'/])(?:" + "|".join(sorted(
    (re.escape(word) for word in CASUAL), key=len, reverse=True)) + r")(?![\w'/])",
    re.IGNORECASE)


# A polite wrapper around a cart request asks for it ("I was wondering if you could add…",
# "would it be possible to put…", « est-ce que vous pourriez ajouter… »): it is read as
# "please" and the request. Only cart and finding verbs: a wrapper around an order's change
# ("would it be possible to cancel…") stays the question it may be.
_CART_VERBS = (r"(?:add|put|throw|toss|stick|pop|include|remove|take off|take out|drop|delete|"
               r"get me|give me|grab|show me|find me|find|look up|"
               r"ajouter|mettre|rajouter|retirer|enlever|supprimer|montrer|trouver)")
_POLITE = re.compile(
    r"^(?:(?:hi|hello|hey)(?: there)?[,!. ]+)?(?:"
    r"i (?:was|am|'m) (?:just )?wondering (?:if|whether) (?:you|u) (?:could|can|would)(?: maybe)?|"
    r"i wonder (?:if|whether) (?:you|u) (?:could|can)|"
    r"(?:would|is) it (?:be )?possible (?:for (?:you|u) )?to|"
    r"(?:would|could|can) (?:you|u) (?:possibly|please|kindly|maybe|be able to|pls)+|"
    r"would (?:you|u) mind(?: to)?|(?:do you think )?(?:you|u) could|"
    r"(?:is there )?any chance (?:you|u) could|would you be so kind as to|"
    r"est-ce que (?:vous pourriez|tu pourrais|vous pouvez|tu peux)|"
    r"(?:serait|est)-(?:il|ce) possible de|pourriez-vous|pourrais-tu|"
    r"(?:je me demandais|je voulais savoir) si (?:vous pouviez|tu pouvais))"
    rf"\s+(?=(?:please |s'il (?:vous|te) pla[iî]t )?{_CART_VERBS}\b)", re.IGNORECASE)


def tidy(text: str, vocabulary: frozenset[str] = frozenset(),
         known: frozenset[str] = frozenset(), katakana: frozenset[str] = frozenset()) -> str:
    """`text` as the stages expect to read it. `vocabulary` is the words that carry intent
    (lower case, without accents), `known` real words a typo away from one of them, kept as
    typed, and `katakana` the loanwords a hiragana spelling is read as."""
    return _tidy(text, vocabulary, known, katakana)


@lru_cache(maxsize=4096)
def _tidy(text: str, vocabulary: frozenset[str], known: frozenset[str],
          katakana: frozenset[str]) -> str:
    cleaned = _marks(romaji.in_kana(unicodedata.normalize("NFKC", text)))
    cleaned = casual_japanese.plain(cleaned)  # 「入れといて」「急須って ある？」「注文で」
    cleaned = plain_request(cleaned)  # "so sorry, could you…", 「…ていただけますか」
    cleaned = kana_calendar.in_kanji(cleaned)  # 「1がつ11にちの あさ7じ」: 1月11日の朝7時
    cleaned = _in_katakana(cleaned, katakana)  # before stress: "かーと" is "カート"
    cleaned = _unstressed(cleaned, vocabulary | frozenset(CASUAL) | _CASUAL_READINGS)
    cleaned = _in_kanji(cleaned)
    cleaned = sms_french.spelled_out(cleaned)  # « cb ca coute », « g un code », « qd »
    cleaned = elision.restored(cleaned)  # « jai », « cest », « ya des… »: before the typos
    cleaned = negative_questions.asked_plainly(cleaned)  # « vous auriez pas de… ? »
    cleaned = _corrected(cleaned, vocabulary, known)
    cleaned = _shop_word_destination(cleaned)
    cleaned = _casual(cleaned)  # after: what a casual word stands for is spelt right
    cleaned = _digit_prepositions(cleaned)
    cleaned = _SPACES.sub(" ", cleaned).strip()
    return BARE_PLEASE.get(cleaned.lower().rstrip("!. "), None) or _requested(cleaned)


# "please" alone ("pls", "🙏") answers an offer: it takes it.
BARE_PLEASE = {"please": "yes please", "please please": "yes please",
               "s'il vous plaît": "oui, s'il vous plaît", "s'il te plaît": "oui, s'il te plaît"}


def _requested(text: str) -> str:
    """A cart request in a polite wrapper, as the request: "please add …"."""
    wrapped = _POLITE.match(text)
    if wrapped is None:
        return text
    request = text[wrapped.end():].rstrip(" ?？")
    return request if request.lower().startswith(("please", "s'il")) else "please " + request


def _marks(text: str) -> str:
    # an emoji with words after it ends a clause: "sounds good 👍 order it" is "sounds good
    # yes, order it" (the words after it are a request of their own)
    for emoji, word in EMOJI.items():
        text = re.sub(re.escape(emoji) + _WORDS_AFTER, word.rstrip() + ", ", text)
        text = text.replace(emoji, word)
    text = re.sub(rf"(?<=[^\W\d_])\s*(?:{_PICTOGRAPH.pattern})+{_WORDS_AFTER}", ", ", text)
    text = _PICTOGRAPH.sub(" ", text)
    # a line break is a pause: a comma, or nothing after a sentence's own mark
    text = _BREAKS.sub(", ", text.strip())
    # after the breaks, whose spaces they would eat: « and » keep theirs ("«\n0" stays stable)
    text = text.translate(_QUOTES)
    text = re.sub(r"([.,;:!?。！？、])\s*,\s", r"\1 ", text)
    return _SPACES.sub(" ", _MARKS.sub(r"\1", text)).strip()


def _unstressed(text: str, words: frozenset[str]) -> str:
    text = _LONG_AFTER_HIRAGANA.sub("", text)

    def fixed(word: re.Match[str]) -> str:
        typed = word.group()
        if not _REPEATED.search(typed):
            return typed
        two = _REPEATED.sub(r"\1\1", typed)
        one = _REPEATED.sub(r"\1", typed)
        if _HEX_LETTERS.fullmatch(typed) and not {fold_accents(one), fold_accents(two)} & words:
            return typed
        if fold_accents(one) in words or fold_accents(two) not in words and \
                _single_more_likely(two, one):
            return one
        return typed if _one_slip_from_a_word(typed, words) else two

    # whole words only: letters inside an id ("ord_01aaab3") are no stress
    return re.sub(r"(?<!\w)[^\W\d_]+(?!\w)", fixed, text)


def _one_slip_from_a_word(typed: str, words: frozenset[str]) -> bool:
    """Whether the word as typed is one slip from a known word ("abonnn", "cofffe"): its
    tripled letter a key pressed for another, which the typo stage then reads, while either
    squeeze would be a stub it keeps ("abonn", « coffe »: an ending short of a word)."""
    folded = fold_accents(typed).lower()
    return correct_words(folded, words) != folded


def _single_more_likely(two: str, one: str) -> bool:
    """Without a known word either way: stress on a vowel at the end of a word is one letter
    ("sooo" → "so"), elsewhere two ("goood" → "good")."""
    return two.lower().endswith(tuple(letter * 2 for letter in "aeiouy")) and len(one) <= 3


def _casual(text: str) -> str:
    def expanded(word: re.Match[str]) -> str:
        replacement = CASUAL[word.group().lower()]
        return replacement if replacement else " "

    return _SHORT_WITH.sub(_with_unless_west, _CASUAL_WORD.sub(expanded, text))


# A lone lower-case "w" typed for "with" between two words ("2 cacio e pepe w the fresh
# tonnarelli", "a mug w gift box"); never the "W" of an address ("500 W Madison St", where a
# number or a capital stands; "88 queen st w toronto", after a street type) nor a letter in a list.
_SHORT_WITH = re.compile(r"\b([a-z]+) w(?= (?:the |a |an |my |some |extra )?[a-z]{2,})")
_STREET_TYPE = re.compile(rf"(?:{STREET_TYPES})")


def _with_unless_west(match: re.Match[str]) -> str:
    before = match.group(1)
    return match.group() if _STREET_TYPE.fullmatch(before) else f"{before} with"


# "4" and "2" typed for "for" and "to" ("sign me up 4 the folio plan", "send it 2 my place"):
# only between a word a preposition follows and a determiner or pronoun, where no count
# stands ("add 2 to my cart", "get me 4 the blue ones" keep their counts).
_DIGIT_PREPOSITION = re.compile(
    r"\b(up|it|them|this|that|thanks|thank you|looking|search|searching|ship|send|sent|"
    r"deliver|go|going|come|back|pay|subscribe|subscribed|register|registered|signed|"
    r"enrol|enroll|enrolled|join|joined|on|out)\s+([42])(?=\s+(?:the|my|your|our|me|you|us|"
    r"a|an|it|this|that|these|those|him|her)\b)", re.IGNORECASE)


def _digit_prepositions(text: str) -> str:
    return _DIGIT_PREPOSITION.sub(
        lambda found: f"{found.group(1)} {'for' if found.group(2) == '4' else 'to'}", text)


def _in_katakana(text: str, katakana: frozenset[str]) -> str:
    if not katakana:
        return text

    def converted(run: re.Match[str]) -> str:
        typed = run.group()
        as_katakana = "".join(chr(ord(char) + 0x60) if "\u3041" <= char <= "\u3096" else char
                              for char in typed)
        for word in sorted(katakana, key=len, reverse=True):
            if len(word) >= 3 and word in as_katakana:
                start = as_katakana.index(word)
                return typed[:start] + word + typed[start + len(word):]
        return typed

    return _HIRAGANA_RUN.sub(converted, text)


# Words the stages read in kanji, typed in kana (as a phone's keyboard leaves them before
# conversion): three kana or more, so none is part of another common word.
IN_KANJI: dict[str, str] = {
    "ちゅうもん": "注文", "へんぴん": "返品", "へんきん": "返金", "かいやく": "解約",
    "はっそう": "発送", "とどいて": "届いて", "とどかない": "届かない", "よやく": "予約",
    "いれて": "入れて", "いれる": "入れる", "いれたい": "入れたい", "ついか": "追加",
    "さくじょ": "削除", "こうにゅう": "購入", "しはらい": "支払い", "じゅうしょ": "住所",
    "ていき": "定期", "いちじていし": "一時停止", "さいかい": "再開", "ひょうか": "評価",
    "かいたい": "買いたい", "かいます": "買います",
    # checkout, paying, collecting and sending, as the checkout and delivery lexicons write them
    "かいけい": "会計", "かくてい": "確定", "せいさん": "精算", "けっさい": "決済",
    "はらいます": "払います", "はらって": "払って", "うけとり": "受け取り", "うけとる": "受け取る",
    "うけとれ": "受け取れ", "とりにいき": "取りに行き", "とりにいく": "取りに行く",
    "もちかえり": "持ち帰り", "てんとう": "店頭", "とどけて": "届けて", "おくって": "送って",
    "はいそう": "配送", "おとどけさき": "お届け先",
    # changing, cancelling and asking after an order
    "とりけし": "取り消し", "へんこう": "変更", "こうかん": "交換", "ぜんぶ": "全部",
    "じょうきょう": "状況",
    # answers
    "おねがい": "お願い", "だいじょうぶ": "大丈夫", "けっこう": "結構",
}
_KANA_WORD = re.compile("|".join(sorted(IN_KANJI, key=len, reverse=True)))


# Colour and size adjectives the option readers know in kanji (青い, 大きい, 小さな), typed in
# kana: the stem, when its own ending follows (あおくて, おおきい, ちいさな) and no kana
# before it makes it part of another word.
KANA_ADJECTIVES: dict[str, str] = {"あお": "青", "しろ": "白", "くろ": "黒", "あか": "赤",
                                   "おおき": "大き", "ちいさ": "小さ"}
_KANA_ADJECTIVE = re.compile(r"(?<![\u3041-\u3096])(" + "|".join(KANA_ADJECTIVES) + r")"
                             r"(?=い(?:[^\u3041-\u3096]|$|の|ほう|です|やつ)|くて|な)")


# Stars counted in kana (「ほし5つ」): a rating's 星, never the ほし of ほしい.
_KANA_STARS = re.compile(r"(?<![\u3041-\u3096])ほし(?=\s*[\d一二三四五])")


def _in_kanji(text: str) -> str:
    text = _KANA_STARS.sub("星", text)
    text = _KANA_ADJECTIVE.sub(lambda found: KANA_ADJECTIVES[found.group(1)], text)
    return _KANA_WORD.sub(lambda found: IN_KANJI[found.group()], text)


def _corrected(text: str, vocabulary: frozenset[str], known: frozenset[str]) -> str:
    if not vocabulary:
        return text

    def fixed(word: re.Match[str]) -> str:
        typed = word.group()
        folded = fold_accents(typed)
        if _inflected(folded, vocabulary):
            return typed  # "larger" is no typo of "large", nor "orders" of "order"
        if folded in vocabulary or folded in known or folded == typed.lower():
            return typed if folded in vocabulary or folded in known else \
                correct_words(typed, vocabulary, known)
        corrected = correct_words(folded, vocabulary, known)
        return typed if corrected == folded else corrected

    return re.sub(r"(?<![\w'])[^\W\d_]{4,}(?![\w'])", fixed, text)


# Where a thing goes ("to my card", "in my bakset", « dans mon pannier »): a word one slip
# (a letter wrong, missing, added or two swapped) from a shop word is that shop word, even a
# real word ("card"), since a product is not where things are put. Only after a verb of
# putting: "charge it to my card" is a payment card.
_PUTTING = re.compile(r"\b(?:add|put|throw|toss|stick|pop|chuck|drop|slip|include|get|"
                      r"ajout\w*|rajout\w*|mett\w*|met|mets)\b|入れ|追加", re.IGNORECASE)
_SHOP_WORDS = ("cart", "basket", "checkout", "order", "panier", "commande")
_DESTINATION = re.compile(
    r"(?<![\w'])((?:to|in|into|onto|dans|à|a|au)\s+(?:my|the|our|your|mon|ma|le|la|notre|votre)"
    r"\s+)([^\W\d_]{4,9})(?![\w'])", re.IGNORECASE)


def _shop_word_destination(text: str) -> str:
    if _PUTTING.search(text) is None:
        return text

    def fixed(found: re.Match[str]) -> str:
        typed = found.group(2)
        if typed.lower() in _SHOP_WORDS:
            return found.group()
        near = [word for word in _SHOP_WORDS if OSA.distance(typed.lower(), word) <= 1]
        return found.group(1) + near[0] if len(near) == 1 else found.group()
    return _DESTINATION.sub(fixed, text)


_ENDINGS = ("s", "es", "d", "ed", "r", "er", "ing", "est", "ly", "e", "ee", "ees", "z", "ez", "ons",
            "ent")


def _inflected(word: str, vocabulary: frozenset[str]) -> bool:
    """Whether `word` is a vocabulary word with an ending ("larger", "plates", « annulée »),
    or one is `word` with an ending (« livre » is a book, not « livrée »)."""
    return any(word.endswith(ending) and word[:-len(ending)] in vocabulary
               for ending in _ENDINGS) or any(word + ending in vocabulary
                                              for ending in ("e", "s", "es", "ee"))
