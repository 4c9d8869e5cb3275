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
# A code applied without a code word: "apply SUMMER2020", "try FIVEOFF", "use pizzafriday"
# (a plain word only when it is one of the store's codes).
_APPLIED = re.compile(r"\b(?:please\s+)?(?:use|apply|try|enter|redeem|utilise[zr]?|applique[zr]?)"
                      r"\s+" + _TOKEN, re.IGNORECASE)
# Japanese puts the verb after the code: 「MIDORI500を使って」, 「OCHA10使えますか」.
_APPLIED_JA = re.compile(_TOKEN + r"\s*(?:を|は|って)?\s*(?:使|適用)(?:って(?:ください)?|います|"
                         r"いたい(?:です)?|えます(?:か)?|える|う|し(?:て(?:ください)?|ます|たい)|"
                         r"できますか|お願いします)?(?:の|かな)?", re.IGNORECASE)
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
    code: str | None  # the code said, upper case
    vague: bool  # a code word with no code after it ("I have a coupon")
    rest: str  # the message without the code and its lead-in


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("’", "'")


def shaped_like_a_code(word: str, known: frozenset[str] = frozenset()) -> bool:
    """A digit in it, all capitals, or one of the store's codes in any case."""
    if word.upper() in known:
        return True
    if word.lower() in _NOT_CODES:
        return False
    return bool(re.search(r"\d", word)) and bool(re.search(r"[A-Za-z]", word)) or (
        word.isupper() and len(word) >= 4)


@lru_cache(maxsize=4096)  # the dialogue state is rebuilt from every past message each turn
def read_code(raw: str, known: frozenset[str] = frozenset()) -> CodeReading:
    """The code said in `raw` and the words left around it."""
    text = _plain(raw)
    declined = _NO_CODE.search(text)
    if declined is not None:  # "never mind, no code. check out": no code, and no question
        return CodeReading(None, False, _joined(text, declined.start(), declined.end()))
    for applied in (*_APPLIED.finditer(text), *_APPLIED_JA.finditer(text)):
        if shaped_like_a_code(applied.group("token"), known) and \
                applied.group("token").lower() not in _NOT_CODES:
            return CodeReading(applied.group("token").replace(" ", "").upper(), False,
                               _joined(text, applied.start(), applied.end()))
    for match in _MENTION.finditer(text):
        token = match.group("token")
        if token is not None and (shaped_like_a_code(token, known) or _said_firmly(match)):
            return CodeReading(token.replace(" ", "").upper(), False,
                               _joined(text, match.start(), match.end()))
        if token is None or not shaped_like_a_code(token, known):
            # the code word alone: the request is kept whole but for the mention
            end = match.end() if token is None else match.start("token")
            return CodeReading(None, True, _joined(text, match.start(), end))
    return CodeReading(None, False, raw)


def _said_firmly(match: re.Match[str]) -> bool:
    """A plain word said as a code: after a verb that applies one, a link ("is", ":"), or last
    in its message ("…, code fiveoff"); never a word that is no code ("somewhere")."""
    token = match.group("token")
    if token.lower() in _NOT_CODES or not token.isalnum():
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
