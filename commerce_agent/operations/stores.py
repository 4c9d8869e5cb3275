"""The public store tool: what a shopper asks about a store before buying there."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from commerce_agent.commerce import money
from commerce_agent.commerce.capability_ids import DISCOVERABLE_PROMOTIONS as _DISCOVERABLE
from commerce_agent.commerce.capability_ids import STORE_CONSTRAINTS as _CONSTRAINTS
from commerce_agent.commerce.capability_ids import STORE_INFO as _INFO
from commerce_agent.commerce.capability_ids import STORE_SHIPPING as _SHIPPING
from commerce_agent.commerce.services.catalog import storefront as catalog
from commerce_agent.commerce.storage import carts as cart_storage
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.i18n.negotiation import SUPPORTED_LOCALES
from commerce_agent.operations.base import READS, Tool, ToolContext, schema

# The store's name, description and shipping methods in this language where it translates them
# (as Accept-Language does on the Commerce API); as written otherwise.
LOCALE = {"enum": list(SUPPORTED_LOCALES)}


def store_summary(doc: dict[str, Any]) -> dict[str, Any]:
    metadata = doc.get("metadata", {})
    constraints = metadata.get(_CONSTRAINTS, {})
    return {
        "storeId": doc["id"], "name": doc.get("name"), "currency": doc.get("currency"),
        "description": doc.get("description"),
        "address": (doc.get("location") or {}).get("address"),
        "countryCode": (doc.get("location") or {}).get("countryCode"),
        "openingHours": metadata.get(_INFO, {}).get("openingHours"),
        # How to reach the store, as its own info says (absent parts stay None).
        "telephone": metadata.get(_INFO, {}).get("telephone"),
        "email": metadata.get(_INFO, {}).get("email"),
        "url": metadata.get(_INFO, {}).get("url"),
        "paymentAccepted": metadata.get(_INFO, {}).get("paymentAccepted", []),
        "deliveryAreas": metadata.get(_SHIPPING, {}).get("deliveryAreas", []),
        "minimumOrderValue": constraints.get("minimumOrderValue"),
        "maxCartItems": constraints.get("maxCartItems"),
        "shippingOptions": [_shipping_option(option, doc.get("currency"))
                            for option in metadata.get(_SHIPPING, {}).get("shippingOptions", [])
                            if isinstance(option, dict)],
        "returnWindowDays": (constraints.get("returns") or {}).get("returnWindowDays"),
        "promotions": [{key: entry.get(key) for key in ("title", "description", "code")}
                       for entry in metadata.get(_DISCOVERABLE, {}).get("items", [])],
    }


def _shipping_option(option: dict[str, Any], currency: Any) -> dict[str, Any]:
    """A shipping option as a shopper asks about it: its name, flat cost and days."""
    cost = option.get("costCalculation") or {}
    days = option.get("processingTime") or {}
    rate = cost.get("flatRate") if cost.get("type") == "flat" else None
    priced = isinstance(rate, (int, float)) and isinstance(currency, str)
    return {"id": option.get("id"), "name": option.get("name"),
            # the store's own words on it ("Ready in about 20 minutes"), as written
            "description": option.get("description"),
            "cost": money.money(Decimal(str(rate)), str(currency)) if priced else None,
            "minDays": days.get("minDays"), "maxDays": days.get("maxDays")}


async def own_words(ctx: ToolContext, store_id: str, locale: Any) -> dict[str, str]:
    """The store's own names in `locale` for its options and shipping methods (its
    translations' `options`, which item reads and approval prompts use too); {} in English."""
    return (await own_names(ctx, store_id, locale))[0]


async def own_names(ctx: ToolContext, store_id: str, locale: Any
                    ) -> tuple[dict[str, str], str | None]:
    """`own_words`, and the store's own name in `locale` (« Hearth & Kiln Céramiques »), or
    None where it has none there or in English: one read."""
    if not locale or locale == "en":
        return {}, None
    row = await catalog_storage.get_store(ctx.db, store_id)
    if not row:
        return {}, None
    name = catalog.translation(row["translations"], locale, "store").get("name")
    return (dict(catalog.translation(row["translations"], locale, "options")),
            str(name) if name else None)


async def get_store(ctx: ToolContext, args: dict[str, Any]) -> Any:
    locale = args.get("locale")
    store, own_name = await catalog.get_store_with_own_name(ctx.db, args["storeId"], locale)
    summary = store_summary(store)
    names = await own_words(ctx, args["storeId"], locale)
    for option in summary["shippingOptions"]:  # "Livraison standard", not "Standard Shipping"
        option["name"] = names.get(str(option["name"]), option["name"])
    if locale and locale != "en":  # the name as written, which a shopper may still type
        summary["ownName"] = own_name
    await _with_terms(ctx, args["storeId"], summary)
    return summary


async def _with_terms(ctx: ToolContext, store_id: str, summary: dict[str, Any]) -> None:
    """Each advertised promotion with its terms as the store applies them (its kind, its
    value and the minimum spend, in the store's currency): what a reply in any language says
    of it, where the advertised description is in the store's own language only."""
    promotions = await cart_storage.store_promotions(ctx.db, store_id)
    currency = summary.get("currency")
    for entry in summary["promotions"]:
        terms = promotions.get(str(entry.get("code") or "").upper())
        if not terms or terms.get("type") not in ("percentage", "fixed_amount"):
            continue
        entry["type"], entry["value"] = terms["type"], str(terms.get("value"))
        if terms.get("minimumSubtotal") and isinstance(currency, str):
            entry["minimumSubtotal"] = money.money(Decimal(str(terms["minimumSubtotal"])),
                                                   currency)


def tools() -> list[Tool]:
    return [Tool("get_store",
                 "Show one store: where it is (for pickups), how to contact it, its currency, "
                 "opening hours, the "
                 "payment it accepts, where it delivers, its minimum order, shipping options "
                 "and costs, return window and the promotions it advertises.",
                 schema({"storeId": {"type": "string"}, "locale": LOCALE}, ["storeId"]),
                 get_store,
                 effect=READS)]
