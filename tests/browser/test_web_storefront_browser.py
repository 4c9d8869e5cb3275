"""The storefront's last pieces in a real browser (Debian's chromium via Playwright) at 1280 px
and 390 px: the cart page works without JavaScript (quantities and removal are forms, the
page comes back after each post) and with it (the same forms, sent through the API); a failed
request shows an alert instead of failing silently; the account and consent pages wear the
shop's header and footer with a way back to the shop; the order page renders with JavaScript
off."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support import browser
from tests.support.browser import (
    VIEWPORTS,
    fresh_token,
    new_page,
    no_sideways_scroll,
    sign_in,
)
from tests.support.live import LiveServer, start_live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    browser.require_browser()
    live = start_live_server(str(tmp_path_factory.mktemp("storefront") / "shop.db"),
                             ["--no-simulate"])
    try:
        yield live
    finally:
        live.stop()


def shop_chrome(page: Any) -> None:
    """The shop's header (brand and main navigation), footer, and a way back to the shop."""
    assert page.locator("header.top a.brand").get_attribute("href") == "/"
    assert page.get_by_role("navigation", name="Main").get_by_role("link", name="Stores") \
        .is_visible()
    assert page.locator("footer.bottom").is_visible()
    assert page.get_by_role("link", name="Back to the shop").is_visible()
    assert page.evaluate("() => getComputedStyle(document.body).fontFamily").startswith(
        "system-ui")  # the shop's stylesheet


def lines_of(server: LiveServer, email: str) -> list[dict[str, Any]]:
    carts = httpx.get(f"{server.url}/carts",
                      headers={"Authorization": f"Bearer {fresh_token(server, email)}"}).json()
    return [line for cart in carts["carts"] for line in cart["items"]]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_cart_works_without_javascript(chromium: Any, server: LiveServer,
                                           viewport: str) -> None:
    """A guest adds from the product page, changes the quantity and removes the line, all
    by forms; then signs in and the cart comes along."""
    page = new_page(chromium, server, viewport, java_script_enabled=False)
    page.goto("/shop/items/item_pour_over_dripper")
    browser.screenshot(page, f"product-{VIEWPORTS[viewport]['width']}px")
    page.get_by_label("Quantity").fill("2")
    page.get_by_role("button", name="Add to cart").click()
    page.wait_for_url(re.compile(r"/shop/cart\?done=add$"))
    assert page.get_by_role("status").filter(has_text="Added to your cart.").is_visible()
    line = page.locator("#carts li.line").filter(has_text="Pour-Over Dripper")
    assert line.get_by_label("Quantity").input_value() == "2"
    line.get_by_label("Quantity").fill("3")
    line.get_by_role("button", name="Update").click()
    page.wait_for_url(re.compile(r"/shop/cart\?done=update$"))
    assert page.locator("#carts li.line").get_by_label("Quantity").input_value() == "3"
    # a refused change (more than the stock): the page again, the reason as an alert,
    # nothing changed
    page.locator("#carts li.line").get_by_label("Quantity").fill("99")
    page.locator("#carts li.line").get_by_role("button", name="Update").click()
    assert "left in stock" in page.get_by_role("alert").inner_text()
    assert page.locator("#carts li.line").get_by_label("Quantity").input_value() == "3"
    no_sideways_scroll(page)
    page.get_by_role("button", name=re.compile("Remove .*Pour-Over Dripper")).click()
    page.wait_for_url(re.compile(r"/shop/cart\?done=remove$"))
    assert "Your cart is empty." in page.locator("#carts").inner_text()
    # add again, then sign in: the guest's cart is the user's
    page.goto("/shop/items/item_pour_over_dripper")
    page.get_by_role("button", name="Add to cart").click()
    page.wait_for_url(re.compile(r"/shop/cart\?done=add$"))
    email = "alice@example.com" if viewport == "desktop" else "carol@example.com"
    sign_in(page, email, "/shop/cart")
    assert "Pour-Over Dripper" in page.locator("#carts").inner_text()
    assert any(line["itemId"] == "item_pour_over_dripper" for line in lines_of(server, email))
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_cart_forms_go_through_the_api_with_javascript(chromium: Any, server: LiveServer,
                                                           viewport: str) -> None:
    page = new_page(chromium, server, viewport)
    posted: list[str] = []
    page.on("request", lambda request: posted.append(f"{request.method} {request.url}")
            if request.method != "GET" else None)
    page.goto("/shop/items/item_pour_over_dripper")
    page.get_by_role("button", name="Add to cart").click()
    page.locator("#add-message a").wait_for()
    page.goto("/shop/cart")
    page.locator("#carts[data-ready=true]").wait_for()
    browser.screenshot(page, f"cart-{VIEWPORTS[viewport]['width']}px")
    line = page.locator("#carts li.line").filter(has_text="Pour-Over Dripper")
    line.get_by_label("Quantity").fill("2")
    line.get_by_role("button", name="Update").click()
    page.wait_for_function("() => document.querySelector('#carts li.line input[name=quantity]')"
                           ".value === '2' && document.getElementById('cart-count')"
                           ".textContent.trim() === '2'")
    assert page.url.endswith("/shop/cart")  # the same page, redrawn: no navigation
    assert any(entry.startswith("PATCH ") and "/carts/" in entry for entry in posted)
    assert not any(entry.startswith("POST ") and entry.endswith("/shop/cart")
                   for entry in posted)
    page.get_by_role("button", name=re.compile("Remove .*Pour-Over Dripper")).click()
    page.get_by_text("Your cart is empty.").wait_for()
    no_sideways_scroll(page)
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_failed_request_shows_an_alert(chromium: Any, server: LiveServer,
                                         viewport: str) -> None:
    """The API refuses (a bad promotion code), then the network fails (the add-to-cart
    request is cut): each time a visible alert says so."""
    page = new_page(chromium, server, viewport)
    page.goto("/shop/items/item_pour_over_dripper")
    page.get_by_role("button", name="Add to cart").click()
    page.locator("#add-message a").wait_for()
    page.goto("/shop/cart")
    page.locator("#carts[data-ready=true]").wait_for()
    page.get_by_label("Promotion code").first.fill("NOSUCHCODE")
    page.get_by_role("button", name="Apply").first.click()
    alert = page.get_by_role("alert").filter(has_text="NOSUCHCODE")
    alert.wait_for()
    assert alert.is_visible() and "cannot be applied" in alert.inner_text()
    browser.screenshot(page, f"alert-{VIEWPORTS[viewport]['width']}px")
    no_sideways_scroll(page)
    alert.get_by_role("button", name="Dismiss").click()
    assert page.get_by_role("alert").count() == 0

    page.goto("/shop/items/item_pour_over_dripper")
    page.route(re.compile(r".*/carts(\?.*)?$"), lambda route: route.abort())
    page.get_by_role("button", name="Add to cart").click()
    cut = page.get_by_role("alert").filter(has_text="could not be loaded")
    cut.wait_for()
    assert "Could not reach the server" in cut.inner_text()
    assert page.locator("#add-message").inner_text() == ""
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_account_pages_wear_the_shops_look(chromium: Any, server: LiveServer,
                                           viewport: str) -> None:
    page = new_page(chromium, server, viewport)
    page.goto("/account/sign-in")
    shop_chrome(page)
    no_sideways_scroll(page)
    page.get_by_role("link", name="Create one").click()
    page.get_by_role("heading", name="Create an account").wait_for()
    shop_chrome(page)
    no_sideways_scroll(page)
    browser.screenshot(page, f"register-{VIEWPORTS[viewport]['width']}px")
    page.get_by_role("link", name="Back to the shop").click()
    page.wait_for_url(re.compile(r"/$"))
    page.get_by_role("link", name="Hearth & Kiln Ceramics").wait_for()
    email = "bob@example.com" if viewport == "desktop" else "carol@example.com"
    sign_in(page, email, "/account/profile")
    shop_chrome(page)
    # signed in: the header names the user, as on the shop's pages
    assert page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign out") \
        .is_visible()
    assert page.errors == []
    page.context.close()


def until(server: LiveServer, session: dict[str, Any], start: int, kind: str
          ) -> tuple[dict[str, Any], int]:
    """Follow the agent session's stream from `start` to its first event of `kind`."""
    with httpx.stream("GET", f"{server.url}/agent/v1/session/{session['sessionId']}/stream",
                      params={"startIndex": start, "follow": "true"}, timeout=60,
                      headers={"Authorization": f"Bearer {session['continuationToken']}"}
                      ) as stream:
        for line in stream.iter_lines():
            event = json.loads(line) if line.strip() else {}
            if event.get("type") == kind:
                return event, int(event["streamIndex"]) + 1
    raise AssertionError(f"the stream ended before {kind}")


def test_the_consent_page_wears_the_shops_look(chromium: Any, server: LiveServer) -> None:
    """The agent's consent page (authUrl of authorization.required) at both widths."""
    answer = httpx.post(f"{server.url}/agent/v1/session", timeout=30,
                        json={"message": "find a ceramic mug under $20"})
    assert answer.status_code in (200, 201, 202), answer.text
    session = answer.json()
    _, index = until(server, session, 0, "session.waiting")
    sent = httpx.post(f"{server.url}/agent/v1/session/{session['sessionId']}", timeout=30,
                      json={"message": "add two to my cart",
                            "continuationToken": session["continuationToken"]})
    assert sent.status_code in (200, 201, 202), sent.text
    parked, _ = until(server, session, index, "authorization.required")
    auth_url = parked["data"]["authUrl"]
    for viewport in VIEWPORTS:
        page = new_page(chromium, server, viewport)
        page.goto(auth_url)
        page.get_by_role("heading", name="Connect your account").wait_for()
        shop_chrome(page)
        assert page.get_by_role("button", name="Decline").is_visible()
        assert page.locator("script").count() == 0
        no_sideways_scroll(page)
        browser.screenshot(page, f"consent-{VIEWPORTS[viewport]['width']}px")
        page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_order_page_renders_with_javascript_off(chromium: Any, server: LiveServer,
                                                    viewport: str) -> None:
    email = "alice@example.com" if viewport == "desktop" else "bob@example.com"
    token = fresh_token(server, email)
    bearer = {"Authorization": f"Bearer {token}"}
    cart = httpx.post(f"{server.url}/carts", json={"storeId": "store_ceramics"},
                      headers=bearer).json()
    httpx.post(f"{server.url}/carts/{cart['id']}/items", headers=bearer,
               json={"itemId": "item_pour_over_dripper", "quantity": 1})
    body = {"cartId": cart["id"], "deliveryAddress": {"address": "1 Main St, Springfield",
                                                      "countryCode": "US"}}
    first = httpx.post(f"{server.url}/orders", json=body, headers=bearer)
    if first.status_code == 402:
        entry = next(a for a in first.json()["accepts"] if a["scheme"] == "fiat_intent")
        paid = httpx.post(entry["extra"]["confirmUrl"], json={
            "clientSecret": entry["extra"]["clientSecret"], "card": "4242424242424242"})
        proof = {"x402Version": 1, "scheme": "fiat_intent", "network": "sandbox",
                 "payload": {"paymentIntentId": paid.json()["paymentIntentId"]}}
        first = httpx.post(f"{server.url}/orders", json=body, headers={
            **bearer, "X-PAYMENT": base64.b64encode(json.dumps(proof).encode()).decode()})
    assert first.status_code == 201, first.text
    order = first.json()
    page = new_page(chromium, server, viewport, java_script_enabled=False)
    sign_in(page, email, f"/shop/orders/{order['id']}")
    assert "Hearth & Kiln Ceramics" in page.locator("h1").inner_text()
    assert page.locator("#order-status").inner_text() == "confirmed"
    assert "Pour-Over Dripper" in page.locator("#order-items").inner_text()
    assert page.locator("#live-state").inner_text() == ""  # no "Connecting…" that never ends
    # the order's actions are there (they work once the script runs)
    assert page.get_by_role("button", name="Cancel the order").count() == 1
    no_sideways_scroll(page)
    browser.screenshot(page, f"order-{VIEWPORTS[viewport]['width']}px")
    page.context.close()
