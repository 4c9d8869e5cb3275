"""How the pages show what the services answer: prices in the shopper's locale, an item's
images (the variant's own first), its availability, human dates. Pure functions of the
documents the Commerce API renders, so a page shows exactly what a client of the API reads."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime
from babel.numbers import format_currency

from commerce_agent.commerce.capability_ids import PRODUCT_RICH_INFO as RICH_INFO
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS

DEFAULT_LOCALE = "en_US"


def _locale(locale: str | None) -> str:
    try:
        return str(Locale.parse((locale or DEFAULT_LOCALE).replace("-", "_")))
    except (ValueError, UnknownLocaleError):
        return DEFAULT_LOCALE


def price(amount: dict[str, Any] | None, locale: str | None = None) -> str:
    """{amount, currency} as the shopper reads it ("$24.00", "¥1,200")."""
    if not amount:
        return ""
    try:
        return str(format_currency(Decimal(amount["amount"]), amount["currency"],
                                   locale=_locale(locale)))
    except (InvalidOperation, KeyError, ValueError):
        return f"{amount.get('amount', '')} {amount.get('currency', '')}".strip()


def when(timestamp: str | None, locale: str | None = None, time_zone: str | None = None) -> str:
    """An ISO 8601 timestamp as a date and time in the shopper's locale ("Nov 26, 2026, 3:00 PM"),
    in the IANA `time_zone` when one is known (else the timestamp's own offset)."""
    if not timestamp:
        return ""
    try:
        moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
        zone = ZoneInfo(time_zone) if time_zone else moment.tzinfo
        return str(format_datetime(moment, "medium", tzinfo=zone, locale=_locale(locale)))
    except (ValueError, LookupError):
        return timestamp


def gallery(item: dict[str, Any]) -> list[dict[str, str]]:
    """The item's images ({src, alt, variantId}) in gallery order, URLs as stored."""
    found = []
    for image in item.get("metadata", {}).get(RICH_INFO, {}).get("imageGallery", []) or []:
        if isinstance(image, dict) and isinstance(image.get("fallbackUrl"), str):
            found.append({"src": image["fallbackUrl"],
                          "alt": str(image.get("alt") or item.get("name", "")),
                          "variantId": str(image.get("variantId") or "")})
    return found


def image_for(item: dict[str, Any], variant_id: str = "") -> dict[str, str] | None:
    """The variant's own image when it has one, else the item's first general image."""
    images = gallery(item)
    if variant_id:
        own = next((image for image in images if image["variantId"] == variant_id), None)
        if own is not None:
            return own
    return next((image for image in images if not image["variantId"]),
                images[0] if images else None)


def variants(item: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = item.get("metadata", {}).get(VARIANTS, {}).get(
        "variants", [])
    return found


def variant_sold_out(variant: dict[str, Any]) -> bool:
    return variant.get("available") is False or variant.get("stock") == 0


def first_choice(item: dict[str, Any]) -> dict[str, Any] | None:
    """The variant chosen when the page opens: the first one still for sale."""
    return next((v for v in variants(item) if not variant_sold_out(v)), None)


def availability(item: dict[str, Any]) -> str:
    if item.get("available") is False:
        return "Sold out"
    stock = item.get("stock")
    if isinstance(stock, int) and 0 < stock <= 5:
        return f"Only {stock} left"
    return "In stock"


def ships(cart: dict[str, Any]) -> bool:
    """Whether anything in the cart is delivered to an address (physical or hybrid)."""
    return any(line.get("fulfillmentType") in ("physical", "hybrid", None)
               for line in cart.get("items", []))


def line_details(line: dict[str, Any], item: dict[str, Any] | None,
                 locale: str | None = None) -> str:
    """What was chosen on a cart line, by name: its variant, add-ons and time slot ("Cobalt
    Blue / 16 oz, Gift Box"); the ids when the item is no longer sold."""
    meta = (item or {}).get("metadata", {})
    variant = next((v for v in variants(item or {}) if v.get("id") == line.get("variantId")),
                   None)
    add_ons = {a.get("id"): a.get("name") for a in
               meta.get("dev.commerce.product.addons", {}).get("items", [])}
    slots = {s.get("id"): s for s in
             meta.get("dev.commerce.service.scheduling", {}).get("timeSlots", [])}
    slot = slots.get(line.get("timeSlotId"))
    parts = [" / ".join(variant.get("values", [])) if variant else line.get("variantId"),
             *(add_ons.get(a) or a for a in line.get("addOnIds", [])),
             when(slot.get("startTime"), locale) if slot else line.get("timeSlotId")]
    return ", ".join(str(part) for part in parts if part)
