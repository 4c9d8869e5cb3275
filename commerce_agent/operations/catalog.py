"""Public browsing tools: list stores, search products, open a catalog, view an item."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from commerce_agent.commerce import money
from commerce_agent.commerce.capability_ids import PRODUCT_CATEGORIES
from commerce_agent.commerce.pagination import Page
from commerce_agent.commerce.services.catalog import search
from commerce_agent.commerce.services.catalog import storefront as catalog
from commerce_agent.i18n.negotiation import SUPPORTED_LOCALES
from commerce_agent.operations.base import READS, Tool, ToolContext, ToolFailure, schema
from commerce_agent.operations.stores import own_names

# Names and descriptions in this language where the store translates them (as Accept-Language
# does on the Commerce API); as written otherwise.
_LOCALE = {"enum": list(SUPPORTED_LOCALES)}
_AMOUNT = {"type": ["string", "number"], "pattern": r"^\d+(\.\d+)?$", "minimum": 0,
           "description": "A decimal amount, e.g. \"20\" or \"19.99\"."}


def item_summary(doc: dict[str, Any]) -> dict[str, Any]:
    summary = {"itemId": doc["id"], "name": doc.get("name", ""), "price": doc.get("price"),
               "available": doc.get("available", True),
               "fulfillmentType": doc.get("fulfillmentType")}
    for key in ("storeId", "catalogId"):
        if key in doc:
            summary[key] = doc[key]
    description = str(doc.get("description", ""))
    if description:
        summary["description"] = description[:160]
    # What the store files it under ("Teapots", "Brewers"): a request by use names the kind.
    filed = ((doc.get("metadata") or {}).get(PRODUCT_CATEGORIES) or {}).get("items", [])
    categories = [str(entry["name"]) for entry in filed
                  if isinstance(entry, dict) and entry.get("name")]
    if categories:
        summary["categories"] = categories
    return summary


def _decimal(args: dict[str, Any], key: str) -> Decimal | None:
    raw = args.get(key)
    return None if raw is None else money.parse(str(raw))


async def search_products(ctx: ToolContext, args: dict[str, Any]) -> Any:
    found = await search.search(
        ctx.db, args["query"], store_id=args.get("storeId"), sort=args.get("sort", "relevance"),
        min_price=_decimal(args, "minPrice"), max_price=_decimal(args, "maxPrice"),
        fulfillment_type=None, available_only=bool(args.get("availableOnly", True)),
        locale=args.get("locale"), currency=args.get("currency"),
        page=Page(int(args.get("limit", 5))))
    # The words nothing sells ("wine" of "red wine"): what was found, was found without them.
    unmatched = {"unmatched": list(found.unmatched)} if found.unmatched else {}
    return {"results": [item_summary(doc) for doc in found.items], "total": found.total,
            **unmatched}


async def list_stores(ctx: ToolContext, args: dict[str, Any]) -> Any:
    locale = args.get("locale")
    stores, total = await catalog.list_stores_with_own_names(ctx.db, 50, 0, locale)
    # The names as written too, which a shopper may still type ("Midori-dō" in French).
    translated = bool(locale and locale != "en")
    return {"stores": [{"storeId": store["id"], "name": store.get("name"),
                        **({"ownName": own} if translated else {}),
                        "description": str(store.get("description", ""))[:160],
                        "currency": store.get("currency"),
                        "catalogIds": store.get("catalogIds", [])} for store, own in stores],
            "total": total}


async def get_catalog(ctx: ToolContext, args: dict[str, Any]) -> Any:
    doc = await catalog.get_catalog(ctx.db, args["catalogId"], None, args.get("locale"))
    return {"catalogId": doc["id"], "name": doc.get("name"), "storeId": doc.get("storeId"),
            "items": [item_summary({**item, "storeId": doc.get("storeId")})
                      for item in doc.get("items", [])]}


async def get_item(ctx: ToolContext, args: dict[str, Any]) -> Any:
    doc = await catalog.get_item(ctx.db, args["itemId"], None, args.get("locale"))
    keep = ("id", "name", "description", "price", "available", "fulfillmentType", "storeId",
            "catalogId", "metadata")
    found = {key: doc[key] for key in keep if key in doc}
    if doc.get("storeId"):
        # The store's own names for option groups, values, add-ons and shipping methods in
        # this locale, so a reply can name the 16-inch one « 16 pouces »; the item's metadata
        # stays as written. The store's name in this locale too, for replies that name it.
        names, store_name = await own_names(ctx, str(doc["storeId"]), args.get("locale"))
        if names:
            found["optionNames"] = names
        if store_name:
            found["storeName"] = store_name
    return found


def tools() -> list[Tool]:
    return [
        Tool("list_stores", "List the stores that sell on this server.",
             schema({"locale": _LOCALE}), list_stores, effect=READS),
        Tool("search_products",
             "Search every store's products by words, optionally within a price range (in one "
             "currency: prices are never converted).",
             schema({"query": {"type": "string", "minLength": 1, "maxLength": 200},
                     "maxPrice": _AMOUNT, "minPrice": _AMOUNT,
                     "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                     "storeId": {"type": "string"},
                     "sort": {"enum": sorted(search.SORTS)},
                     "availableOnly": {"type": "boolean"},
                     "limit": {"type": "integer", "minimum": 1, "maximum": 20},
                     "locale": _LOCALE},
                    ["query"]),
             search_products, effect=READS),
        Tool("get_catalog", "List the items of one catalog.",
             schema({"catalogId": {"type": "string"}, "locale": _LOCALE}, ["catalogId"]),
             get_catalog,
             effect=READS),
        Tool("get_item", "Show one item: description, price, options and availability.",
             schema({"itemId": {"type": "string"}, "locale": _LOCALE}, ["itemId"]), get_item,
             effect=READS),
    ]


__all__ = ["ToolFailure", "item_summary", "tools"]
