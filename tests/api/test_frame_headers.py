"""No page of this server can be framed by another site: every HTML answer (web pages,
account pages, the consent page, the console, /docs, and their error pages) carries
`frame-ancestors 'none'` and `X-Frame-Options: DENY`."""

from __future__ import annotations

import re

import httpx
from starlette.applications import Starlette

from commerce_agent.commerce.shop import merchants
from commerce_agent.openapi import introspect
from tests.support.helpers import CERAMICS, LIMITED_MUG

CSRF_RE = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
IDS = {"store_id": CERAMICS, "item_id": LIMITED_MUG, "order_id": "ord_missing",
       "catalog_id": "cat_ceramics_mugs", "session_id": "sess_missing", "secret": "x",
       "name": "missing.js", "path": "missing"}


def assert_unframeable(response: httpx.Response, where: str) -> None:
    policy = response.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy, (where, response.headers)
    assert response.headers.get("x-frame-options") == "DENY", (where, response.headers)


async def _html_answers(app: Starlette, client: httpx.AsyncClient) -> set[str]:
    seen = set()
    for endpoint in introspect.walk(app.router.routes):
        if endpoint.method != "GET":
            continue
        path = re.sub(r"\{(\w+)\}", lambda m: IDS.get(m.group(1), "x"), endpoint.path)
        response = await client.get(path)
        if response.headers.get("content-type", "").startswith("text/html"):
            assert_unframeable(response, path)
            seen.add(endpoint.path)
    return seen


async def test_every_html_page_refuses_to_be_framed(app: Starlette,
                                                     client: httpx.AsyncClient) -> None:
    anonymous = await _html_answers(app, client)
    assert {"/docs", "/", "/account/sign-in", "/account/register",
            "/agent/v1/consent/{session_id}/{secret}"} <= anonymous, anonymous
    await merchants.create(app.state.db, "owner@example.com", [CERAMICS],
                           password="merchant-pass-123")
    page = await client.get("/account/sign-in")
    csrf = CSRF_RE.search(page.text)
    assert csrf
    signed_in = await client.post("/account/sign-in", data={
        "csrf_token": csrf.group(1), "email": "owner@example.com",
        "password": "merchant-pass-123"})
    assert signed_in.status_code in (200, 303), signed_in.text
    merchant = await _html_answers(app, client)
    assert "/console" in merchant and "/account/profile" in merchant, merchant
    assert len(anonymous | merchant) >= 12, anonymous | merchant


async def test_html_error_pages_refuse_to_be_framed(client: httpx.AsyncClient) -> None:
    for path in ("/account/sign-in", "/account/register", "/account/profile"):
        refused = await client.post(path, content=b"not a form",
                                    headers={"Content-Type": "text/plain"})
        assert refused.headers["content-type"].startswith("text/html"), path
        assert_unframeable(refused, path)
