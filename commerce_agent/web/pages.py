"""The page routes: server-rendered shells that name what to show; static/*.js fills them in
from the public APIs."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import flows
from commerce_agent.auth.web import Browser
from commerce_agent.commerce.shop import merchants
from commerce_agent.web import paths
from commerce_agent.web.templates import render


def _context(request: Request, browser: Browser, page: str) -> dict[str, Any]:
    """What every page needs: who is signed in, the CSRF token, where the APIs are."""
    here = quote(request.url.path + (f"?{request.url.query}" if request.url.query else ""),
                 safe="/")
    principal = browser.principal
    return {
        "page": page,
        "user": None if principal is None else {"name": principal.name,
                                                "email": principal.email},
        "csrf_token": browser.csrf_token() if principal else "",
        "agent_mount": request.app.state.settings.agent_mount,
        "base_url": request.app.state.settings.base_url.rstrip("/"),
        "paths": paths,
        "sign_in_url": f"{flows.SIGN_IN_PATH}?next={here}",
        "sign_out_url": flows.SIGN_OUT_PATH,
        "register_url": f"{flows.REGISTRATION_PATH}?next={here}",
        "profile_url": flows.PROFILE_PAGE_PATH,
    }


async def page_context(request: Request, browser: Browser, page: str) -> dict[str, Any]:
    """_context, and whether the signed-in account is a merchant (it sees the console link;
    the console checks again)."""
    values = _context(request, browser, page)
    values["merchant"] = browser.principal is not None and await merchants.is_merchant(
        request.app.state.db, browser.principal.user_id)
    return values


async def _page(request: Request, template: str, page: str, **extra: Any) -> Response:
    browser = await Browser.of(request)
    return browser.respond(render(template, **await page_context(request, browser, page),
                                  **extra))


async def storefront(request: Request) -> Response:
    """The storefront: every store, and product search."""
    query = request.query_params.get("q", "")[:200]
    return await _page(request, "storefront.html", "storefront", query=query)


async def store_page(request: Request) -> Response:
    """One store: its catalogs and their items."""
    return await _page(request, "store.html", "store",
                       store_id=request.path_params["store_id"][:100])


async def item_page(request: Request) -> Response:
    """A product: variants, options, add-ons and time slots, and adding it to a cart."""
    return await _page(request, "item.html", "item", item_id=request.path_params["item_id"][:100])


async def cart_page(request: Request) -> Response:
    """This browser's carts and checkout through the 402 payment flow."""
    return await _page(request, "cart.html", "cart")


async def orders_page(request: Request) -> Response:
    """The signed-in user's orders."""
    return await _page(request, "orders.html", "orders")


async def order_page(request: Request) -> Response:
    """One order, live: status timeline, tracking, downloads and its actions."""
    return await _page(request, "order.html", "order",
                       order_id=request.path_params["order_id"][:100])
