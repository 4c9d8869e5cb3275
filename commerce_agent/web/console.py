"""The merchant console under /console: page shells for merchant accounts, filled in by
static/console-*.js from the admin API (/admin/...) and the webhook API with the session's
bearer token, exactly as the shop pages use the Commerce API.

The role is checked here (a customer gets a "merchant accounts only" page, 403) and again by
every admin route the scripts call, so the pages show nothing the API would not.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.web import Browser
from commerce_agent.commerce.orders.model import STATUSES
from commerce_agent.commerce.services.webhooks import subscriptions as webhooks
from commerce_agent.web import paths
from commerce_agent.web.pages import page_context
from commerce_agent.web.templates import render

# page name (its script is static/<name>.js, its template console/<name minus "console-">)
# → (path, title)
SECTIONS = {
    "console-orders": (paths.CONSOLE, "Orders"),
    "console-catalog": (paths.CONSOLE_CATALOG, "Stock and prices"),
    "console-import": (paths.CONSOLE_IMPORT, "Catalog import"),
    "console-returns": (paths.CONSOLE_RETURNS, "Returns"),
    "console-webhooks": (paths.CONSOLE_WEBHOOKS, "Webhooks"),
}


async def _console_page(request: Request, page: str, **extra: Any) -> Response:
    browser = await Browser.of(request)
    values = await page_context(request, browser, page)
    if browser.principal is not None and not values["merchant"]:
        return browser.respond(render("console/merchants_only.html", status=403, **values,
                                      sections=SECTIONS, title=SECTIONS[page][1]))
    template = f"console/{page.removeprefix('console-')}.html"
    return browser.respond(render(template, **values, **extra,
                                  sections=SECTIONS, title=SECTIONS[page][1]))


async def orders_board(request: Request) -> Response:
    """The orders board: every order of the merchant's stores, kept current."""
    return await _console_page(request, "console-orders", statuses=STATUSES)


async def catalog_page(request: Request) -> Response:
    """Items with their variants: stock set or adjusted, prices edited."""
    return await _console_page(request, "console-catalog")


async def import_page(request: Request) -> Response:
    """Upload a Shopify product CSV or JSON store file (with a dry run)."""
    return await _console_page(request, "console-import")


async def returns_page(request: Request) -> Response:
    """Returns of the merchant's stores: approve, reject, receive, refund."""
    return await _console_page(request, "console-returns")


async def webhooks_page(request: Request) -> Response:
    """Webhook subscriptions, their delivery log and redelivery."""
    return await _console_page(request, "console-webhooks", webhook_events=webhooks.EVENTS)
