"""Where the web pages live. The Commerce API owns /stores, /items, /carts and /orders, so the
pages sit under /shop (the storefront itself is /)."""

from __future__ import annotations

STOREFRONT = "/"
PREFIX = "/shop"
STORE = PREFIX + "/stores/{store_id}"
ITEM = PREFIX + "/items/{item_id}"
CART = PREFIX + "/cart"
ORDERS = PREFIX + "/orders"
ORDER = PREFIX + "/orders/{order_id}"
API_TOKEN = PREFIX + "/api-token"  # noqa: S105 - a URL path
STATIC = PREFIX + "/static/{name}"
STATIC_PREFIX = PREFIX + "/static/"
MEDIA = PREFIX + "/media/{name}"
CONSOLE = "/console"
CONSOLE_CATALOG = CONSOLE + "/catalog"
CONSOLE_IMPORT = CONSOLE + "/import"
CONSOLE_RETURNS = CONSOLE + "/returns"
CONSOLE_WEBHOOKS = CONSOLE + "/webhooks"
