"""Number, currency and date conventions of each supported locale, read from CLDR via Babel.

A language-only code (`fr`) is expanded with CLDR's likely subtags (`fr_Latn_FR`) to find the
territory whose currency the locale's currency format shows.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel import Locale, dates, numbers
from babel.core import get_global

from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, SUPPORTED_LOCALES


def _territory(code: str) -> str:
    locale = Locale.parse(code.replace("-", "_"))
    if locale.territory:
        return str(locale.territory)
    likely: str = get_global("likely_subtags").get(locale.language, f"{locale.language}_US")
    return str(Locale.parse(likely).territory or "US")


def _symbol_position(pattern: str) -> str:
    positive = pattern.split(";")[0]
    symbol = positive.find("\xa4")
    digit = min(i for i in (positive.find("#"), positive.find("0")) if i >= 0)
    return "before" if symbol < digit else "after"


@cache
def locale_formats(code: str) -> dict[str, Any]:
    """One entry of the capability's supportedLocales."""
    locale = Locale.parse(code.replace("-", "_"))
    currency = numbers.get_territory_currencies(_territory(code))[0]
    pattern = locale.currency_formats["standard"].pattern
    return {
        "code": code,
        "name": locale.get_display_name(locale),
        "isRtl": locale.character_order == "right-to-left",
        "numberFormat": {"decimalSeparator": numbers.get_decimal_symbol(locale),
                         "groupingSeparator": numbers.get_group_symbol(locale)},
        "currencyFormat": {"currency": currency,
                           "symbol": numbers.get_currency_symbol(currency, locale),
                           "position": _symbol_position(pattern)},
        "dateFormat": {"shortDate": dates.get_date_format("short", locale).pattern,
                       "longDate": dates.get_date_format("long", locale).pattern,
                       "timeFormat": dates.get_time_format("short", locale).pattern},
    }


def capability_metadata(settings: object = None) -> dict[str, Any]:
    """Metadata of dev.commerce.i18n@1.0 (the locales are not configurable)."""
    return {"_version": "1.0", "defaultLocale": DEFAULT_LOCALE,
            "supportedLocales": [locale_formats(code) for code in SUPPORTED_LOCALES]}
