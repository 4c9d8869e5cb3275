"""The page routes: pages rendered on the server from the services the Commerce API routes
call (so they read the same as the API, and browse without JavaScript); static/*.js then
enhances them (cart changes, checkout, live order updates, the chat)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import flows, guests
from commerce_agent.auth.tokens import Principal
from commerce_agent.auth.web import Browser, guest_token
from commerce_agent.commerce.orders import model as order_model
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.pagination import Page
from commerce_agent.commerce.services.carts import shopper
from commerce_agent.commerce.services.catalog import search as search_service
from commerce_agent.commerce.services.catalog import storefront as catalog
from commerce_agent.commerce.shop import merchants
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.errors import CommerceError, not_found
from commerce_agent.http import request_locale
from commerce_agent.web import paths
from commerce_agent.web.templates import render

STORES_SHOWN = 100
RESULTS_SHOWN = 48


def _context(request: Request, browser: Browser, page: str) -> dict[str, Any]:
    """What every page needs: who is signed in, the CSRF token, where the APIs are."""
    here = quote(request.url.path + (f"?{request.url.query}" if request.url.query else ""),
                 safe="/")
    principal = browser.principal
    return {
        "page": page,
        "user": None if principal is None else {"name": principal.name,
                                                "email": principal.email},
        "csrf_token": browser.csrf_token(),
        "agent_mount": request.app.state.settings.agent_mount,
        "base_url": request.app.state.settings.base_url.rstrip("/"),
        "locale": request_locale(request),
        "paths": paths,
        "sign_in_url": f"{flows.SIGN_IN_PATH}?next={here}",
        "sign_out_url": flows.SIGN_OUT_PATH,
        "register_url": f"{flows.REGISTRATION_PATH}?next={here}",
        "profile_url": flows.PROFILE_PAGE_PATH,
        "cart_count": None,
        "carts": [],
    }


def shopper_of(request: Request, browser: Browser) -> Principal | None:
    """Whose carts this browser shows: the signed-in user's, else its guest token's."""
    if browser.principal is not None:
        return browser.principal
    token = guest_token(request)
    return guests.guest_principal(token) if token else None


async def page_context(request: Request, browser: Browser, page: str) -> dict[str, Any]:
    """_context, whether the signed-in account is a merchant (it sees the console link; the
    console checks again), and how many things the shopper's carts hold (the header's count)."""
    values = _context(request, browser, page)
    db = request.app.state.db
    values["merchant"] = browser.principal is not None and await merchants.is_merchant(
        db, browser.principal.user_id)
    owner = shopper_of(request, browser)
    if owner is not None and not page.startswith("console"):
        carts, _ = await shopper.open_carts(db, owner, Page(20))
        values["carts"] = carts
        values["cart_count"] = sum(int(cart.render()["itemCount"]) for cart in carts)
    return values


async def _page(request: Request, template: str, page: str, **extra: Any) -> Response:
    browser = await Browser.of(request)
    return browser.respond(render(template, **await page_context(request, browser, page),
                                  **extra))


async def _store_names(request: Request) -> dict[str, str]:
    stores, _ = await catalog.list_stores(request.app.state.db, STORES_SHOWN, 0,
                                          request_locale(request))
    return {store["id"]: store["name"] for store in stores}


async def storefront(request: Request) -> Response:
    """The storefront: every store, and product search (?q=)."""
    query = request.query_params.get("q", "")[:200].strip()
    db, locale = request.app.state.db, request_locale(request)
    stores, _ = await catalog.list_stores(db, STORES_SHOWN, 0, locale)
    results = None
    if query:
        found = await search_service.search(db, query, store_id=None, sort="relevance",
                                            min_price=None, max_price=None,
                                            fulfillment_type=None, available_only=False,
                                            locale=locale, page=Page(RESULTS_SHOWN))
        results = found.items
    return await _page(request, "storefront.html", "storefront", query=query, stores=stores,
                       results=results, store_names={s["id"]: s["name"] for s in stores})


async def store_page(request: Request) -> Response:
    """One store: its catalogs and their items (404 for no such store)."""
    db, locale = request.app.state.db, request_locale(request)
    store = await catalog.get_store(db, request.path_params["store_id"][:100], locale)
    catalogs = [await catalog.get_catalog(db, catalog_id, None, locale)
                for catalog_id in store.get("catalogIds", [])]
    return await _page(request, "store.html", "store", store=store, catalogs=catalogs)


async def item_page(request: Request) -> Response:
    """A product: its images, variants, options, add-ons and time slots, and adding it to a
    cart (404 for no such product)."""
    db, locale = request.app.state.db, request_locale(request)
    item = await catalog.get_item(db, request.path_params["item_id"][:100], None, locale)
    store = await catalog.get_store(db, item["storeId"], locale)
    return await _page(request, "item.html", "item", item=item, store=store)


# What the cart page says after a form's change worked (cart_forms.py, ?done=…).
CART_CHANGES = {"add": "Added to your cart.", "update": "Quantity changed.",
                "remove": "Removed from your cart.", "promotion": "Promotion code applied.",
                "shipping": "Shipping option chosen."}


async def cart_page(request: Request) -> Response:
    """The shopper's open carts (the same as GET /carts), each line's quantity and removal as
    a form (cart_forms.py), and checkout through the 402 flow (the page's script)."""
    return await cart_page_response(request, await Browser.of(request))


async def cart_page_response(request: Request, browser: Browser, problem: str = "",
                             status: int = 200) -> Response:
    """The cart page; after a refused form, with `problem` as an alert and the error's
    status."""
    db, locale = request.app.state.db, request_locale(request)
    values = await page_context(request, browser, "cart")
    items: dict[str, Any] = {}
    for view in values["carts"]:
        for line in view.lines:
            if line.item_id not in items:
                try:
                    items[line.item_id] = await catalog.get_item(db, line.item_id, None, locale)
                except CommerceError:  # no longer sold: the line shows its own name
                    items[line.item_id] = None
    done = CART_CHANGES.get(request.query_params.get("done", "")) if not problem else None
    return browser.respond(render("cart.html", status=status, **values, items=items,
                                  problem=problem, done=done,
                                  store_names=await _store_names(request)))


async def orders_page(request: Request) -> Response:
    """The signed-in user's orders."""
    browser = await Browser.of(request)
    orders: list[dict[str, Any]] = []
    if browser.principal is not None:
        rows = await order_storage.list_orders(request.app.state.db,
                                               browser.principal.user_id, None, 50)
        orders = [order_view.render(order_model.decode(row["doc"])) for row in rows]
    return browser.respond(render("orders.html", **await page_context(request, browser,
                                                                      "orders"),
                                  orders=orders, store_names=await _store_names(request)))


async def order_page(request: Request) -> Response:
    """One order, live: status timeline, tracking, downloads and its actions (404 for an
    order that is not the signed-in user's)."""
    browser = await Browser.of(request)
    order_id = request.path_params["order_id"][:100]
    order = None
    if browser.principal is not None:
        row = await order_storage.get_order(request.app.state.db, order_id,
                                            browser.principal.user_id)
        if row is None:
            raise not_found("order", order_id)
        order = order_view.render(order_model.decode(row["doc"]))
    return browser.respond(render("order.html", **await page_context(request, browser, "order"),
                                  order_id=order_id, order=order,
                                  store_names=await _store_names(request)))

