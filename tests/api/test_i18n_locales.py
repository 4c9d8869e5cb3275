"""dev.commerce.i18n@1.0: advertised locales with CLDR formats (Babel), valid against the schema."""

from __future__ import annotations

import json
from decimal import Decimal
from importlib import resources
from typing import Any

import httpx
import jsonschema
from babel import numbers

from commerce_agent.i18n.locales import capability_metadata
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, SUPPORTED_LOCALES

SCHEMA = json.loads((resources.files("commerce_agent.commerce") / "schemas" / "i18n" / "v1.json")
                    .read_text())


async def i18n_capability(client: httpx.AsyncClient) -> dict[str, Any]:
    body = (await client.get("/capabilities")).json()
    entry: dict[str, Any] = next(c for c in body["capabilities"]
                                 if c["id"] == "dev.commerce.i18n@1.0")
    return entry


async def test_capability_is_advertised_and_valid(client: httpx.AsyncClient) -> None:
    entry = await i18n_capability(client)
    assert entry["schemaUrl"].endswith("/schemas/i18n/v1.json")
    # The upstream schema names draft-07 by an https URL jsonschema does not know: say it.
    jsonschema.Draft7Validator(SCHEMA).validate(entry["metadata"])
    metadata = entry["metadata"]
    codes = [locale["code"] for locale in metadata["supportedLocales"]]
    assert metadata["defaultLocale"] == DEFAULT_LOCALE in codes
    assert codes == list(SUPPORTED_LOCALES)
    assert len(codes) >= 4
    assert [c for c in metadata["supportedLocales"] if c["isRtl"]] != []
    schema = await client.get(entry["schemaUrl"].removeprefix("http://test"))
    assert schema.status_code == 200


def test_formats_come_from_cldr() -> None:
    by_code = {entry["code"]: entry for entry in capability_metadata()["supportedLocales"]}
    assert by_code["ar"]["isRtl"] and not by_code["fr"]["isRtl"]
    for code, entry in by_code.items():
        number = entry["numberFormat"]
        # What Babel formats with is what we advertise.
        formatted = numbers.format_decimal(Decimal("1234567.5"), locale=code)
        assert formatted == (f"1{number['groupingSeparator']}234{number['groupingSeparator']}"
                             f"567{number['decimalSeparator']}5"), code
        currency = entry["currencyFormat"]
        amount = numbers.format_currency(Decimal("5"), currency["currency"], locale=code)
        assert currency["symbol"] in amount
        symbol_first = amount.strip("\u200f\u200e").startswith(currency["symbol"])
        assert currency["position"] == ("before" if symbol_first else "after"), code
    assert by_code["fr"]["numberFormat"]["decimalSeparator"] == ","
    assert by_code["fr"]["currencyFormat"] == {"currency": "EUR", "symbol": "€",
                                               "position": "after"}
    assert by_code["en"]["currencyFormat"]["position"] == "before"
    assert by_code["en"]["dateFormat"] == {"shortDate": "M/d/yy", "longDate": "MMMM d, y",
                                           "timeFormat": "h:mm\u202fa"}  # CLDR's narrow nbsp
    assert by_code["ja"]["dateFormat"]["longDate"] == "y年M月d日"
    assert by_code["fr"]["dateFormat"]["timeFormat"] == "HH:mm"
