"""Every cookie the web app sets or clears, over a whole visit (a stranger's first page, a
guest's cart, the page's API token, registering, signing in, the merchant console's outcome
line, signing out): HttpOnly, SameSite=Lax, a path, Secure exactly when the server's base URL
is https, and a lifetime only where one is meant. Each cookie the app knows is seen, so a
visit that stopped setting one fails here too."""

from __future__ import annotations

from collections.abc import AsyncIterator
from http.cookies import SimpleCookie

import httpx
import msgspec
import pytest
from starlette.applications import Starlette

from commerce_agent.app import create_app
from commerce_agent.auth.web import CSRF_COOKIE, GUEST_COOKIE, SESSION_COOKIE
from commerce_agent.commerce.shop import merchants
from commerce_agent.settings import Settings
from commerce_agent.web.console.base import FLASH_COOKIE
from tests.support.console_support import csrf_of
from tests.support.pages import page_csrf

ALL_COOKIES = {CSRF_COOKIE, GUEST_COOKIE, SESSION_COOKIE, FLASH_COOKIE}


@pytest.fixture(params=["http://shop.test", "https://shop.test"])
async def visit(request: pytest.FixtureRequest, app: Starlette, settings: Settings
                ) -> AsyncIterator[tuple[httpx.AsyncClient, list[str], bool]]:
    """A browser on the app served at the parameter's base URL, and every Set-Cookie header
    it was sent."""
    base = str(request.param)
    served = create_app(msgspec.structs.replace(settings, base_url=base))
    headers: list[str] = []

    async def record(response: httpx.Response) -> None:
        headers.extend(response.headers.get_list("set-cookie"))

    async with served.router.lifespan_context(served):
        await merchants.create(served.state.db, "owner@cookies.example", ["store_ceramics"],
                               password="merchant-pass-123")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=served), base_url=base,
                                     event_hooks={"response": [record]}) as browser:
            yield browser, headers, base.startswith("https://")


async def _whole_visit(browser: httpx.AsyncClient) -> None:
    store = await browser.get("/shop/stores/store_ceramics")
    assert store.status_code == 200
    added = await browser.post("/shop/cart", data={
        "csrf_token": csrf_of(store), "action": "add", "store_id": "store_ceramics",
        "item_id": "item_limited_glaze_mug", "quantity": "1"})
    assert added.status_code == 303, added.text
    cart = await browser.get("/shop/cart")
    token = await browser.post("/shop/api-token", headers={"X-CSRF-Token": page_csrf(cart)})
    assert token.status_code == 200, token.text
    register = await browser.get("/account/register")
    registered = await browser.post("/account/register", data={
        "csrf_token": csrf_of(register), "name": "Cookie Tester",
        "email": "cookies@example.com", "password": "a long passphrase"})
    assert registered.status_code == 303, registered.text
    profile = await browser.get("/account/profile")
    signed_out = await browser.post("/account/sign-out", data={"csrf_token": csrf_of(profile)})
    assert signed_out.status_code == 303
    sign_in = await browser.get("/account/sign-in")
    signed_in = await browser.post("/account/sign-in", data={
        "csrf_token": csrf_of(sign_in), "email": "owner@cookies.example",
        "password": "merchant-pass-123"})
    assert signed_in.status_code == 303, signed_in.text
    console = await browser.get("/console/catalog")
    done = await browser.post("/console/items/item_limited_glaze_mug/archive",
                              data={"csrf_token": csrf_of(console)})
    assert done.status_code == 303, done.text
    assert (await browser.get(done.headers["location"])).status_code == 200


async def test_every_cookie_of_a_visit_is_http_only_same_site_and_secure_over_https(
        visit: tuple[httpx.AsyncClient, list[str], bool]) -> None:
    browser, headers, https = visit
    await _whole_visit(browser)
    seen: dict[str, list[str]] = {}
    for header in headers:
        parsed = SimpleCookie()
        parsed.load(header)
        [(name, morsel)] = parsed.items()
        seen.setdefault(name, []).append(morsel.value)
        assert morsel["httponly"] is True, header
        assert morsel["samesite"].lower() == "lax", header
        assert morsel["path"].startswith("/"), header
        assert bool(morsel["secure"]) is https, header
        assert not morsel["domain"], header  # this host only
        if name == FLASH_COOKIE:  # the outcome of one form, shown once
            assert morsel["path"] == "/console", header
            assert not morsel["max-age"] if morsel.value else morsel["max-age"] == "0", header
    assert set(seen) == ALL_COOKIES, seen
    # The session was cleared at sign-out (an empty value that expires at once), and the
    # sign-in set a new one.
    assert "" in seen[SESSION_COOKIE] and any(seen[SESSION_COOKIE])


async def test_a_stranger_gets_only_the_csrf_cookie_and_only_once(
        visit: tuple[httpx.AsyncClient, list[str], bool]) -> None:
    browser, headers, _ = visit
    for path in ("/", "/shop/stores/store_ceramics", "/account/sign-in", "/shop/cart"):
        assert (await browser.get(path)).status_code == 200
    names = [header.split("=", 1)[0] for header in headers]
    assert names == [CSRF_COOKIE]
