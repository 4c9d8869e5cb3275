"""Where a store delivers: the country of an address and the store's delivery areas."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from babel import Locale

from commerce_agent.commerce.capability_ids import STORE_SHIPPING as SHIPPING
from commerce_agent.errors import CommerceError


@lru_cache(maxsize=1)
def _country_names() -> dict[str, str]:
    """English country names (and codes) to ISO 3166 alpha-2 codes, from CLDR via Babel."""
    names = {}
    for code, name in Locale("en").territories.items():
        if len(code) == 2 and code.isalpha():
            names[name.lower()] = code
            names[code.lower()] = code
    names.update({"usa": "US", "united states of america": "US", "uk": "GB",
                  "england": "GB"})
    return names


def country_of(location: dict[str, Any]) -> str | None:
    """The explicit countryCode, else the last comma-separated part of the address."""
    code = location.get("countryCode")
    if code:
        return str(code).upper()
    address = str(location.get("address", ""))
    last = address.rsplit(",", 1)[-1].strip().rstrip(".").lower()
    return _country_names().get(last)


def check_deliverable(store_metadata: dict[str, Any], location: dict[str, Any]) -> None:
    areas = [area.upper() for area in store_metadata.get(SHIPPING, {}).get("deliveryAreas", [])
             if isinstance(area, str)]
    if not areas:
        return
    country = country_of(location)
    if country is None:
        raise CommerceError(
            400, "bad_request",
            "Cannot tell the country of the delivery address: add countryCode or end the "
            "address with the country.",
            details=[{"type": "validation", "field": "/deliveryAddress/countryCode",
                      "reason": "country could not be determined"}])
    if country not in areas:
        raise CommerceError(
            403, "geographic_restriction",
            f"This store does not deliver to {country}; it delivers to {', '.join(areas)}.",
            details=[{"type": "business_logic", "field": "/deliveryAddress", "value": country,
                      "reason": "outside_delivery_area"}],
            params={"country": country, "deliveryAreas": areas})
