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
from commerce_agent.operations.base import READS, Tool, ToolContext, schema


def store_summary(doc: dict[str, Any]) -> dict[str, Any]:
    metadata = doc.get("metadata", {})
    constraints = metadata.get(_CONSTRAINTS, {})
    return {
        "storeId": doc["id"], "name": doc.get("name"), "currency": doc.get("currency"),
        "address": (doc.get("location") or {}).get("address"),
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
    return {"name": option.get("name"),
            "cost": money.money(Decimal(str(rate)), str(currency)) if priced else None,
            "minDays": days.get("minDays"), "maxDays": days.get("maxDays")}


async def get_store(ctx: ToolContext, args: dict[str, Any]) -> Any:
    return store_summary(await catalog.get_store(ctx.db, args["storeId"], None))


def tools() -> list[Tool]:
    return [Tool("get_store",
                 "Show one store: where it is (for pickups), how to contact it, its currency, "
                 "opening hours, the "
                 "payment it accepts, where it delivers, its minimum order, shipping options "
                 "and costs, return window and the promotions it advertises.",
                 schema({"storeId": {"type": "string"}}, ["storeId"]), get_store,
                 effect=READS)]
