"""The merchant console in a real browser (Debian's chromium driven by Playwright) against a
live server, beside a customer's browser: the board (rendered on the server, refreshed by its
script) shows a new order by itself; shipping it with a tracking number by form shows on the
customer's open order page without a reload; stock and price edits, a webhook subscription
with its delivery log, a catalog import dry run, and a return decided through the console.
Launch, sign-in and checkout come from tests/browser/test_web_browser.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import browser
from tests.support.browser import (
    PASSWORDS,
    add_classic_mug,
    api_token,
    check_out,
    signed_in_page,
)
from tests.support.live import LiveServer, cli, start_live_server

MERCHANT = "owner@hearth.example"
TRACKING_NUMBER = "1Z999AA10123456784"
CSV = Path(__file__).parents[1] / "data" / "shopify_products.csv"
# signed_in_page and api_token read passwords from this table.
PASSWORDS.setdefault(MERCHANT, "merchant-pass-123")
_shared: dict[str, Any] = {}  # the order placed by the first test, used by the returns test


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    browser.require_browser()
    db = str(tmp_path_factory.mktemp("console") / "console.db")
    live = start_live_server(db, ["--no-simulate"])
    try:
        cli("merchant", "create", "--email", MERCHANT, "--store", "store_ceramics",
            "--password", PASSWORDS[MERCHANT], "--db", db)
        yield live
    finally:
        live.stop()


def read(server: LiveServer, path: str, email: str) -> dict[str, Any]:
    answer = httpx.get(server.url + path,
                       headers={"Authorization": f"Bearer {api_token(server, email)}"})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_shipped_order_shows_its_tracking_number_on_the_customers_open_page(
        chromium: Any, server: LiveServer) -> None:
    console = signed_in_page(chromium, server, MERCHANT, "/console")
    console.get_by_text("No orders here yet.").wait_for()
    console.evaluate("window.sameDocument = true")
    customer = signed_in_page(chromium, server, "alice@example.com")
    add_classic_mug(customer)
    check_out(customer, "4242424242424242")
    customer.wait_for_url(re.compile(r"/shop/orders/ord_"))
    customer.locator("#order-status", has_text="confirmed").wait_for()
    order_id = customer.url.rsplit("/", 1)[-1]
    customer.evaluate("window.sameDocument = true")

    # The new order appears on the open board by itself.
    card = console.locator(f'[data-order-id="{order_id}"]')
    card.wait_for()
    assert console.evaluate("window.sameDocument") is True
    browser.screenshot(console, "console-orders")
    card.get_by_text("Ship with a tracking number…").click()
    card.get_by_label("Carrier", exact=True).fill("UPS")
    card.get_by_label("Tracking number", exact=True).fill(TRACKING_NUMBER)
    card.get_by_role("button", name="Ship with this tracking number").click()
    console.locator(f'[data-order-id="{order_id}"][data-status="in_transit"]').wait_for()
    # The form posts and the page comes back at the order just shipped.
    assert console.evaluate("location.hash") == f"#order-{order_id}"

    customer.locator("#tracking-body", has_text=TRACKING_NUMBER).wait_for()
    customer.locator("#order-status", has_text="in transit").wait_for()
    assert customer.evaluate("window.sameDocument") is True  # no reload happened
    browser.screenshot(customer, "console-shipped-customer-view")
    [shipment] = read(server, f"/orders/{order_id}", "alice@example.com")["metadata"][
        "dev.commerce.order.shipment_tracking"]
    assert (shipment["carrier"], shipment["trackingNumber"]) == ("UPS", TRACKING_NUMBER)

    # Delivered from the board; the customer's page follows.
    console.locator(f'[data-order-id="{order_id}"]').get_by_role(
        "button", name="Mark delivered").click()
    console.locator(f'[data-order-id="{order_id}"][data-status="completed"]').wait_for()
    customer.locator("#order-status", has_text="completed").wait_for()
    _shared["order"] = read(server, f"/orders/{order_id}", "alice@example.com")

    # A second order, cancelled with a refund from the board while the customer watches.
    add_classic_mug(customer)
    check_out(customer, "4242424242424242")
    customer.wait_for_url(re.compile(r"/shop/orders/ord_(?!" + order_id[4:] + ")"))
    second = customer.url.rsplit("/", 1)[-1]
    card = console.locator(f'[data-order-id="{second}"]')
    card.get_by_text("Cancel and refund…").click()
    card.get_by_label("Reason for the customer (optional)").fill("Out of glaze, sorry")
    card.get_by_role("button", name="Cancel and refund", exact=True).click()
    console.locator(f'[data-order-id="{second}"][data-status="cancelled"]').wait_for()
    customer.locator("#order-status", has_text="cancelled").wait_for()
    assert read(server, f"/orders/{second}", "alice@example.com")["status"] == "cancelled"
    assert console.errors == [] and customer.errors == []


def test_stock_and_price_edits_webhook_log_and_an_import_dry_run(
        chromium: Any, server: LiveServer) -> None:
    page = signed_in_page(chromium, server, MERCHANT, "/console/webhooks")
    page.get_by_label("Endpoint URL (https; http only to localhost)").fill(
        "http://127.0.0.1:9/hook")
    page.get_by_role("button", name="Subscribe").click()
    secret = page.locator("#secret-value")
    secret.wait_for()
    assert secret.inner_text().startswith("whsec_")

    page.goto("/console/catalog")
    row = page.locator('[data-key="var_mug_blue_16oz"]')
    row.get_by_label("Set stock to").fill("7")
    row.get_by_role("button", name="Set", exact=True).click()
    page.locator('[data-key="var_mug_blue_16oz"] [data-stock="7"]').wait_for()
    row = page.locator('[data-key="var_mug_blue_16oz"]')
    row.get_by_label("Add (or remove, with −)").fill("-2")
    row.get_by_role("button", name="Adjust").click()
    page.locator('[data-key="var_mug_blue_16oz"] [data-stock="5"]').wait_for()
    row = page.locator('[data-key="item_limited_glaze_mug"]')
    row.get_by_label("Price (USD)").fill("19.50")
    row.get_by_role("button", name="Save price").click()
    page.locator('[data-key="item_limited_glaze_mug"]', has_text="$19.50").wait_for()
    browser.screenshot(page, "console-catalog")
    page.get_by_role("button", name="Archive Hanging Planter with Jute Cord").click()
    page.get_by_role("button", name="Put Hanging Planter with Jute Cord back on sale").wait_for()
    assert read(server, "/admin/items/item_hanging_planter", MERCHANT)["status"] == "archived"
    page.get_by_role("button", name="Put Hanging Planter with Jute Cord back on sale").click()
    page.get_by_role("button", name="Archive Hanging Planter with Jute Cord").wait_for()
    assert read(server, "/admin/items/item_hanging_planter", MERCHANT)["status"] == "active"
    item = read(server, "/admin/items/item_classic_mug", MERCHANT)
    [variant] = [v for v in item["metadata"]["dev.commerce.product.variants"]["variants"]
                 if v["id"] == "var_mug_blue_16oz"]
    assert variant["stock"] == 5
    assert read(server, "/items/item_limited_glaze_mug", MERCHANT)["price"]["amount"] == "19.50"

    # The stock changes were sent to the subscription: its log, and a redelivery.
    page.goto("/console/webhooks")
    page.get_by_role("link", name="Delivery log of http://127.0.0.1:9/hook").click()
    rows = page.locator("#delivery-rows tr[data-delivery-id]")
    rows.first.wait_for()
    before = rows.count()
    page.get_by_role("button", name="Redeliver inventory.updated").first.click()
    page.get_by_text("as a new delivery").wait_for()
    page.wait_for_function("n => document.querySelectorAll("
                           "'#delivery-rows tr[data-delivery-id]').length > n", arg=before)
    browser.screenshot(page, "console-webhooks")

    page.goto("/console/import")
    page.get_by_label("Catalog file").set_input_files(
        {"name": "bad.csv", "mimeType": "text/csv",
         "buffer": b"Handle,Title,Variant Price\nbowl,Bowl,-3\n"})
    page.get_by_label("Dry run: check and count, change nothing").uncheck()
    page.get_by_role("button", name="Import").click()
    problem = page.locator("#import-problems tbody tr")
    problem.wait_for()
    assert problem.locator("td").all_inner_texts()[:2] == ["2", "Variant Price"]
    page.get_by_label("Dry run: check and count, change nothing").check()
    page.get_by_label("Catalog file").set_input_files(str(CSV))
    page.get_by_role("button", name="Import").click()
    page.locator("#import-summary", has_text="Dry run, nothing changed").wait_for()
    browser.screenshot(page, "console-import")
    assert page.errors == []


def test_a_return_is_approved_received_and_refunded_in_the_console(
        chromium: Any, server: LiveServer) -> None:
    order = _shared.get("order")
    if order is None:
        pytest.skip("needs the order completed by the first test of this module")
    line = order["items"][0]
    answer = httpx.post(f"{server.url}/returns", json={
        "orderId": order["id"],
        "items": [{"cartItemId": line["id"], "quantity": 1, "reason": "damaged"}]},
        headers={"Authorization": f"Bearer {api_token(server, 'alice@example.com')}"})
    assert answer.status_code == 201, answer.text
    return_id = answer.json()["id"]

    page = signed_in_page(chromium, server, MERCHANT, "/console/returns")
    card = page.locator(f'[data-return-id="{return_id}"]')
    card.get_by_role("button", name=f"Approve {return_id}").wait_for()
    browser.screenshot(page, "console-returns")
    card.get_by_role("button", name=f"Approve {return_id}").click()
    page.locator(f'[data-return-id="{return_id}"][data-status="approved"]').wait_for()
    page.get_by_role("button", name=f"Mark received {return_id}").click()
    page.locator(f'[data-return-id="{return_id}"][data-status="received"]').wait_for()
    page.get_by_role("button", name=f"Refund {return_id}").click()
    page.locator(f'[data-return-id="{return_id}"][data-status="completed"]').wait_for()
    assert read(server, f"/returns/{return_id}", "alice@example.com")["status"] == "completed"

    # At 375 px the board fits the screen and its controls are reached from the keyboard.
    page.set_viewport_size({"width": 375, "height": 800})
    for path, ready in (("/console/catalog", "#item-list .stock-card"),
                        ("/console/webhooks", "#webhook-list .card"),
                        ("/console/returns", "#return-list .card"),
                        ("/console", f'[data-order-id="{order["id"]}"]')):
        page.goto(path)
        page.locator(ready).first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
    browser.screenshot(page, "console-375px")
    page.get_by_label("Status").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") in ("A", "BUTTON", "SELECT")
    assert page.errors == []
