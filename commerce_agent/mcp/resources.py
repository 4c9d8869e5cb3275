"""MCP resources: `commerce://` URIs over the same services as the Commerce API's GETs.

    commerce://stores                 every store (public)
    commerce://stores/{storeId}       one store (public)
    commerce://catalogs/{catalogId}   one catalog with its items (public)
    commerce://carts/{cartId}         one of the caller's carts
    commerce://orders                 the caller's recent orders
    commerce://orders/{orderId}       one of the caller's orders (subscribable: updates)

Each reads as the JSON document the Commerce API returns for it. Another customer's cart or
order reads as not found, exactly as over HTTP.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.orders import model
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.pagination import COUNT_CAP, total_count
from commerce_agent.commerce.services.carts import cart as carts
from commerce_agent.commerce.services.catalog import storefront as catalog
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.errors import CommerceError
from commerce_agent.mcp.shop import Shop

SCHEME = "commerce://"
JSON = "application/json"
RESOURCE_NOT_FOUND = -32002  # the MCP spec's code for an unknown resource
RECENT_ORDERS = 20

TEMPLATES = [
    types.ResourceTemplate(name="store", title="Store", uri_template=SCHEME + "stores/{storeId}",
                           description="One store: name, currency, catalogs.", mime_type=JSON),
    types.ResourceTemplate(name="catalog", title="Catalog",
                           uri_template=SCHEME + "catalogs/{catalogId}",
                           description="One catalog with its items and prices.",
                           mime_type=JSON),
    types.ResourceTemplate(name="cart", title="Cart", uri_template=SCHEME + "carts/{cartId}",
                           description="One of your carts: lines and totals.", mime_type=JSON),
    types.ResourceTemplate(name="order", title="Order", uri_template=SCHEME + "orders/{orderId}",
                           description="One of your orders; subscribe to hear when it "
                                       "changes.", mime_type=JSON),
]


def order_uri(order_id: str) -> str:
    return f"{SCHEME}orders/{order_id}"


def order_id_of(uri: str) -> str | None:
    """The order id of a `commerce://orders/{id}` URI, else None."""
    kind, _, rest = uri.removeprefix(SCHEME).partition("/")
    if not uri.startswith(SCHEME) or kind != "orders" or not rest or "/" in rest:
        return None
    return rest


def _resource(uri: str, name: str, title: str, description: str) -> types.Resource:
    return types.Resource(uri=uri, name=name, title=title, description=description,
                          mime_type=JSON)


async def listing(shop: Shop, principal: Principal | None) -> list[types.Resource]:
    stores, _ = await catalog.list_stores(shop.db, 100, 0, None)
    found = [_resource(SCHEME + "stores", "stores", "Stores", "Every store on this server.")]
    for store in stores:
        found.append(_resource(f"{SCHEME}stores/{store['id']}", f"store {store['id']}",
                               str(store.get("name", store["id"])), "A store."))
        for catalog_id in store.get("catalogIds", []):
            found.append(_resource(f"{SCHEME}catalogs/{catalog_id}", f"catalog {catalog_id}",
                                   f"{store.get('name', store['id'])} catalog",
                                   "A catalog with its items."))
    if principal is not None:
        found.append(_resource(SCHEME + "orders", "orders", "Your orders",
                               "Your most recent orders."))
        rows = await order_storage.list_orders(shop.db, principal.user_id, None, RECENT_ORDERS)
        for row in rows:
            found.append(_resource(order_uri(row["id"]), f"order {row['id']}",
                                   f"Order {row['id']} ({row['status']})", "One of your orders."))
    return found


def not_found(uri: str) -> MCPError:
    return MCPError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})


def _signed_in(principal: Principal | None, uri: str) -> Principal:
    if principal is None:
        raise not_found(uri)
    return principal


async def document(shop: Shop, principal: Principal | None, uri: str) -> Any:
    """What `uri` reads as; MCPError for an unknown URI or another customer's resource."""
    if not uri.startswith(SCHEME):
        raise not_found(uri)
    kind, _, key = uri.removeprefix(SCHEME).partition("/")
    try:
        if kind == "stores" and not key:
            stores, total = await catalog.list_stores(shop.db, 100, 0, None)
            return {"stores": stores, "total": total}
        if kind == "orders" and not key:
            user = _signed_in(principal, uri)
            rows = await order_storage.list_orders(shop.db, user.user_id, None, RECENT_ORDERS)
            total = await order_storage.count_orders(shop.db, user.user_id, None, COUNT_CAP + 1)
            return {"orders": [order_view.render(model.decode(row["doc"])) for row in rows],
                    "total": total_count(total)}
        if not key or "/" in key:
            raise not_found(uri)
        if kind == "stores":
            return await catalog.get_store(shop.db, key, None)
        if kind == "catalogs":
            return await catalog.get_catalog(shop.db, key, principal, None)
        if kind == "carts":
            return (await carts.open_cart(shop.db, key, _signed_in(principal, uri))).render()
        if kind == "orders":
            row = await order_storage.get_order(shop.db, key, _signed_in(principal, uri).user_id)
            if row is None:
                raise not_found(uri)
            return order_view.render(model.decode(row["doc"]))
    except CommerceError as exc:
        if exc.status == 404:
            raise not_found(uri) from None
        raise MCPError(types.INVALID_PARAMS, exc.message) from None
    raise not_found(uri)


async def read(shop: Shop, principal: Principal | None, uri: str) -> types.ReadResourceResult:
    doc = await document(shop, principal, uri)
    text = json.dumps(doc, ensure_ascii=False)
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type=JSON, text=text)])
