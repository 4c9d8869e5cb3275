"""Drive Debian's chromium with Playwright (Python) against a live server, for the web app's
browser tests. Missing chromium or playwright skips those tests with the reason, and fails them
when CI=true."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import browser
from tests.support.live import LiveServer

CHROMIUM = os.environ.get("COMMERCE_AGENT_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The README's pictures are refreshed on request only (COMMERCE_AGENT_SCREENSHOTS=1): an
# ordinary test run takes them too, into a scratch folder, and leaves the checkout clean.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" \
    if os.environ.get("COMMERCE_AGENT_SCREENSHOTS") == "1" \
    else Path(tempfile.gettempdir()) / "commerce-agent-screenshots"


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    return None


def require_browser() -> None:
    reason = missing()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run: {reason}")
    pytest.skip(reason)


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def screenshot(page: Any, name: str) -> None:
    """A screenshot of the whole page into SCREENSHOTS (docs/screenshots/ for the README when
    COMMERCE_AGENT_SCREENSHOTS=1)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


TIMEOUT = 15_000  # ms, for each wait on the page



PASSWORDS = {"alice@example.com": "alice-demo-pass", "bob@example.com": "bob-demo-pass",
             "carol@example.com": "carol-demo-pass"}



@pytest.fixture(scope="module")
def chromium(server: LiveServer) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = browser.launch(playwright)
        try:
            yield launched
        finally:
            launched.close()



def signed_in_page(chromium: Any, server: LiveServer, email: str, next_url: str = "/",
                   origin: str | None = None) -> Any:
    """A new browser context signed in through the account page, on `next_url`."""
    origin = origin or server.url
    context = chromium.new_context(base_url=origin, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"/account/sign-in?next={next_url}")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORDS[email])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(origin + next_url.split("?")[0])))
    return page



def api_token(server: LiveServer, email: str = "alice@example.com") -> str:
    """A bearer token for reading back through the Commerce API (one sign-in per user and
    server: each module's server has its own database, so a token is good on its server only)."""
    if email not in server.tokens:
        answer = httpx.post(f"{server.url}/auth/token",
                            json={"email": email, "password": PASSWORDS[email]})
        server.tokens[email] = answer.json()["accessToken"]
    return server.tokens[email]



def add_classic_mug(page: Any) -> None:
    page.goto("/shop/items/item_classic_mug")
    page.get_by_label(re.compile(r"Cobalt Blue / 16 oz")).check()
    page.get_by_label(re.compile(r"Gift Box")).check()
    page.get_by_label("Quantity").fill("2")
    page.get_by_role("button", name="Add to cart").click()
    page.get_by_role("link", name="Go to the cart").wait_for()



def check_out(page: Any, card: str) -> None:
    page.goto("/shop/cart")
    page.locator("#carts[data-ready=true]").wait_for()  # the script's forms are in place
    address = page.get_by_label("Address")  # asked only when something ships
    if address.count():
        address.first.fill("1 Main St, Springfield")
        page.get_by_label("Country code").first.fill("US")
    page.get_by_role("button", name="Place the order").click()
    page.get_by_label("Card number").fill(card)
    page.get_by_role("button", name="Pay").click()


VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def new_page(chromium: Any, server: LiveServer, viewport: str, **options: Any) -> Any:
    """A new browser context at a named viewport, its page errors collected in `page.errors`."""
    context = chromium.new_context(base_url=server.url, viewport=VIEWPORTS[viewport],
                                   **options)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def sign_in(page: Any, email: str, next_url: str) -> None:
    """Sign `page` in through the account page, landing on `next_url`."""
    page.goto(f"/account/sign-in?next={next_url}")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORDS[email])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(next_url) + "$"))


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (page.url, width)


def fresh_token(server: LiveServer, email: str) -> str:
    """A new bearer token for `email` on `server` (each call signs in again)."""
    answer = httpx.post(f"{server.url}/auth/token",
                        json={"email": email, "password": PASSWORDS[email]})
    token: str = answer.json()["accessToken"]
    return token
