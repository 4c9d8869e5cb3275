"""A delivery address inside a sentence: where it starts and ends, and its country.

An address starts at a house number followed by a street ("12 Oak Avenue", "12 rue de
Rivoli"), or at a Japanese prefecture or city with a block number ("東京都…",
"渋谷区神南1-2-3"), or at a number a few words before a country named at the end.
US addresses are labelled by `usaddress`, which says where the address ends (the first
word that is not a place, state, ZIP or country); others end at their postcode, their
city, or their country.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from commerce_agent.agent.language.countries import (
    ADDRESS_COUNTRIES,
    ADDRESS_COUNTRY,
    country_named,
)
from commerce_agent.agent.language.spans import Span


@dataclass(frozen=True, slots=True)
class Address:
    """The address as the shopper wrote it, and its ISO country code when it can be told."""

    text: str
    country_code: str | None
    span: Span


US_STATES = frozenset("""
al ak az ar ca co ct de dc fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj
nm ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy pr
alabama alaska arizona arkansas california colorado connecticut delaware florida georgia
hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts
michigan minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon
pennsylvania tennessee texas utah vermont virginia washington wisconsin wyoming
""".split())
CA_PROVINCES = frozenset("ab bc mb nb nl ns nt nu on pe qc sk yt".split())

STREET_TYPES = (
    r"street|st|avenue|ave|av|road|rd|boulevard|blvd|lane|ln|drive|dr|way|terrace|ter|court|ct|"
    r"place|pl|parkway|pkwy|highway|hwy|square|sq|circle|cir|trail|trl|alley|crescent|cres|close|"
    r"row|walk|plaza"
)
# A street's name is made of names, never of function words: "4 sodas from the italian place"
# names a count and a store, not "4 … Place".
_NOT_A_NAME = (r"(?!(?:the|a|an|from|of|for|at|in|on|to|with|and|or|my|your|our|this|that|"
               r"these|those|some|any|please|pls)\b)")
_STREET = re.compile(
    r"(?<![\w#-])(?P<number>\d+[a-z]?)\s+"
    r"(?:broadway\b|(?P<name>(?:(?:[nsew]\.?|north|south|east|west)\s+)?"
    rf"(?:\d+(?:st|nd|rd|th)|{_NOT_A_NAME}[^\W\d][\w'.-]*)"
    rf"(?:\s+{_NOT_A_NAME}[^\W\d][\w'.-]*){{0,3}}?)"
    rf"\s+(?:{STREET_TYPES})\b\.?(?:\s+(?:[nsew]|ne|nw|se|sw)\b)?)",
    re.IGNORECASE,
)
# French-speaking streets (France, Belgium, Switzerland, Québec), full or abbreviated.
_FRENCH_STREET_TYPES = (
    r"rue|avenue|av\.?|boulevard|boul\.?|bd|blvd|place|pl\.|quai|all[ée]e|impasse|chemin|ch\.|"
    r"route|rte|cours|passage|square|rang|mont[ée]e|c[ôo]te|promenade|ruelle|sentier|voie|"
    r"chauss[ée]e|drève|terrasse"
)
# Its place after the street: a postcode before the city (France's five digits, Belgium's and
# Switzerland's four), or a city, perhaps a province, and Canada's "A1A 1A1" after it.
_FRENCH_PLACE = (
    r"(?:,?\s*(?P<postcode>\d{4,5})\s+(?P<city>(?:(?:le|la|les|saint|sainte)\s+)?[^\W\d][\w'-]*)"
    r"(?:\s+cedex)?|,\s*[^\W\d][\w'.-]*(?:[\s-]+[^\W\d][\w'.-]*){0,3},?\s*"
    r"(?:\(?(?:" + "|".join(sorted(CA_PROVINCES, key=len, reverse=True)) + r")\)?,?\s*)?"
    r"(?P<canadian>[a-z]\d[a-z]\s?\d[a-z]\d)(?![\w-]))"
)
_FRENCH = re.compile(
    r"(?:(?<![\w-])\d+(?:\s?(?:bis|ter))?,?\s+"
    rf"(?:{_FRENCH_STREET_TYPES})(?![\w-])\s*[^,\d]+?"
    rf"|(?<![\w-])(?:{_FRENCH_STREET_TYPES})\s+(?:[^\W\d][\w'’.-]*\s+){{0,4}}\d+[a-z]?)"
    rf"{_FRENCH_PLACE}(?:,?\s*(?P<country>{ADDRESS_COUNTRY})\b)?",
    re.IGNORECASE,
)
_JAPANESE = re.compile(
    r"(?:〒\s?\d{3}-?\d{4}\s*)?(?:東京都|北海道|(?:京都|大阪)府|[\u4e00-\u9fff]{2,3}県)"
    r"[\u4e00-\u9fff\u30a1-\u30fa\u30fc0-9\-ー−]{1,40}"
)
# Without a prefecture: a city, ward or town, then a block number ("渋谷区神南1-2-3"; Sapporo's
# grid "中央区北1条西2-1" numbers its streets too).
_JAPANESE_LOCAL = re.compile(
    r"[\u4e00-\u9fff]{1,5}(?:市|区|郡|町|村)[\u4e00-\u9fff\u30a1-\u30fa\u30fc0-9]{0,12}?"
    r"\d+(?:丁目\d+(?:番地?\d*号?)?|(?:[-−]\d+)+)"
)
# Bounded ({0,80}): an address is short, and an unbounded span would make a long message
# quadratic to scan.
# A European street is often named before its number ("Rue du Rhône 48", "Avenue de la Gare
# 12", "Via Roma 3"): the address starts at its street type, which is part of it.
_STREET_FIRST = (
    r"(?:rue|avenue|av\.|boulevard|bd|chemin|place|quai|allée|impasse|route|cours|passage|"
    r"via|viale|piazza|calle|avenida|plaza|rua|strasse|straße|gasse|weg|platz|ring|allee)"
    r"\s+(?:[^\W\d][\w'’.-]*\s+){0,4}\d+[a-z]?,"
)
_COUNTRY_AT_END = re.compile(
    rf"(?<![\w-])(?:{_STREET_FIRST}|\d[\w/-]*\s+[^\W\d]|[^\W\d][\w.-]+\s+\d+[a-z]?,)"
    r"[^!?;]{0,80}?,\s*"
    rf"(?P<country>{ADDRESS_COUNTRY})(?![\w.-])",
    re.IGNORECASE,
)
_TAIL_WORD = re.compile(r"\s*,?\s*([^\s,]+)")
_FILLER = frozenset("""
thanks thank thx please pls plz for and asap by tomorrow today tonight next this it is its
the a an to with then so as soon possible merci svp stp s'il demain aujourd'hui pour et avec
""".split())
_POSTCODE = re.compile(
    r"\d{5}(?:-\d{4})?|[a-z]\d[a-z]\s?\d[a-z]\d|[a-z]{1,2}\d[a-z\d]?\s?\d[a-z]{2}|\d{3}-\d{4}",
    re.IGNORECASE,
)
_ADDRESS_LABELS = frozenset({
    "AddressNumber", "AddressNumberPrefix", "AddressNumberSuffix", "StreetNamePreDirectional",
    "StreetNamePreModifier", "StreetNamePreType", "StreetName", "StreetNamePostType",
    "StreetNamePostDirectional", "StreetNamePostModifier", "OccupancyType",
    "OccupancyIdentifier", "SubaddressType", "SubaddressIdentifier", "BuildingName",
    "PlaceName", "StateName", "ZipCode", "CountryName",
})


def find_address(text: str) -> Address | None:
    """The delivery address inside `text` (case kept), or None when there is none."""
    japanese = _JAPANESE.search(text) or _JAPANESE_LOCAL.search(text)
    if japanese:
        return Address(japanese.group(0).strip(), "JP", japanese.span())
    french = _FRENCH.search(text)
    if french:
        country = french.group("country")
        code = ADDRESS_COUNTRIES[country.lower()] if country else _french_country(french)
        return Address(french.group(0).strip(), code, french.span())
    street = _STREET.search(text)
    if street:
        return _street_address(text, street)
    at_end = _COUNTRY_AT_END.search(text)
    if at_end:
        return Address(at_end.group(0), ADDRESS_COUNTRIES[at_end.group("country").lower()],
                       at_end.span())
    return None


def _french_country(french: re.Match[str]) -> str | None:
    """Canada for its postcode, France for five digits; four digits are Belgian or Swiss,
    which only a country named tells apart."""
    if french.group("canadian"):
        return "CA"
    return "FR" if len(french.group("postcode") or "") == 5 else None


def _street_address(text: str, street: re.Match[str]) -> Address:
    start = street.start()
    end = _end_of_tail(text, street.end())
    us_end = _end_by_usaddress(text, start)
    if us_end is not None and us_end > street.end():
        end = us_end
    segment = text[start:end].rstrip(" ,.;:!?")
    return Address(segment, _country_of(segment), (start, start + len(segment)))


def _end_of_tail(text: str, position: int) -> int:
    """Where the places after a street end: at a filler word, a sentence's end, or a country."""
    end = position
    words = 0
    while words < 8:
        match = _TAIL_WORD.match(text, end)
        if match is None:
            break
        word = match.group(1)
        bare = word.rstrip(".!?;:").lower()
        if word[:1] in "!?;" or not bare or bare in _FILLER and bare not in US_STATES:
            break
        country = re.match(rf"(?:{ADDRESS_COUNTRY})(?![\w-])", text[match.start(1):], re.IGNORECASE)
        if country:
            return match.start(1) + country.end()
        end = match.start(1) + len(word.rstrip(".!?;:"))
        words += 1
        if word[-1:] in "!?;" or word.endswith(".") and not _is_abbreviation(bare):
            break
    return end


def _sentence_end(text: str, start: int) -> int:
    for match in re.finditer(r"[!?;]|\.(?=\s|$)", text[start:]):
        before = re.search(r"([\w]+)$", text[start: start + match.start()])
        if match.group(0) != "." or not before or not _is_abbreviation(before.group(1).lower()):
            return start + match.start()
    return len(text)


def _is_abbreviation(word: str) -> bool:
    return len(word) <= 3 or word in ("ave", "blvd", "apt", "ste")


def _end_by_usaddress(text: str, start: int) -> int | None:
    """The end of a US address as usaddress labels it; None when it sees no US place in it."""
    import usaddress

    candidate = text[start: _sentence_end(text, start)]
    position = 0
    end = None
    us_place = False
    for token, label in usaddress.parse(candidate):
        found = candidate.find(token, position)
        position = found + len(token)
        bare = token.strip(",.;:!?").lower()
        if label not in _ADDRESS_LABELS:
            break
        if label == "CountryName" and bare not in ADDRESS_COUNTRIES:
            break
        if label == "StateName" and bare not in US_STATES and bare not in ADDRESS_COUNTRIES:
            break
        if bare in _FILLER and label in ("PlaceName", "CountryName"):
            break
        us_place = us_place or label in ("StateName", "ZipCode")
        end = start + found + len(token.rstrip(",.;:!?"))
    return end if us_place else None


def _country_of(address: str) -> str | None:
    words = re.findall(r"[\w.-]+", address.lower())
    for size in (4, 3, 2, 1):
        tail = " ".join(words[-size:]) if len(words) >= size else ""
        if tail in ADDRESS_COUNTRIES:
            return ADDRESS_COUNTRIES[tail]
    postcode = _POSTCODE.findall(address)
    states = [word for word in words[-3:] if word in US_STATES]
    if states or postcode and re.fullmatch(r"\d{5}(?:-\d{4})?", postcode[-1]):
        return "US"
    if postcode and re.fullmatch(r"[a-z]\d[a-z]\s?\d[a-z]\d", postcode[-1], re.IGNORECASE):
        return "CA"  # no other country's postcode has this shape
    if postcode and re.fullmatch(r"[a-z]{1,2}\d[a-z\d]?\s?\d[a-z]{2}", postcode[-1], re.I):
        return "GB"
    return None


# What opens the next clause after a place ("…, and use CODE", "… so send it there", « …, et
# j'ai le code », "… - a mug please", "…. Je prends…"): no word of a place (a street's
# abbreviation, « 88 boul. René-Lévesque », ends no sentence).
_NEXT_CLAUSE = re.compile(
    r"\s+[-–—]\s|:\s|(?:(?<=\d)|(?<=[^\W\d]{4}))(?<!boul)(?<!blvd)(?<!pkwy)(?<!cres)\.(?:\s|$)|"
    r"\b(?:and|then|so|also|plus|but|with|go|use|using|apply|please|thanks?|i|i'm|i've|i'll|"
    r"i'd|we|we're|we'll|my|it|et|puis|avec|mais|je|j'ai|j'|merci|utilise\w*|appliqu\w*)"
    r"(?![\w'-])",
    re.IGNORECASE)
# A code is no part of a place: letters and digits run together ("NAMASTE10", "WELCOME10"),
# unlike a postcode's short groups ("SW1A", "M5H", "D02") or a house number ("221B").
_CODE_WORD = re.compile(r"(?<![\w-])(?:[^\W\d_]{3,}\d+|\d+[^\W\d_]{3,})[\w]*(?![\w-])")
# A postcode that ends an address: a US state and ZIP, a Canadian, UK or Japanese postcode, a
# five-digit postcode and its city (« 75001 Paris »), a Dutch one and its city.
_LAST_POSTCODE = re.compile(
    r"\b(?:" + "|".join(sorted(US_STATES | CA_PROVINCES, key=len, reverse=True)) +
    r")\.?,?\s+(?:\d{5}(?:-\d{4})?|[a-z]\d[a-z]\s?\d[a-z]\d)\b|"
    r"\b[a-z]\d[a-z]\s?\d[a-z]\d\b|\b[a-z]{1,2}\d[a-z\d]?\s?\d[a-z]{2}\b|〒?\d{3}-\d{4}\b",
    re.IGNORECASE)


def address_end(text: str) -> int:
    """Where the address that starts `text` ends: after its last part (street and number, unit,
    city, region, postcode, country), so that what follows ("and use CODE", "please", another
    request) is left to the rest of the message. A country is the last part; after a postcode
    only a country may follow; a place name after the street is one to four words."""
    end = 0
    seen_digit = False
    after_postcode = False
    lowercase = text == text.lower()
    for segment in re.finditer(r"[^,]+", text):
        start = segment.start()
        piece = segment.group()
        if start and country_named(piece) and _is_country(piece):
            return start + len(piece[:len(piece) - len(_beyond_country(piece))].rstrip(" .!?;:"))
        if start and after_postcode:
            coded = re.fullmatch(r"\s*(?:[A-Z]{2}|U\.?S\.?A?\.?)\s*", piece)
            return start + len(piece.rstrip()) if coded else end
        clause = next((match for match in _NEXT_CLAUSE.finditer(piece)
                       if seen_digit or re.search(r"\d", piece[:match.start()])), None)
        if clause is not None:
            piece = piece[:clause.start()]
        code = _CODE_WORD.search(piece)
        if code is not None:
            piece = piece[:code.start()]
        postcode = _LAST_POSTCODE.search(piece)
        if start and not re.search(r"\d", piece) and not _is_place_name(piece, lowercase):
            return end
        if not piece.strip():
            return end
        if postcode is not None:
            piece = piece[:postcode.end()] + _country_after(piece[postcode.end():])
            after_postcode = True
        seen_digit = seen_digit or bool(re.search(r"\d", piece))
        end = start + len(piece.rstrip())
        if clause is not None:
            return end
    return end


def _country_after(text: str) -> str:
    """The country written right after a postcode ("… IL 62701 USA", "… E2 7NX UK"), else ""."""
    clause = _NEXT_CLAUSE.search(text)
    candidate = text[:clause.start()] if clause else text
    named = candidate.rstrip(" .!?;:")
    if named.strip() and (country_named(named) or _SPELLED_US.fullmatch(named.strip())):
        return named
    return ""


_SPELLED_US = re.compile(r"U\.?S\.?A?\.?|[A-Z]{2}")


def _is_country(piece: str) -> bool:
    """Whether `piece` is a country's name (and perhaps the start of the next clause)."""
    return len(piece.split()) - len(_beyond_country(piece).split()) <= 4


def _beyond_country(piece: str) -> str:
    clause = _NEXT_CLAUSE.search(piece)
    return piece[clause.start():] if clause and clause.start() > 0 else ""


def _is_place_name(piece: str, lowercase: bool) -> bool:
    """A city or region after the street: one to four words, capitalised unless the whole
    message is written in lowercase ("London", "New York", "Greater London")."""
    words = piece.split()
    return 0 < len(words) <= 4 and (lowercase or all(word[:1].isupper() or word.lower() in (
        "de", "du", "la", "le", "upon", "on", "sur") for word in words))
