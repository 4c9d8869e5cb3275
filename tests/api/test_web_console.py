"""The merchant console in-process: the role is checked on the server (customers get the
"merchant accounts only" page), the pages are rendered on the server for merchants with every
control labelled, the console link shows for merchants only, and the session's API token
(CSRF-guarded) is what reaches the admin API."""

from __future__ import annotations

import re

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.shop import merchants
from tests.support.admin_support import CERAMICS
from tests.support.pages import browser_sign_in, page_csrf

PAGES = ["/console", "/console/catalog", "/console/import", "/console/returns",
         "/console/webhooks"]
MERCHANT = "owner@hearth.example"
PASSWORD = "merchant-pass-123"  # noqa: S105 - a test account


async def sign_in_merchant(app: Starlette, client: httpx.AsyncClient) -> None:
    await merchants.create(app.state.db, MERCHANT, [CERAMICS], password=PASSWORD)
    signed = await browser_sign_in(client, MERCHANT, PASSWORD)
    assert signed.status_code == 303, signed.text


@pytest.mark.parametrize("path", PAGES)
async def test_a_merchant_gets_each_console_page(app: Starlette, client: httpx.AsyncClient,
                                                 path: str) -> None:
    await sign_in_merchant(app, client)
    page = await client.get(path)
    assert page.status_code == 200
    assert 'id="console"' in page.text and page_csrf(page)
    assert page.headers["cache-control"] == "no-store"
    assert "script-src 'self'" in page.headers["content-security-policy"]
    # Scripts and styles from this server only, each shipped; no inline script.
    sources = re.findall(r'(?:src|href)="([^"]+\.(?:js|css)(?:\?v=[0-9a-f]+)?)"', page.text)
    assert sources and all(source.startswith("/shop/static/") for source in sources)
    assert "<script>" not in page.text
    for source in sources:
        assert (await client.get(source)).status_code == 200
    # Every form posts back to the console (with the page's CSRF token), never elsewhere.
    for action in re.findall(r'<form[^>]*method="post"[^>]*action="([^"]+)"', page.text):
        assert action.startswith("/console"), action
    for control in re.findall(r'<(?:input|select)[^>]*\bid="([^"]+)"', page.text):
        assert f'for="{control}"' in page.text, control
    assert 'aria-current="page">Merchant console</a>' in page.text


async def test_a_customer_gets_the_merchant_accounts_only_page(
        client: httpx.AsyncClient) -> None:
    await browser_sign_in(client)
    for path in PAGES:
        page = await client.get(path)
        assert page.status_code == 403, path
        assert "Merchant accounts only" in page.text and 'id="console"' not in page.text
    assert "Merchant console" not in (await client.get("/")).text


async def test_signed_out_the_console_asks_for_a_sign_in(client: httpx.AsyncClient) -> None:
    page = await client.get("/console/returns")
    assert page.status_code == 200
    assert 'href="/account/sign-in?next=/console/returns"' in page.text
    assert 'id="console"' not in page.text


async def test_the_console_link_shows_on_the_shop_pages_for_merchants(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    assert 'href="/console">Merchant console</a>' in (await client.get("/shop/orders")).text


async def test_the_admin_api_answers_the_sessions_token_only_with_the_csrf_token(
        app: Starlette, client: httpx.AsyncClient) -> None:
    await sign_in_merchant(app, client)
    page = await client.get("/console")
    refused = await client.post("/shop/api-token", headers={"X-CSRF-Token": "0" * 64})
    assert refused.status_code == 403
    answer = await client.post("/shop/api-token", headers={"X-CSRF-Token": page_csrf(page)})
    assert answer.status_code == 200
    bearer = {"Authorization": f"Bearer {answer.json()['accessToken']}"}
    orders = await client.get("/admin/orders", headers=bearer)
    assert orders.status_code == 200
    stores = await client.get("/admin/stores", headers=bearer)
    assert [store["id"] for store in stores.json()["stores"]] == [CERAMICS]


async def test_a_customers_session_token_is_refused_by_the_admin_api(
        client: httpx.AsyncClient) -> None:
    await browser_sign_in(client)
    page = await client.get("/")
    answer = await client.post("/shop/api-token", headers={"X-CSRF-Token": page_csrf(page)})
    bearer = {"Authorization": f"Bearer {answer.json()['accessToken']}"}
    assert (await client.get("/admin/orders", headers=bearer)).status_code == 403
