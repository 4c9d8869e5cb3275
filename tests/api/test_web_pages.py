"""The web app in-process: the page shells, the session's API token (CSRF, revocation at
sign-out), the static files, and that the Commerce API routes beside them are unchanged."""

from __future__ import annotations

import gc
import os
import re
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from commerce_agent import workers
from commerce_agent.cli import main
from commerce_agent.web import static_files
from tests.support.pages import browser_sign_in, csrf_of, page_csrf


async def signed_in_token(client: httpx.AsyncClient) -> httpx.Response:
    await browser_sign_in(client)
    page = await client.get("/")
    return await client.post("/shop/api-token", headers={"X-CSRF-Token": page_csrf(page)})


@pytest.mark.parametrize("path", ["/", "/?q=mug", "/shop/stores/store_ceramics",
                                  "/shop/items/item_classic_mug", "/shop/cart", "/shop/orders",
                                  "/shop/orders/ord_unknown"])
async def test_every_page_is_self_contained(client: httpx.AsyncClient,
                                                    path: str) -> None:
    page = await client.get(path)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["cache-control"] == "no-store"
    # Every script and style is served here: no CDN, no inline script.
    sources = re.findall(r'(?:src|href)="([^"]+\.(?:js|css)(?:\?v=[0-9a-f]+)?)"', page.text)
    assert sources and all(source.startswith("/shop/static/") for source in sources)
    assert "<script>" not in page.text
    for source in sources:
        assert (await client.get(source)).status_code == 200
    # The chat panel is on every page, and every control has a label.
    assert 'id="chat-form"' in page.text
    for control in re.findall(r'<(?:input|select)[^>]*\bid="([^"]+)"', page.text):
        assert f'for="{control}"' in page.text or f'<label for="{control}"' in page.text


async def test_page_parameters_are_escaped(client: httpx.AsyncClient) -> None:
    page = await client.get('/shop/items/"><img src=x onerror=alert(1)>',
                            headers={"Accept": "text/html"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "<img src=x" not in page.text
    search = await client.get("/", params={"q": '"><img src=x>'})
    assert "<img src=x>" not in search.text


async def test_a_signed_in_browser_trades_its_session_for_a_short_lived_token(
        client: httpx.AsyncClient) -> None:
    answer = await signed_in_token(client)
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-store"
    assert "access-control-allow-origin" not in answer.headers
    body = answer.json()
    assert body["tokenType"] == "Bearer" and body["expiresIn"] == 900
    assert body["user"]["email"] == "alice@example.com"
    # The token works on the Commerce API, as Alice; cookies alone still do not.
    bearer = {"Authorization": f"Bearer {body['accessToken']}"}
    assert (await client.get("/orders", headers=bearer)).status_code == 200
    assert (await client.get("/user/profile", headers=bearer)).json()["_version"] == "1.0"
    assert (await client.get("/orders")).status_code == 401


async def test_the_token_needs_the_csrf_token_of_the_session(
        client: httpx.AsyncClient) -> None:
    stale = csrf_of(await client.get("/account/sign-in"))  # bound to no session yet
    await browser_sign_in(client)
    for headers in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": ""}):
        refused = await client.post("/shop/api-token", headers=headers)
        assert refused.status_code == 403
        assert refused.json()["code"] == "forbidden"
    # The browser's CSRF token from before it signed in: refused too.
    assert (await client.post("/shop/api-token",
                              headers={"X-CSRF-Token": stale})).status_code == 403


async def test_without_a_session_the_token_is_a_guest_cart_token(
        client: httpx.AsyncClient) -> None:
    refused = await client.post("/shop/api-token", headers={"X-CSRF-Token": "x"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    page = await client.get("/")
    answer = await client.post("/shop/api-token", headers={"X-CSRF-Token": page_csrf(page)})
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert body["user"] is None and body["accessToken"].startswith("cgt_")
    # the browser keeps it (HttpOnly cookie): asking again answers the same token
    again = await client.post("/shop/api-token", headers={"X-CSRF-Token": page_csrf(page)})
    assert again.json()["accessToken"] == body["accessToken"]
    # it opens the cart routes only
    bearer = {"Authorization": f"Bearer {body['accessToken']}"}
    assert (await client.get("/carts", headers=bearer)).json()["carts"] == []
    assert (await client.get("/orders", headers=bearer)).status_code == 401


async def test_signing_out_revokes_the_tokens_of_the_session(
        client: httpx.AsyncClient) -> None:
    token = (await signed_in_token(client)).json()["accessToken"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert (await client.get("/orders", headers=bearer)).status_code == 200
    page = await client.get("/account/sign-out")
    assert (await client.post("/account/sign-out",
                              data={"csrf_token": csrf_of(page)})).status_code == 303
    assert (await client.get("/orders", headers=bearer)).status_code == 401


async def test_static_files_are_only_the_shipped_ones(client: httpx.AsyncClient) -> None:
    names = set(static_files.files())
    assert {"api.js", "chat.js", "app.css", "order.js", "cart.js"} <= names
    script = await client.get("/shop/static/api.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "no-cache"
    assert script.headers["x-content-type-options"] == "nosniff"
    again = await client.get("/shop/static/api.js",
                             headers={"If-None-Match": script.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    for name in ("nope.js", "..%2Fapp.py", "__init__.py", "storefront.html"):
        assert (await client.get(f"/shop/static/{name}")).status_code == 404


async def test_the_api_routes_keep_their_answers(client: httpx.AsyncClient) -> None:
    assert (await client.get("/stores")).json()["stores"]
    assert (await client.get("/docs")).headers["content-type"].startswith("text/html")
    assert (await client.get("/account/sign-in")).status_code == 200


def test_serve_prints_the_storefront_url_first(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(workers.uvicorn, "run", lambda app, **options: None)
    threshold = gc.get_threshold()
    try:
        result = CliRunner().invoke(main, ["serve", "--db", os.path.join(tmp_path, "s.db"),
                                           "--port", "8123"])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("Storefront: http://127.0.0.1:8123/ ")


async def test_signing_in_from_a_page_comes_back_to_it(client: httpx.AsyncClient) -> None:
    page = await client.get("/", params={"q": "mug & cup"})
    link = re.search(r'href="(/account/sign-in\?next=[^"]+)"', page.text)
    assert link, page.text
    sign_in_path = link.group(1).replace("&amp;", "&")
    form = await client.get(sign_in_path)
    signed_in = await client.post("/account/sign-in", data={
        "csrf_token": csrf_of(form), "email": "alice@example.com",
        "password": "alice-demo-pass", "next": re.search(
            r'name="next" value="([^"]+)"', form.text).group(1).replace("&amp;", "&")})
    assert signed_in.status_code == 303
    assert signed_in.headers["location"] == "/?q=mug+%26+cup"
    assert 'data-signed-in="true"' in (await client.get("/")).text
