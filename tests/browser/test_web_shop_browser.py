"""The shop in a real browser (Debian's chromium via Playwright) at 1280 px and 390 px: a cart
an agent built over MCP is on the cart page; product images load; the price follows the
variant and add-ons; a guest's cart survives signing in; pages browse with JavaScript off; no
page scrolls sideways on a phone, where the chat is a drawer."""

from __future__ import annotations

import asyncio
import re
import threading
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
    live = start_live_server(str(tmp_path_factory.mktemp("shop") / "shop.db"),
                             ["--no-simulate"])
    try:
        yield live
    finally:
        live.stop()


def agent_builds_a_cart(server: LiveServer, email: str) -> str:
    """An agent (an MCP client with the user's token) makes a cart: create_cart, add_to_cart."""
    from tests.support.mcp_support import call, mcp_client

    async def build() -> str:
        async with mcp_client(server.url, fresh_token(server, email)) as client:
            cart = await call(client, "create_cart", {"storeId": "store_midori"})
            await call(client, "add_to_cart", {"cartId": cart["cartId"],
                                               "itemId": "item_chasen_whisk", "quantity": 2})
            listed = await call(client, "list_carts", {})
            assert cart["cartId"] in [c["cartId"] for c in listed["carts"]]
            return str(cart["cartId"])

    found: list[str] = []
    worker = threading.Thread(target=lambda: found.append(asyncio.run(build())))
    worker.start()
    worker.join(60)
    assert found, "the MCP client did not finish"
    return found[0]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_agent_built_cart_is_on_the_cart_page(chromium: Any, server: LiveServer,
                                                 viewport: str) -> None:
    email = "bob@example.com" if viewport == "desktop" else "carol@example.com"
    cart_id = agent_builds_a_cart(server, email)
    page = new_page(chromium, server, viewport)
    sign_in(page, email, "/shop/cart")
    section = page.locator(f'section[data-cart-id="{cart_id}"]')
    section.wait_for()
    assert "Midori" in section.locator("h2").inner_text()  # the store's name, not its id
    assert "Chasen" in section.inner_text()
    page.locator("#carts[data-ready=true]").wait_for()  # enhanced by the script
    assert page.locator("#cart-count").inner_text().strip() != "0"
    no_sideways_scroll(page)
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_images_load_and_the_price_follows_the_choice(chromium: Any, server: LiveServer,
                                                      viewport: str) -> None:
    page = new_page(chromium, server, viewport)
    page.goto("/shop/stores/store_ceramics")
    first = page.locator(".card.product img").first
    first.wait_for()
    page.wait_for_function("() => { const i = document.querySelector('.card.product img'); "
                           "return i.complete && i.naturalWidth > 0; }")
    assert first.get_attribute("alt")
    no_sideways_scroll(page)
    page.goto("/shop/items/item_classic_mug")
    photo = page.locator("img.main-photo")
    page.wait_for_function("() => document.querySelector('img.main-photo').naturalWidth > 0")
    price = page.locator("#item-price")
    assert price.inner_text() == "$24.00"
    page.get_by_label(re.compile(r"Cobalt Blue / 16 oz")).check()
    assert price.inner_text() == "$27.00"
    page.get_by_label(re.compile(r"Gift Box")).check()
    assert price.inner_text() == "$31.00"
    page.get_by_label("Quantity").fill("2")
    assert price.inner_text().startswith("$62.00")
    # the variant's own picture; a sold-out variant cannot be chosen
    page.get_by_label(re.compile(r"Speckled Oat")).check()
    assert photo.get_attribute("src").endswith("item_classic_mug-speckled-oat.svg")
    assert page.get_by_label(re.compile(r"Satin White")).is_disabled()
    no_sideways_scroll(page)
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_guest_cart_survives_signing_in(chromium: Any, server: LiveServer,
                                          viewport: str) -> None:
    page = new_page(chromium, server, viewport)
    page.goto("/shop/items/item_pour_over_dripper")
    page.get_by_role("button", name="Add to cart").click()
    page.locator("#add-message a").wait_for()
    page.goto("/shop/cart")
    assert "Pour-Over Dripper" in page.locator("#carts").inner_text()
    page.get_by_role("link", name="Sign in to check out").first.wait_for()
    email = "alice@example.com" if viewport == "desktop" else "bob@example.com"
    sign_in(page, email, "/shop/cart")
    page.locator("#carts[data-ready=true]").wait_for()
    assert "Pour-Over Dripper" in page.locator("#carts").inner_text()
    carts = httpx.get(f"{server.url}/carts",
                      headers={"Authorization": f"Bearer {fresh_token(server, email)}"}).json()
    assert any(line["itemId"] == "item_pour_over_dripper"
               for cart in carts["carts"] for line in cart["items"])
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_pages_browse_without_javascript(chromium: Any, server: LiveServer,
                                         viewport: str) -> None:
    page = new_page(chromium, server, viewport, java_script_enabled=False)
    page.goto("/")
    page.get_by_role("link", name="Hearth & Kiln Ceramics").click()
    page.wait_for_url(re.compile("/shop/stores/store_ceramics$"))
    assert page.locator(".card.product").count() == 11
    page.get_by_role("link", name="Classic Stoneware Mug").click()
    assert page.locator("h1").inner_text() == "Classic Stoneware Mug"
    assert page.locator("#item-price").inner_text() == "$24.00"
    page.goto("/?q=matcha")
    assert page.locator("#result-list .card").count() >= 1
    missing = page.goto("/shop/items/item_nope")
    assert missing.status == 404 and page.locator("h1").inner_text() == "Not found"
    no_sideways_scroll(page)
    page.context.close()


def test_the_chat_is_a_drawer_on_phones(chromium: Any, server: LiveServer) -> None:
    page = new_page(chromium, server, "phone")
    page.goto("/shop/stores/store_trattoria")
    chat = page.locator("#chat")
    assert not chat.is_visible()
    page.get_by_role("link", name="Assistant").click()
    page.wait_for_function("() => getComputedStyle(document.getElementById('chat'))"
                           ".visibility === 'visible'")
    assert page.locator("#chat-greeting").is_visible()
    assert page.locator("#chat-greeting button").count() == 3
    page.locator("#chat-greeting button").first.click()
    assert page.locator("#chat-input").input_value().startswith("find a ceramic mug")
    page.get_by_role("link", name="Close").click()
    page.wait_for_function("() => getComputedStyle(document.getElementById('chat'))"
                           ".visibility === 'hidden'")
    page.context.close()
    desktop = new_page(chromium, server, "desktop")
    desktop.goto("/")
    assert desktop.locator("#chat").is_visible()
    assert not desktop.get_by_role("link", name="Assistant").is_visible()
    desktop.context.close()
