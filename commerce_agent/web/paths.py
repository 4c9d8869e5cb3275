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
CONSOLE_MAIL = CONSOLE + "/mail"
CONSOLE_MESSAGE = CONSOLE_MAIL + "/{message_id}"
CONSOLE_WEBHOOK = CONSOLE_WEBHOOKS + "/{webhook_id}"
# What the console's forms post to (each answers with a redirect back to its page).
CONSOLE_ORDER_ACTION = CONSOLE + "/orders/{order_id}/{action}"
CONSOLE_NEW_ITEM = CONSOLE_CATALOG + "/items"
CONSOLE_ITEM_ACTION = CONSOLE + "/items/{item_id}/{action}"
CONSOLE_RETURN_ACTION = CONSOLE_RETURNS + "/{return_id}/{action}"
CONSOLE_WEBHOOK_DELETE = CONSOLE_WEBHOOK + "/delete"
CONSOLE_REDELIVER = CONSOLE_WEBHOOK + "/deliveries/{delivery_id}/redeliver"
CONSOLE_SETTINGS = CONSOLE + "/stores/{store_id}/settings"
CONSOLE_PROMOTIONS = CONSOLE + "/stores/{store_id}/promotions"
CONSOLE_PROMOTION_DELETE = CONSOLE_PROMOTIONS + "/{code}/delete"
