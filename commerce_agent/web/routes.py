"""Every route of the web app (pages, the session's API token, static files)."""

from __future__ import annotations

from starlette.routing import BaseRoute

from commerce_agent.routing import Route
from commerce_agent.web import cart_forms, console, pages, paths, payment_page
from commerce_agent.web.api_token import api_token
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
    Route(paths.CONSOLE, console.orders_board, methods=["GET"]),
    Route(paths.CONSOLE_CATALOG, console.catalog_page, methods=["GET"]),
    Route(paths.CONSOLE_IMPORT, console.import_page, methods=["GET"]),
    Route(paths.CONSOLE_RETURNS, console.returns_page, methods=["GET"]),
    Route(paths.CONSOLE_WEBHOOKS, console.webhooks_page, methods=["GET"]),
    Route(paths.CONSOLE_STORE, console.store_page, methods=["GET"]),
]
