"""A merchant runs a day of business in a real browser (Debian's chromium, Playwright) against
a live server: imports the example Shopify export, creates an item with an uploaded image,
sees it in the storefront; a customer orders it; the merchant hears of the order by webhook (a
receiver in this test) and by e-mail (an SMTP server in this test), ships it from the console,
and the customer's open order page shows it shipped without a reload. Console pages fit the
screen at 1280 px and 390 px."""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.support import browser
from tests.support.live import LiveServer, cli, free_port, start_live_server

MERCHANT = "owner@hearth.example"
PASSWORDS = {MERCHANT: "merchant-pass-123", "alice@example.com": "alice-demo-pass"}
EXPORT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "products_export.csv"
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwAB"
                       "BAEAwS2OUAAAAABJRU5ErkJggg==")
TRACKING_NUMBER = "1Z999AA10123456784"
TIMEOUT = 20_000  # ms, for each wait on a page
CONSOLE_PAGES = ["/console", "/console/catalog", "/console/import", "/console/returns",
                 "/console/webhooks", "/console/store", "/console/mail"]


class Received:
    """What the test's receivers got: webhook bodies and mail messages."""

    def __init__(self) -> None:
        self.webhooks: list[dict[str, Any]] = []
        self.mail: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mail.append(message_from_bytes(envelope.content))
        return "250 OK"


def receiver(received: Received) -> ThreadingHTTPServer:
    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            received.webhooks.append(json.loads(body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def received() -> Received:
    return Received()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, received: Received
           ) -> Iterator[tuple[LiveServer, str]]:
    browser.require_browser()
    controller_module = pytest.importorskip("aiosmtpd.controller")
    smtp = controller_module.Controller(received, hostname="127.0.0.1", port=free_port())
    smtp.start()
    hooks = receiver(received)
    db = str(tmp_path_factory.mktemp("journey") / "journey.db")
    live = start_live_server(db, ["--no-simulate", "--smtp", f"smtp://127.0.0.1:{smtp.port}"],
                             timeout=120)
    try:
        cli("merchant", "create", "--email", MERCHANT, "--store", "store_ceramics",
            "--password", PASSWORDS[MERCHANT], "--db", db)
        yield live, f"http://127.0.0.1:{hooks.server_address[1]}/hook"
    finally:
        live.stop()
        hooks.shutdown()
        hooks.server_close()
        smtp.stop()


@pytest.fixture(scope="module")
def chromium(server: tuple[LiveServer, str]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = browser.launch(playwright)
        try:
            yield launched
        finally:
            launched.close()


def signed_in(chromium: Any, live: LiveServer, email: str, path: str) -> Any:
    context = chromium.new_context(base_url=live.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"/account/sign-in?next={path}")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORDS[email])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(live.url + path)))
    return page


def until(condition: Callable[[], Any], what: str, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def fits(page: Any, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    for path in CONSOLE_PAGES:
        page.goto(path)
        page.locator("#console").wait_for()
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, (path, width, wide)


def test_a_day_of_business(chromium: Any, server: tuple[LiveServer, str],
                           received: Received) -> None:
    live, hook_url = server
    console = signed_in(chromium, live, MERCHANT, "/console/import")

    # 1. The example Shopify export, imported for real (not a dry run).
    console.get_by_label("Catalog file").set_input_files(str(EXPORT))
    console.get_by_label("Dry run: check and count, change nothing").uncheck()
    console.get_by_role("button", name="Import").click()
    console.locator("#console-message", has_text="Imported products_export.csv").wait_for()

    # 2. A webhook subscription to every event, its secret shown once.
    console.goto("/console/webhooks")
    console.get_by_label("Endpoint URL (https; http only to localhost)").fill(hook_url)
    console.get_by_role("button", name="Subscribe").click()
    assert console.locator("#secret-value").inner_text().startswith("whsec_")

    # 3. A new item with an uploaded image; a bad price first, named beside its field.
    console.goto("/console/catalog")
    console.get_by_text("New item").click()
    form = console.locator("#new-item-form")
    form.get_by_label("Name").fill("Ash Glaze Bowl")
    form.get_by_label("Price (USD)").fill("29.5")
    form.get_by_label("Stock (empty: not counted)").fill("5")
    form.get_by_label(re.compile(r"^Image \(PNG")).set_input_files(
        {"name": "bowl.png", "mimeType": "image/png", "buffer": PNG})
    form.get_by_role("button", name="Create item").click()
    console.locator("#new-item-price-error").wait_for()
    assert console.locator("#new-item-price").get_attribute("aria-invalid") == "true"
    form = console.locator("#new-item-form")
    form.get_by_label("Price (USD)").fill("29.00")
    form.get_by_label(re.compile(r"^Image \(PNG")).set_input_files(
        {"name": "bowl.png", "mimeType": "image/png", "buffer": PNG})
    form.get_by_role("button", name="Create item").click()
    console.locator("#console-message", has_text="Ash Glaze Bowl is created").wait_for()
    console.locator("#item-item_ash_glaze_bowl").wait_for()
    browser.screenshot(console, "console-new-item")

    # 4. The customer sees it in the storefront, image and all, and orders it.
    customer = signed_in(chromium, live, "alice@example.com", "/shop/items/item_ash_glaze_bowl")
    customer.get_by_role("heading", name="Ash Glaze Bowl").wait_for()
    image = customer.locator('img[src^="/images/"]').first
    image.wait_for()
    customer.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=image.element_handle())
    customer.get_by_role("button", name="Add to cart").click()
    customer.get_by_role("link", name="Go to the cart").wait_for()
    customer.goto("/shop/cart")
    customer.locator("#carts[data-ready=true]").wait_for()
    address = customer.get_by_label("Address")
    if address.count():
        address.first.fill("1 Main St, Springfield")
        customer.get_by_label("Country code").first.fill("US")
    customer.get_by_role("button", name="Place the order").click()
    customer.get_by_label("Card number").fill("4242424242424242")
    customer.get_by_role("button", name="Pay").click()
    customer.wait_for_url(re.compile(r"/shop/orders/ord_"))
    customer.locator("#order-status", has_text="confirmed").wait_for()
    order_id = customer.url.rsplit("/", 1)[-1]
    customer.evaluate("window.sameDocument = true")

    # 5. The merchant hears of it: a webhook to the store's subscription, and an e-mail.
    created = until(lambda: next((body for body in received.webhooks
                                  if body.get("type") == "order.created"
                                  or body.get("event") == "order.created"), None),
                    "the order.created webhook")
    assert order_id in json.dumps(created)
    note = until(lambda: next((m for m in received.mail if m["To"] == MERCHANT), None),
                 "the new-order mail")
    assert order_id in note["Subject"]
    assert any(m["To"] == "alice@example.com" for m in received.mail)

    # 6. The board shows the new order by itself, and ships it with a tracking number.
    console.goto("/console")
    card = console.locator(f'[data-order-id="{order_id}"]')
    card.wait_for()
    card.get_by_text("Ship with a tracking number…").click()
    card.get_by_label("Carrier", exact=True).fill("UPS")
    card.get_by_label("Tracking number", exact=True).fill(TRACKING_NUMBER)
    card.get_by_role("button", name="Ship with this tracking number").click()
    console.locator(f'[data-order-id="{order_id}"][data-status="in_transit"]').wait_for()
    console.locator("#console-message", has_text=TRACKING_NUMBER).wait_for()
    browser.screenshot(console, "console-orders")

    # 7. The customer's open order page follows, without a reload.
    customer.locator("#order-status", has_text="in transit").wait_for()
    customer.get_by_text(TRACKING_NUMBER).first.wait_for()
    assert customer.evaluate("window.sameDocument") is True
    shipped = until(lambda: next((m for m in received.mail if m["To"] == "alice@example.com"
                                  and "shipped" in str(m["Subject"]).lower()), None),
                    "the shipped mail")
    assert order_id in shipped["Subject"]

    # 8. The kept and sent mail is readable in the console; pages fit 1280 and 390 px.
    console.goto("/console/mail")
    console.get_by_role("link", name=re.compile(f"New order {order_id}")).click()
    console.locator("#message-body", has_text=order_id).wait_for()
    fits(console, 1280)
    fits(console, 390)
    browser.screenshot(console, "console-390px")
    assert console.errors == [] and customer.errors == []
