"""Promotion codes said inside a request ("buy two plates, use code FIVEOFF", « j'ai le code
BIENVENUE », 「クーポンコードはSAKURA」): the code and the words left, read apart before any
intent is guessed, so the code is no product word and the request no code.

A word after a code word is the code when it is shaped like one (a digit in it, or written in
capitals), is one of the store's own codes in any case, or is said firmly as a code: after a
verb that applies one ("use code pizzafriday", « utilise le code dolce »), a link ("my code is
fiveoff", "code: fiveoff"), or alone at the end of the message ("…, code fiveoff"), since the
store's codes are not known before its page is read (a code the store does not have is refused
and explained). "I have a coupon" or "my code is somewhere" names none, and is a vague mention:
the agent asks for the code instead of applying the next word. A code said with a space
before its digits ("WELCOME 10") is one code."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from commerce_agent.agent.language.folding import fold
from commerce_agent.agent.language.numbers import NUMBER_WORDS

# The word that announces a code, in English, French and Japanese (longest first).
_CODE_WORD = (r"(?<![A-Za-z])(?<!&\s)"
              r"(?:(?:promo(?:tion(?:al)?)?|discount|coupon|voucher|offer)\s+code|"
              r"code\s+(?:promo(?:tionnel)?|de\s+r[ée]duction|r[ée]duction)|"
              r"bon\s+de\s+r[ée]duction|coupons?|vouchers?|promo|codes?|"
              r"クーポンコード|割引コード|プロモコード|プロモーションコード|クーポン|コード)")
# What may lead into it: "and use", "I've got a", "with the", "j'ai le", "avec mon".
_LEAD = (r"(?:\b(?:and|also|oh|plus|et|aussi)\s+)*"
         r"(?:\b(?:i(?:'ve|\s+have)?\s+got|i\s+have|i've|here'?s|"
         r"(?P<verb>please\s+use|use|apply|enter|redeem|with|using|avec|utilisez|utilise|"
         r"appliquez|applique|voici)|j'ai|jai)\s+)?"
         r"(?:\b(?:my|the|a|an|this|le|la|un|une|mon|ma|ce)\s+)?")
_LINK = r"(?:\s*(?P<link>\bis\b|\best\b|[:=：]|は|が)\s*|\s+)?"
# The code, with digits said apart from its word joined back ("WELCOME 10").
_TOKEN = (r"(?<![A-Za-z0-9_-])(?P<token>[A-Za-z0-9][A-Za-z0-9_-]{2,31}"  # noqa: S105
          r"(?:\s\d{1,4}(?=\s*(?:$|[,.;!?、。]|\band\b|\bet\b|\bplease\b)))?)(?![A-Za-z0-9_-])")
_MENTION = re.compile(f"{_LEAD}{_CODE_WORD}(?:{_LINK}{_TOKEN}(?:\\s*(?:です|で|を使って|を使用して"
                      f"|を適用して))?)?", re.IGNORECASE)
# A code applied without a code word, in any verb frame: "apply SUMMER2020", "try FIVEOFF",
# "add the DOLCE4 code", "put FIVEOFF on it", "with FOLIO3", "retry READMORE15", « réessaie
# READMORE15 », « mets le code FIVEOFF », « avec NAMASTE10 » (a plain word only when it is one
# of the store's codes).
_VERB = (r"(?:please\s+)?(?:use|apply|re-?apply|try|re-?try|add|enter|redeem|put|pop(?:\s+in)?|"
         r"stick|chuck|slap|bung|whack|throw(?:\s+in)?|with|using|give|colle[rz]?|coller|"
         r"tape[rz]?|taper|rentre[rz]?|rentrer|entre[rz]?|entrer|ajoute[rz]?|utilise[zr]?|utiliser|applique[zr]?|appliquer|essaie[rz]?|essaye[rz]?|"
         r"essayer|r[ée]-?essaie[zr]?|r[ée]-?essaye[zr]?|r[ée]-?essayer|ressaie|retente[zr]?|"
         r"mets|mettez|mettre|avec)")
_DETERMINER = (r"(?:(?:the|my|this|that|le|la|les|mon|ma|mes|ce)\s+)?"
               r"(?:(?:promo(?:tion(?:al)?)?\s+|discount\s+|coupon\s+)?codes?\s+)?")
_APPLIED = re.compile(rf"(?<![\w'-]){_VERB}\s+{_DETERMINER}" + _TOKEN, re.IGNORECASE)
# The code named before its code word: "I've got the NAMASTE10 code", "my FIVEOFF coupon too".
# 「MIDORI500というクーポン」「OCHA10ってコード」「NAMASTE10のクーポン」: Japanese names it so.
_NAMED_BEFORE = re.compile(_LEAD + _TOKEN + r"(?:\s*(?:という|っていう|って|の)\s*|\s+)"
                           + _CODE_WORD + r"(?![A-Za-z0-9_-])", re.IGNORECASE)
# Japanese puts the verb after the code: 「MIDORI500を使って」, 「OCHA10使えますか」,
# 「NAMASTE10を適用」, 「MIDORI500で」, 「OCHA10をもう一度使って」.
_APPLIED_JA = re.compile(_TOKEN + r"\s*(?:を|は|って|で|に)?\s*(?:もう一度|もう一回|再度)?\s*"
                         r"(?:(?:使|適用)(?:って(?:ください)?|います|"
                         r"いたい(?:です)?|えます(?:か)?|える|う|し(?:て(?:ください)?|ます|たい)|"
                         r"できますか|お願いします)?(?:の|かな)?|"
                         r"(?:つけ|付け|入れ|入力し)て(?:ください)?|"
                         # 「じゃあMIDORI500にして」「OCHA10に変えて」: the code made the one used
                         r"(?<=に)(?:して(?:ください)?|します|する|変えて(?:ください)?|"
                         r"変更(?:して(?:ください)?|します))|"
                         # 「OCHA10で注文します」「MIDORI500で会計」: the order made with it
                         r"(?<=で)(?=\s*(?:注文|会計|購入|買|決済|支払|お支払|精算|チェックアウト))|"
                         r"(?<=で)\s*(?:お願い(?:します)?)?"
                         r"(?=\s*(?:$|[。！!、,])))", re.IGNORECASE)
# Said again: "READMORE15 again", "give WELCOME10 another go", 「もう一度OCHA10を」,
# « encore READMORE15 ».
_AGAIN = (r"(?:again|once more|one more time|another (?:go|try|time)|encore(?: une fois)?|"
          r"[àa] nouveau|de nouveau|une fois de plus|もう一度|もう一回|再度)")
_RETRIED = re.compile(rf"(?<![\w'-]){_AGAIN}\s*{_TOKEN}\s*(?:を|で)?", re.IGNORECASE)
_RETRIED_AFTER = re.compile(rf"{_TOKEN}\s+{_AGAIN}\b", re.IGNORECASE)
# The code said before, asked for again without its name: "try the code once more", "have
# another go with that code", « réessaie le code », 「もう一度クーポンを使って」.
_THE_CODE_AGAIN = re.compile(
    r"\b(?:the|that|this|my|same)\s+(?:promo\s+|discount\s+)?(?:code|coupon)\s+(?:again|"
    r"once more|one more time)\b|"
    r"\b(?:retry|re-?try|re-?apply)\s+(?:the|that|this|my)\s+(?:code|coupon)\b|"
    r"\b(?:another|one more)\s+(?:go|try|shot)\s+(?:with|at|of)\s+(?:the|that|this|my)\s+"
    r"(?:code|coupon)\b|\b(?:give|try)\s+(?:the|that|this|my)\s+(?:code|coupon)\s+(?:another|"
    r"one more)\s+(?:go|try|shot|time)\b|"
    r"\br[ée]-?essa(?:ie|ye)[rz]?\s+(?:le|ce|mon)\s+code\b|"
    r"\b(?:le|ce|mon)\s+code\s+(?:encore|[àa] nouveau|de nouveau)\b|"
    r"(?:もう一度|もう一回|再度)\s*(?:その)?(?:クーポン|コード)|(?:その)?(?:クーポン|コード)を?\s*"
    r"(?:もう一度|もう一回|再度)", re.IGNORECASE)
# A verb left behind by the code it took ("…and have another go with that code").
_VERB_LEFT = re.compile(r"(?:(?:^|[\s,]+)(?:and\s+)?(?:have|try|use|apply|give|put|stick|pop|chuck|"
                        r"slap|throw|et)?)+$", re.IGNORECASE)
# A code held out or proposed without a code word: "oh and I have welcome10!", "I've got
# folio3", "here's namaste10", "what about NAMASTE10 then" (after one was refused), "how about
# fiveoff?", « et avec FIVEOFF ? », « j'ai welcome10 », 「じゃあMIDORI500は？」 is read by the
# Japanese frame. Only a word written as codes are (letters then digits) or a store's own code
# is one here: "I have 2 mugs", "what about the 16oz?" or "how about EPUB?" name none.
_HELD_OR_PROPOSED = re.compile(
    r"(?<![\w'-])(?:i\s+(?:have|got)|i'?ve(?:\s+got)?|got|here'?s|(?:what|how)\s+about|"
    r"maybe|j'ai|jai|voici|et\s+avec|sinon|plut[ôo]t)\s+"
    r"(?:(?:the|my|a|this|le|la|mon|ma|ce)\s+)?" + _TOKEN, re.IGNORECASE)
# Further codes joined to one: "READMORE15 and FOLIO3", "readmore15 + folio3", « READMORE15 et
# FOLIO3 », 「AとB」.
_JOINED = re.compile(r"\s*(?:,\s*(?:and\s+|et\s+)?|\s(?:and|et|plus)\s+|[&+/]|と|、)\s*"
                     + _TOKEN, re.IGNORECASE)
# What may be left beside a code without asking for anything else: "again", "on it",
# "please", « encore », « svp », 「を」「お願いします」.
_AROUND = frozenset("""again once more one time another go try give use apply retry add put
enter redeem pop in stick with the code codes it on to my this that order cart basket too
instead as well please pls plz now chuck slap bung whack throw then and ok okay fine so hmm
oh well could can you would
just also let's lets me a shot whirl spin mets essaie colle coller tape rentre entre
ajoute dessus réessaie ressaie utilise applique avec encore nouveau de
fois plus une sur le la les ma mon commande panier aussi svp stp alors bon ah ok merci tu
peux vous pouvez pourriez peux-tu pouvez-vous pourriez-vous mettre utiliser appliquer essayer
if they stack stacks combine combined possible both si cumulable cumulables cumulent
s'il plaît plait te thanks thank cheers
tiens ben bah euh voila voilà hop là place à plutôt plutot hm hmm um umm sinon
""".split())  # ("FOLIO3 as well if they stack", « si c'est cumulable »; French fillers:
# « tiens », « bon ben », « à la place »)
_AROUND_JA = re.compile(r"(?:もう一度|もう一回|再度|じゃあ|じゃ|では|それでは|やっぱり|"
                        r"やっぱ|代わりに|を|で|は|が|お願いします|お願い|ください|"
                        r"使(?:って|いたい(?:です)?|います|う|えますか|える)|持っています|あります|"
                        r"適用して|適用|つけて|付けて|入れて|入力して|して|[。！!、,.\s])+")
# A message that is only a code, answering "what is the code?": "WELCOME10", "it's welcome10",
# « c'est FOLIO3 », 「MIDORI500です」.
_ANSWER = re.compile(r"\s*(?:(?:it'?s|it\s+is|the\s+code\s+is|code\s*:?|c'est|voici|le\s+code\s+"
                     r"est)\s+)?([A-Za-z0-9][A-Za-z0-9_-]{2,31})\s*(?:です|だよ|で)?\s*[.!。！]?\s*",
                     re.IGNORECASE)
# Words that follow a code word without being a code ("my code is somewhere").
_NOT_CODES = frozenset("""is for the and that this somewhere here too please but if on at which
from to you first orders order also ready handy with in of it its my your a an saved
somewhere anywhere est pour que qui de du des le la les mais aussi svp merci sur dans
valid invalid expired applied work works working still not now wrong needed required field
anymore none nope no yes yeah ok okay later lost there what best better cheapest nevermind
skip cancel forget sorry nothing thanks thank again instead then valide marche
""".split())
# A code named by its offer's words before its code word, after a verb that applies one:
# "use the dessert code", "apply my 10% coupon", « utilisez le code » is read by `_MENTION`.
_DESCRIBED = re.compile(r"(?:\b(?:and|also|et)\s+)?(?:\bplease\s+)?\b(?:use|apply|redeem|add|"
                        r"utilise[rz]?|applique[rz]?|ajoute[rz]?)\s+(?:(?:the|my|that|this|your|"
                        r"le|la|mon|ma|ce|votre)\s+)?(?:[\w'’$€£¥%.-]+\s+){1,3}$", re.IGNORECASE)
# What a mention leaves behind: "and buy…" after "use code X", 「…があります」.
_LEFT_OVER = re.compile(r"^(?:(?:and|then|et|puis)\b\s*|"
                        r"(?:が|を)?(?:あります|持っています|持ってます)[。.!！]?$)", re.IGNORECASE)
# Going without a code: "no code", "without a coupon", "forget the code", « sans code »,
# 「クーポンなし」. Neither a code nor a vague mention: the purchase goes on without one.
_NO_CODE = re.compile(r"(?:\b(?:no|without(?:\s+(?:a|the|any))?|forget(?:\s+(?:the|about\s+the))?|"
                      r"never\s?mind(?:\s+the)?|skip(?:\s+the)?|sans|pas\s+de)\s+"
                      r"(?:promo(?:tion(?:al)?)?\s+|discount\s+)?(?:code|coupon|voucher|promo)s?\b"
                      r"(?:\s+promo)?|(?:クーポン|コード)(?:なし|は(?:いりません|ないです|ありません)))",
                      re.IGNORECASE)
_SEPARATORS = re.compile(r"^[\s,;.!?、。—–-]+|[\s,;、—–-]+$")


@dataclass(frozen=True)
class CodeReading:
    codes: tuple[str, ...]  # the codes said, upper case, in the order said
    vague: bool  # a code word with no code after it ("I have a coupon")
    rest: str  # the message without the codes and their lead-in
    again: bool = False  # the code said before, asked for again ("try the code once more")
    declined: bool = False  # going without one ("order it without the code")
    mention: str = ""  # a code named by its offer's words ("use the dessert code")

    @property
    def code(self) -> str | None:
        return self.codes[0] if self.codes else None


# A code set in quotation marks of any script ("folio3", 'FIVEOFF', « DOLCE4 », 「OCHA10」,
# 『MIDORI500』, 【NAMASTE10】): the marks only set the code apart, as a space does. An
# apostrophe is a quotation mark only where no letter touches it from outside ("it's", "I'm").
_QUOTED = re.compile(r"(?:(?<![A-Za-z0-9])['\"]|[“‘«‹「『【〈《])\s*"
                     r"(?P<code>[A-Za-z0-9]+(?:[ _-][A-Za-z0-9]+)?)"
                     r"\s*(?:['\"](?![A-Za-z0-9])|[”’»›」』】〉》])")


def _plain(text: str) -> str:
    """The text in NFKC, each quoted code set apart by spaces; beside a code word, a quoted
    word is said as a code ("the code 'fiveoff'"), written as codes are, its pieces joined
    (「OCHA 10」)."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'")
    if re.search(_CODE_WORD, text, re.IGNORECASE) is None:
        return _QUOTED.sub(lambda quoted: f" {quoted.group('code')} ", text)
    return _QUOTED.sub(lambda quoted: " {} ".format(
        re.sub(r"[ _-]", "", quoted.group("code")).upper()), text)


def shaped_like_a_code(word: str, known: frozenset[str] = frozenset()) -> bool:
    """A digit in it, all capitals, or one of the store's codes in any case."""
    if word.upper() in known:
        return True
    if word.lower() in _NOT_CODES:
        return False
    return bool(re.search(r"\d", word)) and bool(re.search(r"[A-Za-z]", word)) or (
        word.isupper() and len(word) >= 4)


def _a_code_in_a_frame(word: str, known: frozenset[str], shouting: bool = False) -> bool:
    """A word said where a code goes ("add the X code", "X again") is one when the store has
    it, or when it is written as codes are (letters first, then digits: "DOLCE4", "folio3";
    or capitals, unless the whole message is: "FIVEOFF"); sizes ("12oz"), models ("v60") and
    order ids ("b57b94", "ord_01a2…") are not."""
    if word.replace(" ", "").upper() in known:
        return True
    if " " in word:  # digits said apart ("WELCOME 10"): a code in capitals, never "alors 3"
        return word.split()[0].isupper() and not shouting and len(word.split()[0]) >= 4
    if word.lower() in _NOT_CODES or not word[0].isalpha() or "_" in word:
        return False
    letters = sum(char.isalpha() for char in word)
    with_digits = any(char.isdigit() for char in word) and letters >= 3
    hexadecimal = re.fullmatch(r"[0-9a-fA-F]+", word) is not None
    return (with_digits and not hexadecimal) or (
        word.isupper() and letters >= 4 and not shouting)


def _shouting(text: str) -> bool:
    """The whole message in capitals ("USE FIVEOFF PLEASE"): capitals then tell no code apart.
    A single Latin word among Japanese (「FIVEOFFのクーポン」) is no shouting."""
    latin = re.findall(r"[A-Za-z]+", text)
    return len(latin) > 1 and re.search(r"[a-z]", text) is None or not latin


def _only_around(rest: str) -> bool:
    """Whether what is left beside the codes asks for nothing ("again", "on it", 「を」)."""
    rest = _AROUND_JA.sub(" ", rest)
    return all(word in _AROUND for word in re.findall(r"[\w'-]+", rest.casefold()))


def _framed(text: str, known: frozenset[str]) -> list[tuple[int, int, str]]:
    """Every code said in a frame (a verb, "again", a Japanese particle, or a store's own code
    anywhere), with the span of its frame, in the order said; codes joined to one by "and"
    follow it."""
    shouting = _shouting(text)
    spans: list[tuple[int, int, str]] = []
    frames = (*_APPLIED.finditer(text), *_APPLIED_JA.finditer(text), *_RETRIED.finditer(text),
              *_RETRIED_AFTER.finditer(text), *_NAMED_BEFORE.finditer(text))
    for match in frames:
        token = match.group("token")
        if _a_code_in_a_frame(token.replace(" ", ""), known, shouting):
            spans.append((match.start(), match.end(), token.replace(" ", "").upper()))
    for match in _HELD_OR_PROPOSED.finditer(text):  # "i have welcome10", "what about X then"
        token = match.group("token")
        if token.upper() in known or (" " not in token and _a_code_in_a_frame(
                token, frozenset(), shouting=True)):
            spans.append((match.start(), match.end(), token.replace(" ", "").upper()))
    for match in _MENTION.finditer(text):  # "my coupon code is pizzafriday", "code: X"
        token = match.group("token")
        if token is not None and (_a_code_in_a_frame(token, known, shouting) or
                                  _said_firmly(match)):
            spans.append((match.start(), match.end(), token.replace(" ", "").upper()))
    for match in re.finditer(_TOKEN, text):
        if match.group("token").upper() in known:
            spans.append((match.start(), match.end(), match.group("token").upper()))
    kept: list[tuple[int, int, str]] = []
    for start, end, code in sorted(spans):
        if kept and start < kept[-1][1]:
            if end > kept[-1][1] and code == kept[-1][2]:
                kept[-1] = (kept[-1][0], end, code)
            continue
        kept.append((start, end, code))
        joined = _JOINED.match(text, end)
        while joined is not None and _a_code_in_a_frame(joined.group("token"), known, shouting):
            kept.append((joined.start(), joined.end(), joined.group("token").upper()))
            joined = _JOINED.match(text, joined.end())
    return kept


def _only_codes(text: str, known: frozenset[str]) -> list[tuple[int, int, str]]:
    """The codes of a message that says nothing else ("READMORE15", "DOLCE4 and PIZZAFRIDAY
    please", "namaste10 pls")."""
    shouting = _shouting(text)
    found = [(m.start(), m.end(), m.group("token").upper()) for m in re.finditer(_TOKEN, text)
             if _a_code_in_a_frame(m.group("token"), known, shouting)]
    if not found:
        return []
    rest = "".join(text[end:start] for (_, end, _), (start, _, _) in zip(
        [(0, 0, "")] + found, [*found, (len(text), 0, "")], strict=True))
    return found if _only_around(rest.replace("&", " ")) else []


# A code said firmly in two pieces, last in its message ("the code is Five Off", "code: dolce
# four", "use code welcome ten"): one code, its pieces joined (a store's code with its number
# in words is found by `spelled_code`).
_IN_TWO = re.compile(rf"(?P<head>(?:\b(?:use|apply|enter|redeem|try)\s+(?:the\s+|my\s+)?"
                     rf"{_CODE_WORD}\s+|{_CODE_WORD}\s*(?:\bis\b|\best\b|[:=：])\s*))"
                     r"(?P<first>[A-Za-z]{2,12})[\s-](?P<second>[A-Za-z0-9]{1,8})"
                     r"(?=\s*[.!?。！]*\s*$)", re.IGNORECASE)


def _pieces_joined(text: str, known: frozenset[str]) -> str:
    """`text` with a code said in pieces written as one: a store's code spaced or dashed
    anywhere ("five-off", "DOLCE 4", "ocha 10"), or any code said firmly in two pieces at
    the end ("the code is five off")."""
    for code in sorted(known, key=len, reverse=True):
        if len(code) < 5:
            continue
        spaced = r"[\s_-]?".join(re.escape(char) for char in code)
        text = re.sub(rf"(?<![A-Za-z0-9]){spaced}(?![A-Za-z0-9])", code, text,
                      flags=re.IGNORECASE)
    joined = _IN_TWO.search(text)
    if joined is not None and not {joined.group("first").lower(), joined.group(
            "second").lower()} & (_AROUND | _NOT_CODES):
        text = (text[:joined.start()] + joined.group("head") + joined.group("first") +
                joined.group("second") + text[joined.end():])
    return text


@lru_cache(maxsize=4096)  # the dialogue state is rebuilt from every past message each turn
def read_code(raw: str, known: frozenset[str] = frozenset()) -> CodeReading:
    """The codes said in `raw` and the words left around them."""
    text = _pieces_joined(_plain(raw), known)
    declined = _NO_CODE.search(text)
    if declined is not None:  # "never mind, no code. check out": no code, and no question
        return CodeReading((), False, _joined(text, declined.start(), declined.end()),
                           declined=True)
    again = _THE_CODE_AGAIN.search(text)
    if again is not None and not _framed(text, known):
        left = _VERB_LEFT.sub("", _joined(text, again.start(), again.end()))
        return CodeReading((), False, "" if _only_around(left) else left, again=True)
    framed, alone = _framed(text, known), _only_codes(text, known)
    spans = alone if len(alone) > len(framed) else framed  # "DOLCE4 and PIZZAFRIDAY please"
    if spans:
        codes = tuple(dict.fromkeys(code for _, _, code in spans))
        rest, last = [], 0
        for start, end, _ in spans:
            rest.append(_SEPARATORS.sub("", text[last:start]))
            last = end
        rest.append(_LEFT_OVER.sub("", _SEPARATORS.sub("", text[last:])))
        left = ", ".join(part for part in rest if part)
        return CodeReading(codes, False, "" if _only_around(left) else left)
    for match in _MENTION.finditer(text):
        token = match.group("token")
        if token is not None and (shaped_like_a_code(token, known) or _said_firmly(match)):
            left = _joined(text, match.start(), match.end())
            return CodeReading((token.replace(" ", "").upper(),), False,
                               "" if _only_around(left) else left)
        if token is None or not shaped_like_a_code(token, known):
            # the code word alone: the request is kept whole but for the mention, and the
            # words that describe the code ("…, use the dessert code": that offer's code)
            end = match.end() if token is None else match.start("token")
            described = _DESCRIBED.search(text[:match.start()])
            start = described.start() if described is not None else match.start()
            return CodeReading((), True, _joined(text, start, end),
                               mention=text[start:end] if described is not None else "")
    return CodeReading((), False, raw)


def _said_firmly(match: re.Match[str]) -> bool:
    """A plain word said as a code: after a verb that applies one, a link ("is", ":"), or last
    in its message ("…, code fiveoff"); never a word that is no code ("somewhere")."""
    token = match.group("token")
    if token.lower() in _NOT_CODES or not token.replace("-", "").isalnum():
        return False
    at_the_end = not match.string[match.end():].strip(" .!?。！")
    return bool(match.group("verb") or match.group("link") or at_the_end)


@lru_cache(maxsize=4096)
def code_answer(raw: str, known: frozenset[str] = frozenset()) -> str | None:
    """The code, when the whole message is one ("it's WELCOME10", 「MIDORI500です」); asked
    for a code, a plain word is one too ("fiveoff"), unless it is no code ("nope")."""
    match = _ANSWER.fullmatch(_plain(raw))
    if match is None or not (shaped_like_a_code(match.group(1), known) or (
            match.group(1).isalpha() and match.group(1).lower() not in _NOT_CODES)):
        return None
    return match.group(1).upper()


def _joined(text: str, start: int, end: int) -> str:
    before, after = _SEPARATORS.sub("", text[:start]), _SEPARATORS.sub("", text[end:])
    after = _LEFT_OVER.sub("", after)
    return ", ".join(part for part in (before, after) if part)


# Read more loosely once a message is known to apply a code (`promotion_code`): a word after a
# code word, or one shaped like a code.
_AFTER_A_CODE_WORD = re.compile(r"\b(?:code|coupon|promo(?:tion)?(?:\s+code)?|voucher)\s*:?\s*"
                                r"([A-Za-z0-9][A-Za-z0-9_-]{2,31})\b", re.IGNORECASE)
_CODE_SHAPE = re.compile(r"\b([A-Z][A-Z0-9_-]*\d[A-Z0-9_-]*|[A-Z]{4,}\d*)\b")


def codes_said(raw: str, known: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The codes a request to apply codes names: `read_code`'s, else the one
    `promotion_code` finds."""
    return read_code(raw, known).codes or tuple(
        code for code in [promotion_code(raw, known)] if code)


def promotion_code(raw: str, known: frozenset[str] = frozenset()) -> str | None:
    """The code in "apply code WELCOME10", a bare "WELCOME10", or any word that is one of the
    store's own codes in any case ("use fiveoff"), for a message already meant to apply one:
    read more loosely than `read_code`. A word after "coupon" that is neither a known code nor
    shaped like one ("a coupon for first orders") is no code."""
    for word in re.findall(r"[A-Za-z0-9_-]{3,32}", raw):
        if word.upper() in known:
            return str(word.upper())
    spelled = _spelled_code(raw, known)
    if spelled is not None:
        return spelled
    match = _AFTER_A_CODE_WORD.search(raw)
    if match and (re.search(r"\d", match.group(1)) or match.group(1).isupper()):
        return match.group(1).upper()
    shaped = _CODE_SHAPE.search(raw)
    return shaped.group(1) if shaped else None


def spelled_code(raw: str, known: frozenset[str]) -> str | None:
    """The store's code `raw` spells in pieces or with its number in words, if any."""
    return _spelled_code(raw, known)


def _spelled_code(raw: str, known: frozenset[str]) -> str | None:
    """A store's code written in pieces or with its number in words ("five off", "dolce
    four", "welcome 10"): the message without spaces, as typed and with number words as
    digits, holds it. Short codes are left to the exact match (a run of letters could hold
    them by chance)."""
    folded = fold(raw)
    digits = re.sub(r"\b[a-z]+\b", lambda word: str(NUMBER_WORDS[word.group()])
                    if word.group() in NUMBER_WORDS and word.group() not in ("a", "an")
                    else word.group(), folded)
    compact = [re.sub(r"[^a-z0-9]", "", text) for text in (folded, digits)]
    return next((code for code in sorted(known, key=len, reverse=True)
                 if len(code) >= 5 and any(code.lower() in text for text in compact)), None)


# A code waved away ("never mind the code", "forget about the coupon", "skip the discount",
# « oublie le code », « laisse tomber la promo », 「クーポンはいいです」「コードは使わないで」):
# nothing to apply, and whatever else the message asks is read on its own.
_WAVED_AWAY = re.compile(
    r"\b(?:never ?mind|forget(?: about)?|skip|scrap|drop|ignore|no need for|don'?t (?:use|"
    r"apply|bother with)|oublie[rz]?|laisse[rz]? tomber|pas besoin d[eu]|n'utilise[rz]? pas|"
    r"n'applique[rz]? pas)\s+(?:(?:the|a|my|that|this|any|le|la|l'|mon|ma|ce|cette|du|de)\s*)?"
    r"(?:discount\s+|promo\s+)?(?:code|coupon|voucher|promo|discount|reduction|remise)s?\b"
    r"(?:\s+(?:promo|de reduction))?|"
    r"(?:クーポン|コード|割引)(?:コード)?(?:は|を)?(?:もう|やっぱり)?\s*(?:いい(?:です|や|よ)?|"
    r"いらない|要らない|いりません|使わないで(?:ください)?|なしで)(?:ので|から)?",
    re.IGNORECASE)


def waves_a_code_away(text: str) -> bool:
    return _WAVED_AWAY.search(fold(text)) is not None


@lru_cache(maxsize=4096)
def without_code_waved_away(text: str) -> str | None:
    """The rest of a message that waves a code away, when something is left ("forget the
    code and check out" → "and check out"); None when no code is waved away or nothing is
    left."""
    found = _WAVED_AWAY.search(fold(text))
    if found is None:
        return None
    rest = (fold(text)[:found.start()] + " " + fold(text)[found.end():]) \
        if len(fold(text)) != len(text) else text[:found.start()] + " " + text[found.end():]
    rest = re.sub(r"^[\s,.;:!、。]*(?:(?:and|just|then|et|puis|alors)\b[\s,]*)*", "", rest)
    rest = re.sub(r"[\s,;、]+$", "", rest).strip()
    return rest if re.search(r"\w", rest) else None


# A word written as codes are, wherever it stands ("is SUMMER2020 still valid", 「OCHA10は
# まだ有効ですか」, « le code FIVEOFF marche encore ? »).
_ANY_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9-]{2,31})(?![A-Za-z0-9_-])")


def codes_asked_about(raw: str, known: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The codes a message names, however it names them, for a question about them (never to
    apply them): a store's own code in any case, a word of letters then digits ("OCHA10"),
    one in capitals of six letters or more ("FIVEOFF"; "EPUB" or "PDF" are formats), or one
    said in a code's frame ("the code welcome10"). Order ids and sizes are none."""
    text = unicodedata.normalize("NFKC", raw)
    shouting = _shouting(text)
    found = list(read_code(text, known).codes)
    for match in _ANY_TOKEN.finditer(text):
        token = match.group(1)
        letters = sum(char.isalpha() for char in token)
        if token.upper() in known or (_a_code_in_a_frame(token, known, shouting) and (
                any(char.isdigit() for char in token) or letters >= 6)):
            found.append(token.upper())
    return tuple(dict.fromkeys(found))
