"""Delivery details in a shopper's own words: the address apart from the request around it.

"buy the glaze mug and ship it to 12 Oak St, Portland, OR 97202, thanks!" is a request ("buy
the glaze mug") and an address ("12 Oak St, Portland, OR 97202"). The address starts after a
lead-in ("ship to", "my address is", "livraison au", "送り先は") or, without one, where
`addresses.find_address` sees a house number and a street; it loses what is no part of a
place (a name before it, an e-mail, a phone number, "thanks", "です"). An address written on
several lines drops its label and name lines. What is left of the message is `rest`.

`missing` says what a delivery still needs: the city and postcode (a street alone) or the
country (a postcode no country claims). `amended` applies a later correction ("wrong zip,
94110", "actually it's apartment 4B") or completion ("Portland, OR 97202") to an address.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from babel import Locale

from commerce_agent.agent.language import japanese_verbs
from commerce_agent.agent.language.addresses import (
    US_STATES,
    address_end,
    find_address,
)
from commerce_agent.agent.language.countries import country_ending, country_named
from commerce_agent.agent.language.detect import in_japanese_script

_LEAD_IN = re.compile(
    r"(?:(?:\band|\bthen|,|\bet|\bpuis)\s+)?(?:\bplease\s+)?"
    r"(?:\b(?:ship(?:ped|ping)?|send(?:ing)?|sent|deliver(?:ed|ing)?|post(?:ed)?|mail(?:ed)?|"
    r"bring|brought)(?:\s+(?:it|them|this|that|these|those|everything|all|the\s+\w+|my\s+\w+|"
    r"it\s+all))?(?:\s+(?:over|out|off))?\s+to\b|"
    r"\b(?:(?:my|our|the)\s+)?(?:delivery\s+|shipping\s+|home\s+)?address\s+(?:is|will be)\b|"
    r"\b(?:i|we)\s+(?:live|am|are|'m|'re)\s+(?:at|in)\b|"
    r"\b(?:it|they|this|that|everything|the\s+(?:order|parcel|package)|my\s+order)"
    r"(?:\s+(?:should|will|can|must|needs?\s+to|has\s+to|is|are)|'s|'re|'ll)?\s+"
    r"(?:go(?:es|ing)?|be\s+(?:sent|shipped|delivered))\s+to\b|\blives?\s+at\b|\b(?:i|we)'?(?:m|re)\s+at\b|"
    r"\b(?:j'habite|nous habitons|j'suis)\s+(?:au|à|a)\b|"
    r"\b(?:delivery|shipping)\s+address\b|\baddress\b\s*:|\bship\s+to\s*:|"
    r"\b(?:livre[rz]?|envoie[rz]?|envoyer|expedie[rz]?|expédie[rz]?|livraison)"
    r"(?:-(?:le|la|les|moi|nous))*(?:\s+(?:le|la|les|moi|ça|ca|tout|le tout))?\s+"
    r"(?:à|au|aux|a|chez)\b|"
    # "livrées au …", « envoyé chez … »: the participle of a delivery verb, then the place
    r"\b(?:livr|envoy|exp[ée]di)(?:é|ée|és|ées|ee|ees)\s+(?:à|au|aux|a|chez)\b|"
    r"\b(?:mon|notre)\s+adresse\s+(?:est|:)|\b(?:(?:mon|ma|notre)\s+)?adresse(?:\s+de\s+livraison)?\s*:|"
    r"(?:送り先|お届け先|配送先|届け先|住所|宛先)(?:は|：|:))\s*:?\s*",
    re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"(?:\+\d[\d ().-]{7,}\d|\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b|"
                    r"\b0\d{1,4}-\d{1,4}-\d{3,4}\b)")
# Where the words about the place end: courtesy, a new request, a question.
_AFTER = re.compile(
    r"[!?？！]|\n\s*\n|\b(?:not|instead of|rather than|au lieu de|thanks?|thank you|thx|cheers|"
    r"please|pls|merci|svp|"
    r"s'il vous pla[iî]t|s'il te pla[iî]t|(?:my\s+|mon\s+)?(?:phone|tel|telephone|mobile|cell|"
    r"e-?mail|téléphone|portable|courriel)(?:\s+(?:number|is|est|:))?)\b|電話|メール|(?:です|でお願い|にお願い|へお願い|まで|に送|へ送|"
    r"に届|へ届|お願いします|。)", re.IGNORECASE)
_NAME = re.compile(r"^\s*(?:(?:mr|mrs|ms|dr|mme|m)\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'.-]+){1,3}"
                   r"\s*$")
_LABEL = re.compile(r"^\s*(?:ship(?:ping)? to|deliver(?:y)? to|send to|address|delivery address|"
                    r"shipping address|adresse(?: de livraison)?|livraison|送り先|お届け先|配送先|"
                    r"住所|宛先)\s*[:：]?\s*$", re.IGNORECASE)
_DANGLING = re.compile(r"(?:[\s,;:]|\b(?:and|then|to|at|et|à|au)\b)+$", re.IGNORECASE)
_UNIT = re.compile(r"\b(?:apartment|apt|flat|suite|ste|unit|appartement|appt|bureau|room)\b\.?"
                   r"\s*(?:#|no\.?|n°)?\s*[\w-]*\d[\w-]*|#\s*\w*\d\w*|\b\d+[a-z]?\s*号室",
                   re.IGNORECASE)
_POSTCODES = (
    re.compile(r"\b\d{5}(?:-\d{4})?\b"),                              # US ZIP, FR, DE
    re.compile(r"\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b", re.IGNORECASE),      # Canada
    re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b", re.IGNORECASE),  # UK
    re.compile(r"〒?\s?\b\d{3}-\d{4}\b"),                             # Japan
    re.compile(r"\b[A-Z]\d{2}\s?[A-Z\d]{4}\b", re.IGNORECASE),       # Ireland (Eircode)
    re.compile(r"\b\d{4}\b"),                                         # AU, NZ, CH, AT, BE…
)
_FRENCH_STREET = re.compile(r"\b(?:rue|avenue|boulevard|bd|place|quai|allée|allee|impasse|"
                            r"chemin|route|cours|passage)\b", re.IGNORECASE)
_GERMAN_STREET = re.compile(r"(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm|ufer)\b",
                            re.IGNORECASE)
_ENGLISH_STREET = re.compile(r"\b(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|dr|drive|"
                             r"ct|court|way|pl|place|hwy|highway|pkwy|parkway|ter|terrace)\b\.?",
                             re.IGNORECASE)
_US_STATE = re.compile(r"\b(?:" + "|".join(sorted(US_STATES, key=len, reverse=True)) + r")\b")
_AU_STATES = frozenset("nsw vic qld wa sa tas act nt".split())
_CORRECTION = re.compile(
    r"\b(?:wrong|actually|sorry|correction|typo|should be|meant|instead|not|oops|i mean|"
    r"it'?s|c'est|en fait|plutôt|plutot|pardon|erreur|mauvais|zip|zip code|postcode|post code|"
    r"postal code|code postal)\b|間違|訂正|ではなく|じゃなく|でした|正しくは|郵便番号",
    re.IGNORECASE)
# The order taken away rather than delivered, said without a collecting verb (the checkout
# stage reads it too).
TAKEN_AWAY = (r"(?<!ready )(?<!good )(?<!got )(?<!want )(?<!have )to go|carry-?out|"
               r"no (?:need (?:for|to) )?deliver\w*(?: (?:needed|necessary|required))?|"
               r"don'?t (?:need to )?deliver(?: it| them)?|in person|"
               r"(?:i'?m|i am|we'?re|we are) (?:nearby|close by|local|around the corner|"
               r"just down the (?:road|street))|(?:swing|stop|drop|pop) (?:by|in)|come by")
_PICKUP = re.compile(
    r"\b(?:pick(?:ing)?\s+(?:it|them|this|that|those|the\s+\w+|everything)?\s*up|pick-?up|"
    r"(?:grab|get|fetch)\s+(?:it|them)\s+(?:at|from)\s+(?:the|your)\s+(?:counter|store|shop|"
    r"restaurant|studio|front)|"
    r"collect(?:ing|ion)?|click and collect|come (?:and |to )?(?:get|grab|fetch)|"
    r"retrait|retirer|r[ée]cup[èée]r(?:e|er|erai|erons|ez|ons)|"
    # coming for it in French: "je passe la prendre", "je viendrai la chercher", "on ira les
    # chercher"
    r"pass\w* (?:les |le |la |l')?(?:chercher|prendre)|"
    r"(?:vien\w*|viendr\w*|venir|vais|irai|ira|irons) (?:les |le |la |l')?chercher|"
    r"en magasin|en boutique|sur place|take-?out|take-?away|à emporter|a emporter|"
    # taken away, not brought: "to go", "no delivery needed, I'm nearby", "I'll swing by"
    rf"{TAKEN_AWAY})\b|"
    r"店頭|受け取り|受取|取りに|テイクアウト|持ち帰り", re.IGNORECASE)
# What only says the order is collected, and where: "à emporter", "takeaway", "to go", and the
# place after a collecting verb ("I'll collect it at the Portland studio", « je passe le
# chercher au restaurant »). Cut from the request, so the place's words name no product or store.
_PICKUP_MARKER = re.compile(
    r"(?:,\s*)?\b(?:(?:for\s+)?take-?away|(?:for\s+)?take-?out|(?:à|a)\s+emporter|en\s+retrait|"
    rf"{TAKEN_AWAY})\b|"
    # 「店頭で受け取りで」「お店での受け取りを希望」「持ち帰りで」: the way it is had, whole
    r"(?:(?:店頭|お店|店舗)\s*(?:で|に)?\s*(?:の)?\s*)?(?:受け取り|受取|引き取り|持ち帰り|"
    r"テイクアウト)\s*(?:で|に|を)?\s*(?:希望(?:します)?)?"
    r"(?=\s*(?:$|[、。,.!！]|ください|お願い|します|したい))|店頭で|お店で", re.IGNORECASE)
_PICKUP_PLACE = re.compile(
    r"(?P<verb>\b(?:pick(?:ing)?\s+(?:it|them|everything)\s+up|pick(?:ing)?\s+up|"
    r"collect(?:ing)?(?:\s+(?:it|them|everything))?|grab\s+(?:it|them)|get\s+(?:it|them)|"
    r"chercher|prendre|récupérer|recuperer))\s+"
    r"(?:(?:at|from|in)\s+(?:the|your|our)\s+|(?:au|à\s+la|a\s+la|à\s+l'|a\s+l')\s*)"
    r"(?:[^\W\d][\w'-]*\s+){0,3}?"
    r"(?:studio|store|shop|counter|restaurant|boutique|location|branch|place|magasin|comptoir)\b",
    re.IGNORECASE)


# The address used before, named rather than written (with the lead-in that sends it there).
_SAME_ADDRESS = re.compile(
    rf"(?:{_LEAD_IN.pattern})?(?:"
    r"\b(?:(?:to|at)\s+)?(?:the\s+)?same\s+(?:address|place|delivery\s+address)"
    r"(?:\s+as\s+(?:last\s+time|before|usual|(?:my|the)\s+last\s+(?:order|one)))?\b|"
    r"\b(?:(?:to|at)\s+)?(?:my|the)\s+(?:usual|saved|previous|last)\s+address\b|"
    r"(?:\b(?:à|a|chez)\s+)?\b(?:la\s+)?m[êe]me\s+adresse(?:\s+que\s+(?:la\s+derni[èe]re\s+fois|"
    r"d'habitude|avant|pr[ée]c[ée]demment|(?:ma|la)\s+derni[èe]re\s+commande))?\b|"
    r"(?:\b(?:à|a)\s+)?\b(?:mon|l')\s*adresse\s+(?:habituelle|pr[ée]c[ée]dente)\b|"
    r"(?:前回|この前|前|いつも|先日|この間)(?:と同じ|の)(?:住所|送り先|お届け先|配送先)|"
    r"同じ(?:住所|送り先|お届け先|配送先))(?:\s*(?:に|へ|まで|で))?",
    re.IGNORECASE)


def _without_pickup_place(text: str) -> str:
    return _PICKUP_MARKER.sub(" ", _PICKUP_PLACE.sub(r"\g<verb>", text))


# A house number standing apart, not the digits of a code ("OCHA10の"): "Keizersgracht 1", "12B".
_HOUSE_NUMBER = re.compile(r"(?<!\w)\d+[A-Za-z]?(?!\w)")
# A Japanese address from its prefecture (and postal mark) to its block number (and a postal
# code after it); hiragana may run through a town's name ("丸の内").
_JAPANESE_ADDRESS = re.compile(r"(?:〒?\s?\d{3}-\d{4}\s*)?[^\s、。,]*?(?:都|道|府|県)[^\s、。,]*?"
                               r"(?:市|区|町|村)[^\s、。,]*?\d+(?:[-－−丁目番地号]+\d*)*(?:号)?"
                               r"(?:\s*[^\s、。,\d]{0,20}?\d+(?:号室|階|F)(?![\w]))?"
                               # its postal code, written after it as well as before
                               r"(?:\s*〒?\s?\d{3}-\d{4}(?!\d))?")


@dataclass(frozen=True, slots=True)
class Delivery:
    """The address in a message (None when it gives none), the message without it, and
    whether the shopper means to collect the order themselves."""

    address: str | None
    country_code: str | None
    rest: str
    pickup: bool
    # "the same address as last time", « la même adresse », 「前回と同じ住所」: the last address
    # used, which the conversation knows and the words do not
    same_as_before: bool = False


@lru_cache(maxsize=4096)
def read_delivery(text: str) -> Delivery:
    """The delivery details of one message (cached: the dialogue state rereads every message
    of a conversation at each step)."""
    normal = unicodedata.normalize("NFKC", text)
    pickup = bool(_PICKUP.search(normal))
    same = _SAME_ADDRESS.search(normal)
    if same is not None and read_delivery(normal[:same.start()] + normal[same.end():]).address \
            is None:
        glue = "" if in_japanese_script(normal) else " "
        rest = _tidy(normal[:same.start()] + glue + normal[same.end():])
        return Delivery(None, None, rest, pickup, same_as_before=True)
    lines = [line.strip() for line in normal.splitlines() if line.strip()]
    if len(lines) > 1 and any(re.search(r"\d", line) for line in lines):
        found = _from_lines(lines)
        if found is not None:
            address, rest = found
            return Delivery(address, country_of(address), rest, pickup)
    lead = next((match for match in _LEAD_IN.finditer(normal)
                 if _is_place(_cut(normal[match.end():]))
                 and not _a_count_of_things(_cut(normal[match.end():]))), None)
    if lead is not None:
        after = lead.end() + _extent(normal[lead.end():])
        address = _clean(normal[lead.end():after])
        if address:
            rest = _tidy(normal[:lead.start()] + " " + normal[after:])
            return Delivery(address, country_of(address), rest, pickup)
    japanese = _JAPANESE_ADDRESS.search(normal)
    if japanese is not None:
        start, end = japanese.span()
        return Delivery(japanese.group(0).strip(), "JP", _tidy(normal[:start] + " " +
                                                              normal[end:]), pickup)
    bare = find_address(normal)
    if bare is None:
        whole = _clean(_cut(normal))
        if "," in whole and _HOUSE_NUMBER.search(whole.split(",")[0]) and \
                _is_place(whole.rsplit(",", 1)[0]) and not _LOWER_PAIR.search(whole) and \
                not in_japanese_script(whole) and country_of(whole) and len(whole) < 200 and \
                (country_ending(whole) or not country_named(whole)):
            # "Keizersgracht 1, Amsterdam, NL": a message that is an address and its country
            return Delivery(whole, country_of(whole), "", pickup)
        rest = _tidy(_without_pickup_place(normal)) if pickup else normal.strip()
        return Delivery(None, None, rest, pickup)
    start, end = bare.span
    end = start + _extent(normal[start:end])
    size = _SIZE_BEFORE.match(normal[start:end])
    if size is not None and _is_place(normal[start + size.end():end]):
        start += size.end()  # "…matcha de 30 g, livrés au 2-3-1 Yanaka…": the size is no number
    address = _clean(normal[start:end])
    rest = _tidy(normal[:start] + " " + normal[end:])
    return Delivery(address, bare.country_code or country_of(address), rest, pickup)


# A size said just before the address ("30 g, livrés au …", "16 oz, to …"), with the words
# that lead into the address: a measure, never its house number.
_SIZE_BEFORE = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:g|kg|grams?|grammes?|oz|ml|cl|l|cm|mm|in|inch(?:es)?|pouces?)\b"
    r"[^,\d]*,\s*(?:(?:livr\w*|deliver\w*|envoy\w*|send|ship\w*|shipped|sent)\s+"
    r"(?:au|a|à|to|chez)\s+)?", re.IGNORECASE)


# Capitals run into digits ("WELCOME10", "OCHA10の") are a promotion code, never a house number
# (a UK postcode has at most two letters before its digit).
_CODE_LIKE = re.compile(r"(?<!\w)[A-Z]{3,}\d+(?![A-Za-z0-9])")


# Words that sit beside a number in a request but never name a street.
_NOT_A_STREET = frozenset("""to it its the and or a an of for me my us at is in on please pls
thanks thank thx merci use code codes et le la les de du des""".split())


# A Japanese place: a number after a kanji name (神南1), in a block run (1-2-3) or before its
# block word (2丁目, 北1条); a count (3個) is none.
_JAPANESE_PLACE = re.compile(r"[\u4e00-\u9fff々ヶ]\s*\d|\d\s*[-‐−ー－]\s*\d|"
                             r"\d\s*(?:丁目|番地?|号|条)")
# Two lower-case letters ending a message are a word ("it", "or", "in"), not a country code.
_LOWER_PAIR = re.compile(r",\s*[a-z]{2}\W*$")


def _is_place(text: str) -> bool:
    """A number beside a name: "12 Oak St", "Rhône 48", "神南1-2-3" (a ZIP alone, a count of
    things or a promotion code is no address)."""
    text = _CODE_LIKE.sub(" ", text)
    if in_japanese_script(text):
        return bool(_JAPANESE_PLACE.search(text))
    return any(name.casefold() not in _NOT_A_STREET for name in re.findall(
        r"(?<!\S)([^\W\d_]{2,})\.?,?\s+\d|\d[\w/-]*,?\s+([^\W\d_]{2,})", text)
        for name in name if name)


def _a_count_of_things(text: str) -> bool:
    """A number and one word with nothing after them ("ship to 2 mugs"): a count, never an
    address, which names its street with more words, a comma or a second number."""
    if in_japanese_script(text) or "," in text or len(re.findall(r"\d+", text)) > 1:
        return False
    named = [word for word in re.findall(r"[^\W\d_]{2,}", text)
             if word.casefold() not in _NOT_A_STREET]
    return len(named) < 2


def _end(after: str) -> int:
    """Where the address that starts `after` ends: at its courtesy, e-mail or phone."""
    cut = len(after)
    for pattern in (_AFTER, _EMAIL, _PHONE):
        found = pattern.search(after)
        if found and re.search(r"\d", after[:found.start()]):
            cut = min(cut, found.start())
    return cut


def _extent(after: str) -> int:
    """The length of the address that starts `after`: up to its courtesy, e-mail or phone,
    and no further than its last part (a Japanese address has no commas to walk: its own
    endings, 「です」「に送って」, say where it ends)."""
    cut = _end(after)
    if in_japanese_script(after[:cut]):
        return cut
    return min(cut, address_end(after[:cut]) or cut)


def _cut(after: str) -> str:
    return after[:_end(after)]


# Who the parcel is for, before the place: "my sister Maria Lopez at 221 W 4th Ave",
# "Jane c/o 12 Oak St", « Marie chez 3 rue … ».
_PERSON_AT = re.compile(r"^[^\d,:]{1,60}?\s(?:at|c/o|care of|chez)\s+(?=\d)", re.IGNORECASE)
# A postcode whose shape ends an address (a US state and ZIP, a Canadian or UK postcode):
# what follows it is no part of the place unless it names a country.
_FINAL_POSTCODE = re.compile(
    r"\b(?:" + "|".join(sorted(US_STATES, key=len, reverse=True)) + r")\.?,?\s+\d{5}(?:-\d{4})?\b|"
    r"\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b", re.IGNORECASE)
# A Japanese addressee after the place: 「山田太郎宛」「山田様」.
_JAPANESE_ADDRESSEE = re.compile(r"\s+[^\s\d]{1,10}(?:宛て?|様|さん)$")


def _without_trailer(address: str) -> str:
    """The address up to the postcode that ends it (a country named or coded after it stays):
    "…, AK 99501, she'll love it" is "…, AK 99501"."""
    ends = list(_FINAL_POSTCODE.finditer(address))
    if not ends:
        return address
    after = address[ends[-1].end():].strip(" ,.;")
    coded = re.fullmatch(r"[A-Za-z]{2,3}|U\.?S\.?A?\.?", after)  # "CA", "USA", "U.S."
    if after and not country_named(after) and not coded:
        return address[:ends[-1].end()]
    return address


def _clean(address: str) -> str:
    """The place alone: no name before it, no dangling words or punctuation after it."""
    address = re.sub(r"^[^\d:]{1,30}:\s*(?=\S*\d)", "", address.strip())  # "my place: 45 Elm St"
    address = _JAPANESE_ADDRESSEE.sub("", _without_trailer(_PERSON_AT.sub("", address)))
    parts = [part.strip() for part in address.split(",")]
    while len(parts) > 1 and not re.search(r"\d", parts[0]) and _NAME.match(parts[0]):
        parts.pop(0)  # "Jane Doe, 400 Pine St, …"
    joined = ", ".join(part for part in parts if part)
    return _DANGLING.sub("", joined).strip(" .,;:").strip()


def _tidy(rest: str) -> str:
    """What is left of the message: no e-mail, phone or Japanese copula of the address."""
    rest = _JAPANESE_ADDRESSEE.sub("", _PHONE.sub(" ", _EMAIL.sub(" ", rest)).rstrip())
    rest = re.sub(r"^\s*(?:です|でお願いします|にお願いします|まで)", "", rest.strip())
    rest = re.sub(r"(?<=。)\s*(?:です|でお願いします|にお願いします)\s*$", "", rest)
    # 「…に送ってください」: the address's own verb, no request of its own
    rest = re.sub(r"^\s*(?:に|へ|まで)(?:送って|届けて|配送して|発送して)(?:ください|下さい|ほしい"
                  r"です|欲しいです)?[。.!！]?\s*$", "", rest)
    return _DANGLING.sub("", re.sub(r"\s+", " ", rest)).strip(" ,;:.").lstrip("。、 ")


def _from_lines(lines: list[str]) -> tuple[str, str] | None:
    """An address written on lines: from its first line with a number to its last line with
    one (a country after it stays); labels and a name above it are no part of it."""
    numbered = [i for i, line in enumerate(lines) if re.search(r"\d", line)
                and not _EMAIL.fullmatch(line) and not _PHONE.fullmatch(line)]
    if not numbered:
        return None
    first, last = numbered[0], numbered[-1]
    while last + 1 < len(lines) and country_named(lines[last + 1]) and \
            len(lines[last + 1].split()) <= 3:
        last += 1
    block = lines[first:last + 1]
    head = lines[:first]
    lead = _LEAD_IN.search(block[0])
    if lead is not None and re.search(r"\d", block[0][lead.end():]):  # "deliver to: 10 Downing St"
        head = [*head, block[0][:lead.start()]]
        block = [block[0][lead.end():], *block[1:]]
    if len(block) < 2 and not any(_LABEL.match(line) for line in head):
        return None
    rest = [line for line in head if not _LABEL.match(line) and not _NAME.match(line)]
    rest += [line for line in lines[last + 1:] if not _NAME.match(line)
             and not _EMAIL.search(line) and not _PHONE.search(line)
             and not (in_japanese_script(line) and len(line) <= 6)]
    glue = "" if all(in_japanese_script(line) or re.fullmatch(r"〒?\s?\d{3}-\d{4}", line)
                     for line in block) else ", "
    address = (" " if glue == "" else glue).join(_clean(_cut(line)) or line for line in block)
    return address.strip(), _tidy(" ".join(rest))


@lru_cache(maxsize=4096)
def country_of(address: str) -> str | None:
    """The ISO code of the address's country: named at its end, else told by its shape (a US
    state and ZIP, a Canadian province and postal code, a UK postcode, Japanese script)."""
    parts = [part.strip() for part in address.split(",") if part.strip()]
    if not parts:
        return None
    last = parts[-1]
    words = re.findall(r"[\w.]+", last.casefold())
    earlier_postcode = any(_postcode(part) for part in parts[:-1])
    if re.fullmatch(r"[A-Za-z]{2}", last) and (last.upper() in _territories() or
                                               last.casefold() in US_STATES):
        # an ISO code ("…, M5J 2J5, CA" is Canada, "Berlin, DE" Germany), else a US state
        # ("Portland, OR"); letters that are both ("IL", "CA", "DE") after an English street
        # and no postcode are the state ("12 Main St, Springfield, IL")
        both = last.upper() in _territories() and last.casefold() in US_STATES
        if both and not earlier_postcode and _ENGLISH_STREET.search(", ".join(parts[:-1])):
            return "US"
        return last.upper() if earlier_postcode or last.upper() in _territories() else "US"
    named = country_named(last)
    if named:
        return named
    if in_japanese_script(address) or re.search(r"〒", address):
        return "JP"
    tail = [w.strip(".") for w in re.findall(r"[\w.]+", " ".join(parts[-2:]).casefold())]
    if re.search(r"\b\d{5}(?:-\d{4})?\s*$", address) and any(w in US_STATES for w in tail):
        return "US"
    if _POSTCODES[1].search(address):
        return "CA"  # "A1A 1A1" is Canada's shape alone, with or without its province
    if _POSTCODES[2].search(last) and not re.search(r"\d{5}", last):
        return "GB"
    if re.search(r"\b\d{4}\s*$", last) and any(w in _AU_STATES for w in words):
        return "AU"
    if re.search(r"\b\d{3}-\d{4}\s*$", last) or re.search(r"\w-(?:ku|shi|cho|machi)\b", address,
                                                           re.IGNORECASE):
        return "JP"  # "Tokyo 110-0001", "Taito-ku"
    local = re.search(r"\b\d{5}\s+[^\W\d]", address)  # a postcode before its city
    if local and _FRENCH_STREET.search(address):
        return "FR"
    if local and _GERMAN_STREET.search(address):
        return "DE"
    if any(w in US_STATES and len(w) > 2 for w in tail) or (
            any(w in US_STATES for w in words[-1:]) and len(parts) >= 3):
        return "US"  # "Springfield, Illinois", "12 Oak St, Portland, OR"
    return None


@lru_cache(maxsize=1)
def _territories() -> frozenset[str]:
    codes = (str(code) for code in Locale.parse("en").territories)
    return frozenset(code for code in codes if len(code) == 2 and code.isalpha())


def _postcode(text: str) -> re.Match[str] | None:
    for pattern in _POSTCODES[:-1]:
        found = pattern.search(text)
        if found:
            return found
    return None


def missing(address: str, country_code: str | None = None) -> str | None:
    """What a delivery to `address` still needs: "place" (the city and postcode of a street
    alone), "country" (a postcode no country claims), or None when it is enough."""
    if country_code or country_of(address):
        return None
    return "country" if _postcode(address) else "place"


@lru_cache(maxsize=4096)
def amended(previous: str, text: str) -> str | None:
    """`previous` with the correction or completion `text` gives, or None when `text` is
    neither: a unit ("apartment 4B") is added or replaced, a postcode of the same shape
    replaces the old one ("wrong zip, 94110"), and places after an incomplete address complete
    it ("Portland, OR 97202")."""
    normal = unicodedata.normalize("NFKC", text).strip()
    if len(normal.split()) > 14:
        return None  # a request
    own = read_delivery(normal).address
    if own is not None:
        # "sorry, it's 21 Oak Street, not 12": a street alone corrects the street of an
        # address whose place is known; a whole address is an address of its own
        if missing(own) == "place" and missing(previous) is None and \
                _CORRECTION.search(normal) and "," in previous and "," not in own:
            return f"{own}, {previous.split(',', 1)[1].strip()}"
        return None
    unit = _UNIT.search(normal)
    if unit:
        said = unit.group(0).strip()
        old = _UNIT.search(previous)
        if old:
            return previous[:old.start()] + said + previous[old.end():]
        parts = previous.split(",", 1)
        return f"{parts[0]}, {said}" + (f",{parts[1]}" if len(parts) > 1 else "")
    new = _postcode(normal)
    if missing(previous) is not None and (new or country_named(normal) or _US_STATE.search(
            normal.casefold())):
        fragment = _clean(_cut(_CORRECTION.sub(" ", normal)))
        fragment = re.sub(r"^(?:in|at|to|à|au|city is|it'?s)\s+", "", fragment.strip(" ,"),
                          flags=re.IGNORECASE)
        return f"{previous.rstrip(' ,')}, {fragment}" if fragment else None
    if new and _CORRECTION.search(normal):
        for pattern in _POSTCODES[:-1]:
            if pattern.fullmatch(new.group(0).strip()):
                olds = list(pattern.finditer(previous))
                if olds:
                    old_code = olds[-1]
                    return previous[:old_code.start()] + new.group(0).strip() + \
                        previous[old_code.end():]
    return None


def without_pickup(text: str) -> str:
    """`text` without its words about collecting the order."""
    return _PICKUP.sub(" ", unicodedata.normalize("NFKC", text))


# Collecting said as the shopper's own plan ("I'll pick it up", « je passe le chercher »,
# 「取りに行きます」), not a word about the item ("the seconds box for pickup").
_COLLECTING_MYSELF = re.compile(
    r"\b(?:i'?ll|i\s+will|i\s+can|we'?ll|we\s+will|let\s+me)\s+(?:come\s+(?:and\s+|to\s+)?|"
    r"swing\s+by\s+(?:and\s+)?|stop\s+by\s+(?:and\s+)?)?(?:pick|collect|grab|get)\b|"
    r"\bje\s+(?:passe|viens|vais|viendrai|passerai|pourrai)\s+(?:le|la|les)\s+"
    r"(?:chercher|récupérer|recuperer|prendre)|\bje\s+(?:le|la|les)\s+(?:récupère|recupere)|"
    + japanese_verbs.COLLECTING, re.IGNORECASE)


def collects_in_person(text: str) -> bool:
    """Whether the shopper says they will collect the order themselves ("I'll collect it at
    the studio"): with the thing named, that is the whole purchase."""
    return bool(_COLLECTING_MYSELF.search(unicodedata.normalize("NFKC", text)))


# The Japanese shopper's own plan to collect, with the place and hour before it ("お店で受け取り
# ます", "6時に取りに行きます"): how the order is had, never a product's name.
_COLLECTING_PLAN = re.compile(
    r"(?:(?:お店|店頭|店舗|店|レストラン|そちら|お宅)\s*(?:で|に|まで|へ)\s*)?"
    r"(?:\d{1,2}\s*時(?:\s*\d{1,2}\s*分|半)?\s*(?:ごろ|頃|くらい)?\s*に?\s*)?"
    rf"(?:{japanese_verbs.COLLECTING_VERB})"
    rf"{japanese_verbs.TAIL}")


def without_collecting(text: str) -> str:
    """`text` without the shopper's saying they will collect the order themselves."""
    return _COLLECTING_PLAN.sub(" ", unicodedata.normalize("NFKC", text))


def without_any_collecting(text: str) -> str:
    """`text` without every way it says the order is collected ("I'll pick them up at 7pm"
    leaves "at 7pm", « je passe les prendre vers 19h » leaves « vers 19h »): what is left of
    a piece that named only that names no product."""
    plain = unicodedata.normalize("NFKC", text)
    return _PICKUP.sub(" ", _COLLECTING_MYSELF.sub(" ", _COLLECTING_PLAN.sub(" ", plain)))


def wants_pickup(text: str) -> bool:
    """Whether the shopper speaks of collecting the order ("I'll collect it", "retrait en
    magasin", "店頭で受け取り")."""
    return bool(_PICKUP.search(unicodedata.normalize("NFKC", text)))
