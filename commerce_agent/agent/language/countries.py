"""Countries named in a shopper's words ("do you ship to Canada?", "livrez-vous en Allemagne ?",
"ドイツに発送できますか？") and country names to show, from Babel's CLDR territory names; and
the short list of countries an address may end with.

Babel is already the project's locale library (money and dates); its territory names in
English, French and Japanese are the table, so no list of ours grows with the stores' areas.
"""

from __future__ import annotations

import re
from functools import lru_cache

from babel import Locale

from commerce_agent.agent.language.folding import fold_accents

_LANGUAGES = ("en", "fr", "ja")
# Everyday names CLDR does not list as a territory's name.
_EXTRA = {"usa": "US", "america": "US", "the states": "US", "uk": "GB", "england": "GB",
          "scotland": "GB", "wales": "GB", "britain": "GB", "great britain": "GB",
          "holland": "NL", "etats-unis": "US", "angleterre": "GB", "アメリカ": "US",
          "イギリス": "GB", "米国": "US", "英国": "GB"}

# The countries an address may end with, as written after its street, city or postcode
# ("…, Springfield, IL 62704, U.S."): a short list of its own, since there "us" and "u.k." are
# countries while in a sentence they are not, and a long list would end addresses early.
ADDRESS_COUNTRIES = {
    "united states of america": "US", "united states": "US", "usa": "US", "u.s.a.": "US",
    "u.s.": "US", "us": "US", "america": "US", "états-unis": "US", "etats-unis": "US",
    "united kingdom": "GB", "uk": "GB", "u.k.": "GB", "great britain": "GB", "england": "GB",
    "scotland": "GB", "wales": "GB", "royaume-uni": "GB", "angleterre": "GB",
    "france": "FR", "japan": "JP", "japon": "JP", "日本": "JP", "canada": "CA",
    "germany": "DE", "deutschland": "DE", "allemagne": "DE", "italy": "IT", "italie": "IT",
    "spain": "ES", "espagne": "ES", "belgium": "BE", "belgique": "BE", "switzerland": "CH",
    "suisse": "CH", "netherlands": "NL", "pays-bas": "NL", "ireland": "IE", "irlande": "IE",
    "australia": "AU", "australie": "AU", "new zealand": "NZ", "mexico": "MX",
    "mexique": "MX", "portugal": "PT", "austria": "AT", "autriche": "AT",
}
# The same as a pattern, longest first.
ADDRESS_COUNTRY = "|".join(re.escape(name) for name in sorted(ADDRESS_COUNTRIES, key=len,
                                                             reverse=True))


@lru_cache(maxsize=1)
def _names() -> tuple[re.Pattern[str], dict[str, str]]:
    table: dict[str, str] = {}
    for language in _LANGUAGES:
        for code, name in Locale.parse(language).territories.items():
            if len(code) == 2 and code.isalpha() and code not in ("ZZ", "EU", "UN", "EZ"):
                table.setdefault(fold_accents(name), code)
    table.update(_EXTRA)
    spellings = sorted(table, key=len, reverse=True)
    latin = "|".join(re.escape(name) for name in spellings if name.isascii())
    other = "|".join(re.escape(name) for name in spellings if not name.isascii())
    return re.compile(rf"(?<![\w-])(?:{latin})(?![\w-])|{other}"), table


def country_named(text: str) -> str | None:
    """The ISO code of the first country `text` names, or None."""
    pattern, table = _names()
    found = pattern.search(fold_accents(text))
    return table[found.group()] if found else None


def country_ending(text: str) -> str | None:
    """The ISO code of a country named at the very end of `text` (only a postcode or
    punctuation after it), or None: "…, Santiago, Chile" ends with one, "…, and chili oil"
    does not."""
    pattern, table = _names()
    folded = fold_accents(text)
    found = [match for match in pattern.finditer(folded)
             if not re.search(r"[^\W\d_]", folded[match.end():])]
    return table[found[-1].group()] if found else None


def country_name(code: str, language: str) -> str:
    """The country's name in `language` ("CA" → "Canada", "カナダ"), else the code."""
    try:
        return str(Locale.parse(language).territories.get(code.upper(), code))
    except (ValueError, TypeError):
        return code


def named_in(text: str, code: str | None, language: str) -> str:
    """`text` (an address a store wrote in English, "…, Chicago, IL 60647, United States") with
    the country `code` names written in `language` instead (« …, États-Unis »)."""
    if not code or language == "en":
        return text
    english, own = country_name(code, "en"), country_name(code, language)
    return re.sub(rf"\b{re.escape(english)}\b", own, text) if english != code else text
