"""Every route of the web app (pages, the session's API token, static files)."""

from __future__ import annotations

from starlette.routing import BaseRoute

from commerce_agent.routing import Route
from commerce_agent.web import cart_forms, pages, paths, payment_page
from commerce_agent.web.api_token import api_token
from commerce_agent.web.console import catalog, imports, mail, orders, returns, store, webhooks
from commerce_agent.web.static_files import media_file, static_file

routes: list[BaseRoute] = [
    Route(paths.STOREFRONT, pages.storefront, methods=["GET"]),
    Route(paths.STORE, pages.store_page, methods=["GET"]),
    Route(paths.ITEM, pages.item_page, methods=["GET"]),
    Route(paths.CART, pages.cart_page, methods=["GET"]),
    Route(paths.CART, cart_forms.cart_form, methods=["POST"]),
    Route(paths.ORDERS, pages.orders_page, methods=["GET"]),
    Route(paths.ORDER, pages.order_page, methods=["GET"]),
    Route(paths.API_TOKEN, api_token, methods=["POST"]),
    Route(paths.STRIPE_PAY, payment_page.pay_page, methods=["GET"]),
    Route(paths.STATIC, static_file, methods=["GET"]),
    Route(paths.MEDIA, media_file, methods=["GET"]),
    Route(paths.CONSOLE, orders.orders_board, methods=["GET"]),
    Route(paths.CONSOLE_ORDER_ACTION, orders.order_action, methods=["POST"]),
    Route(paths.CONSOLE_CATALOG, catalog.catalog_page, methods=["GET"]),
    Route(paths.CONSOLE_NEW_ITEM, catalog.new_item, methods=["POST"]),
    Route(paths.CONSOLE_ITEM_ACTION, catalog.item_action, methods=["POST"]),
    Route(paths.CONSOLE_IMPORT, imports.import_page, methods=["GET"]),
    Route(paths.CONSOLE_IMPORT, imports.import_file, methods=["POST"]),
    Route(paths.CONSOLE_RETURNS, returns.returns_page, methods=["GET"]),
    Route(paths.CONSOLE_RETURN_ACTION, returns.return_action, methods=["POST"]),
    Route(paths.CONSOLE_WEBHOOKS, webhooks.webhooks_page, methods=["GET"]),
    Route(paths.CONSOLE_WEBHOOKS, webhooks.create_webhook, methods=["POST"]),
    Route(paths.CONSOLE_WEBHOOK, webhooks.webhook_page, methods=["GET"]),
    Route(paths.CONSOLE_WEBHOOK_DELETE, webhooks.delete_webhook, methods=["POST"]),
    Route(paths.CONSOLE_REDELIVER, webhooks.redeliver, methods=["POST"]),
    Route(paths.CONSOLE_STORE, store.store_page, methods=["GET"]),
    Route(paths.CONSOLE_SETTINGS, store.save_settings, methods=["POST"]),
    Route(paths.CONSOLE_PROMOTIONS, store.save_promotion, methods=["POST"]),
    Route(paths.CONSOLE_PROMOTION_DELETE, store.delete_promotion, methods=["POST"]),
    Route(paths.CONSOLE_MAIL, mail.mail_page, methods=["GET"]),
    Route(paths.CONSOLE_MESSAGE, mail.message_page, methods=["GET"]),
]
