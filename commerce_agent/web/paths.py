"""Where the web pages live. The Commerce API owns /stores, /items, /carts and /orders, so the
pages sit under /shop (the storefront itself is /)."""

from __future__ import annotations

from commerce_agent.commerce.payments.providers import PAYMENT_PAGE

STOREFRONT = "/"
PREFIX = "/shop"
STORE = PREFIX + "/stores/{store_id}"
ITEM = PREFIX + "/items/{item_id}"
CART = PREFIX + "/cart"
ORDERS = PREFIX + "/orders"
ORDER = PREFIX + "/orders/{order_id}"
STRIPE_PAY = PAYMENT_PAGE  # the payment-link page (Stripe), named by the payments package
API_TOKEN = PREFIX + "/api-token"  # noqa: S105 - a URL path
STATIC = PREFIX + "/static/{name}"
STATIC_PREFIX = PREFIX + "/static/"
MEDIA = PREFIX + "/media/{name}"
CONSOLE = "/console"
CONSOLE_CATALOG = CONSOLE + "/catalog"
CONSOLE_IMPORT = CONSOLE + "/import"
CONSOLE_RETURNS = CONSOLE + "/returns"
CONSOLE_WEBHOOKS = CONSOLE + "/webhooks"
CONSOLE_STORE = CONSOLE + "/store"
