"""The web app in a real browser (Debian's chromium driven by Playwright) against a live
server: buying with the test card, a declined card, live order updates from another process,
and the agent chat from "find a mug" to a placed order, resumed after a reload."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support import browser
from tests.support.browser import (
    TIMEOUT,
    add_classic_mug,
    api_token,
    check_out,
    chromium,  # noqa: F401 - the module's browser, launched against `server` below
    signed_in_page,
)
from tests.support.live import LiveServer, cli, start_live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    browser.require_browser()
    db = str(tmp_path_factory.mktemp("web") / "web.db")
    # The agent writes its replies a fragment at a time, so a reload can land mid-reply.
    live = start_live_server(db, ["--no-simulate", "--agent-pace", "0.05"])
    try:
        yield live
    finally:
        live.stop()


def other_name(server: LiveServer) -> str:
    """The server under another name than its --base-url: links the server writes must
    still work from pages opened there."""
    return server.url.replace("127.0.0.1", "localhost")


def orders_of(server: LiveServer, email: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{server.url}/orders",
                       headers={"Authorization": f"Bearer {api_token(server, email)}"})
    assert answer.status_code == 200
    orders: list[dict[str, Any]] = answer.json()["orders"]
    return orders


def test_a_shopper_buys_a_variant_item_with_the_test_card(chromium: Any,  # noqa: F811
                                                            server: LiveServer) -> None:
    page = signed_in_page(chromium, server, "alice@example.com")
    page.get_by_role("link", name="Hearth & Kiln Ceramics").wait_for()
    browser.screenshot(page, "storefront")
    page.get_by_role("link", name="Hearth & Kiln Ceramics").click()
    page.get_by_role("heading", name="Drinkware").wait_for()
    browser.screenshot(page, "store")
    page.get_by_role("link", name="Classic Stoneware Mug").click()
    page.get_by_role("heading", name="Classic Stoneware Mug").wait_for()
    add_classic_mug(page)
    browser.screenshot(page, "product")
    page.goto("/shop/cart")
    page.get_by_text("Total $70.50").wait_for()  # 62.00 of goods and Standard shipping 8.50
    browser.screenshot(page, "cart")
    check_out(page, "4242424242424242")
    page.wait_for_url(re.compile(r"/shop/orders/ord_"))
    page.locator("#order-status", has_text="confirmed").wait_for()
    assert page.errors == []

    [order] = orders_of(server, "alice@example.com")
    assert page.url.endswith(f"/shop/orders/{order['id']}")
    assert order["status"] == "confirmed" and order["total"]["amount"] == "70.50"
    [line] = order["items"]
    assert (line["itemId"], line["variantId"], line["addOnIds"], line["quantity"]) == \
        ("item_classic_mug", "var_mug_blue_16oz", ["addon_ceramics_gift_box"], 2)


def test_the_order_page_follows_the_order_live(chromium: Any, server: LiveServer) -> None:  # noqa: F811
    page = signed_in_page(chromium, server, "alice@example.com", "/shop/orders")
    [order] = orders_of(server, "alice@example.com")
    link = page.locator(f'#order-list a[href="/shop/orders/{order["id"]}"]')
    link.wait_for()  # named by the store: "Hearth & Kiln Ceramics"
    browser.screenshot(page, "orders")
    link.click()
    page.locator("#order-status", has_text="confirmed").wait_for()
    page.get_by_role("button", name="Cancel the order").wait_for()
    page.evaluate("window.sameDocument = true")

    cli("orders", "advance", order["id"], "--db", server.db_path, "--base-url", server.url)
    page.locator("#order-status", has_text="processing").wait_for()
    cli("orders", "advance", order["id"], "--db", server.db_path, "--base-url", server.url)
    page.locator("#order-status", has_text="in transit").wait_for()
    page.locator("#tracking-body", has_text="USPS").wait_for()
    browser.screenshot(page, "order-live")
    cli("orders", "advance", order["id"], "--db", server.db_path, "--base-url", server.url)
    page.locator("#order-status", has_text="completed").wait_for()
    page.get_by_text("no more updates").wait_for()
    # The actions come from the order's actions[]: a completed order is rated, not cancelled.
    page.get_by_role("button", name="Rate this order").wait_for()
    assert page.get_by_role("button", name="Cancel the order").count() == 0
    assert page.evaluate("window.sameDocument") is True  # no reload happened
    assert [step.split()[0] for step in page.locator("#timeline li").all_inner_texts()] == \
        ["confirmed", "processing", "in", "completed"]

    page.get_by_role("button", name="Rate this order").click()
    page.get_by_label("Stars (1 to 5)").select_option("4")
    page.get_by_role("button", name="Confirm: Rate this order").click()
    page.get_by_text("Done: rate this order.").wait_for()
    browser.screenshot(page, "order-completed")
    rated = httpx.get(f"{server.url}/orders/{order['id']}",
                      headers={"Authorization": f"Bearer {api_token(server)}"}).json()
    assert rated["metadata"]["dev.commerce.order.ratings"]["overall"] == 4
    assert page.errors == []


def test_a_declined_card_shows_the_decline_and_places_nothing(chromium: Any,  # noqa: F811
                                                               server: LiveServer) -> None:
    page = signed_in_page(chromium, server, "bob@example.com", origin=other_name(server))
    add_classic_mug(page)
    check_out(page, "4000000000000002")
    alert = page.get_by_role("alert").filter(has_text="declined")
    alert.wait_for()
    assert "Payment failed" in alert.inner_text()
    browser.screenshot(page, "checkout-declined")
    assert orders_of(server, "bob@example.com") == []
    # The same cart then goes through with the good card.
    page.get_by_label("Card number").fill("4242424242424242")
    page.get_by_role("button", name="Pay").click()
    page.wait_for_url(re.compile(r"/shop/orders/ord_"))
    assert len(orders_of(server, "bob@example.com")) == 1
    # Bob changes his mind: the order's cancel action, and the page follows it live.
    page.get_by_role("button", name="Cancel the order").click()
    page.get_by_label("Reason (optional)").fill("ordered twice")
    page.get_by_role("button", name="Confirm: Cancel the order").click()
    page.locator("#order-status", has_text="cancelled").wait_for()
    page.get_by_text("no more updates").wait_for()
    [order] = orders_of(server, "bob@example.com")
    assert order["status"] == "cancelled"
    assert page.errors == []


def chat(page: Any, message: str) -> None:
    page.get_by_label("Message the assistant").fill(message)
    page.get_by_role("button", name="Send").click()


def replies(page: Any) -> list[str]:
    texts: list[str] = page.locator("#chat-log .msg.assistant .text").all_inner_texts()
    return texts


def wait_idle(page: Any, count: int) -> None:
    """Until the panel shows `count` assistant replies and the session waits for the user."""
    page.wait_for_function(
        "n => document.querySelectorAll('#chat-log .msg.assistant').length >= n && "
        "document.getElementById('chat').dataset.idle === 'true'", arg=count)


def test_the_agent_chat_buys_a_mug_with_consent_and_approval(chromium: Any,  # noqa: F811
                                                             server: LiveServer) -> None:
    page = signed_in_page(chromium, server, "carol@example.com", origin=other_name(server))
    chat(page, "find a ceramic mug under $20")
    page.locator("#chat-log [data-tool=search_products]").wait_for()
    wait_idle(page, 1)
    assert "Limited Edition Glaze Mug" in replies(page)[-1]

    chat(page, "add two to my cart")
    consent_link = page.get_by_role("link", name="Open the consent page")
    with page.context.expect_page() as opened:
        consent_link.click()
    consent = opened.value
    consent.wait_for_load_state()
    browser.screenshot(consent, "agent-consent")
    consent.get_by_role("button", name=re.compile("Approve|Allow", re.I)).click()
    consent.get_by_text("carol@example.com").wait_for()
    consent.close()
    page.get_by_text("Account connected.").wait_for()
    page.locator("#chat-log [data-tool=add_to_cart].done").wait_for()
    wait_idle(page, 2)

    chat(page, "check out")
    wait_idle(page, 3)
    chat(page, "1 Main St, Springfield, US")
    approve = page.locator("#chat-log .approval").get_by_role("button", name="Approve")
    approve.wait_for()
    browser.screenshot(page, "agent-approval")
    assert orders_of(server, "carol@example.com") == []
    approve.click()
    page.locator("#chat-log [data-tool=place_order].done").wait_for()
    wait_idle(page, 4)
    browser.screenshot(page, "agent-chat")

    [order] = orders_of(server, "carol@example.com")
    assert order["status"] == "confirmed"
    assert [(line["itemId"], line["quantity"]) for line in order["items"]] == \
        [("item_limited_glaze_mug", 2)]
    assert order["id"] in replies(page)[-1]
    page.get_by_role("link", name=order["id"]).click()  # the reply links to the order page
    page.locator("#order-status", has_text="confirmed").wait_for()
    assert page.errors == []

    # Signed out, the tab no longer holds the session that acts for Carol.
    page.goto("/account/sign-out")
    page.get_by_role("button", name="Sign out").click()
    page.goto("/")
    page.get_by_role("link", name="Sign in").wait_for()
    assert page.locator("#chat-log li").count() == 0
    assert page.evaluate("sessionStorage.getItem('commerce.chat')") is None


def test_a_reload_mid_reply_resumes_the_chat_without_duplicated_text(
        chromium: Any, server: LiveServer) -> None:  # noqa: F811
    context = chromium.new_context(base_url=server.url)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.goto("/")
    chat(page, "find a ceramic mug under $20")
    # Some of the reply is on the page, but not all of it: reload now.
    page.wait_for_function("() => document.querySelector('#chat-log .msg.assistant .text') "
                           "&& document.getElementById('chat').dataset.idle === 'false'")
    state = json.loads(page.evaluate("sessionStorage.getItem('commerce.chat')"))
    page.reload()
    wait_idle(page, 1)

    journal = httpx.get(f"{server.url}/agent/v1/session/{state['sessionId']}/stream",
                        params={"startIndex": "0"})
    events = [json.loads(line) for line in journal.text.splitlines() if line.strip()]
    written = "".join(e["data"]["text"] for e in events if e["type"] == "agent.content.delta")
    assert len([e for e in events if e["type"] == "agent.content.delta"]) > 1
    assert replies(page) == [written]
    assert page.locator("#chat-log .msg.user").all_inner_texts() == \
        ["You: find a ceramic mug under $20"]
    context.close()


def test_the_pages_work_at_375_px_and_from_the_keyboard(chromium: Any,  # noqa: F811
                                                        server: LiveServer) -> None:
    context = chromium.new_context(base_url=server.url, viewport={"width": 375, "height": 800})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    for path, ready in (("/", "Hearth & Kiln Ceramics"),
                        ("/shop/items/item_vinyasa_drop_in", "Choose a time"),
                        ("/shop/items/item_pizza_margherita", "Choose your size")):
        page.goto(path)
        page.get_by_text(ready).first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
    browser.screenshot(page, "product-375px")
    # Keyboard: the first Tab reaches the skip link, which moves focus to the content.
    page.goto("/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    # The search box is labelled and submits with Enter.
    page.get_by_label("Search every store").fill("matcha")
    page.keyboard.press("Enter")
    page.get_by_role("link", name=re.compile("Matcha", re.I)).first.wait_for()
    context.close()


def test_a_dropped_stream_resumes_from_the_last_index(chromium: Any, server: LiveServer,  # noqa: F811
                                                      request: pytest.FixtureRequest) -> None:
    """The server restarts in the middle of a reply: the panel's stream drops, reconnects
    from the index it had reached, and the reply (resumed by the restarted server) appears
    once; an open order page reconnects too, and sees what happened after. Runs last: it
    restarts the module's server."""
    [order] = orders_of(server, "carol@example.com")  # placed by the agent, still confirmed
    watcher = signed_in_page(chromium, server, "carol@example.com", "/shop/orders")
    watcher.goto(f"/shop/orders/{order['id']}")
    watcher.locator("#order-status", has_text="confirmed").wait_for()
    context = chromium.new_context(base_url=server.url)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto("/")
    chat(page, "find a ceramic mug under $20")
    page.wait_for_function("() => document.querySelector('#chat-log .msg.assistant .text') "
                           "&& document.getElementById('chat').dataset.idle === 'false'")
    restarted = server.restart()
    request.addfinalizer(restarted.stop)
    wait_idle(page, 1)

    session_id = page.evaluate("JSON.parse(sessionStorage.getItem('commerce.chat')).sessionId")
    journal = httpx.get(f"{restarted.url}/agent/v1/session/{session_id}/stream",
                        params={"startIndex": "0"})
    events = [json.loads(line) for line in journal.text.splitlines() if line.strip()]
    written = "".join(e["data"]["text"] for e in events if e["type"] == "agent.content.delta")
    assert "Limited Edition Glaze Mug" in written
    assert replies(page) == [written]
    assert page.locator("#chat-log [data-tool=search_products]").count() == 1
    context.close()

    cli("orders", "advance", order["id"], "--db", restarted.db_path, "--base-url",
        restarted.url)
    watcher.locator("#order-status", has_text="processing").wait_for(timeout=30_000)
    assert watcher.errors == []
    watcher.context.close()
