"""The merchant console runs a shop in a real browser (chromium, Playwright) against a live
server: a new item with variants (a bad price is named beside the price field, not far above),
store settings (a bad delivery area beside its field), a promotion with a per-customer limit,
and stores named by name."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support import browser
from tests.support.browser import (
    PASSWORDS,
    api_token,
    signed_in_page,
)
from tests.support.live import LiveServer, cli, start_live_server

MERCHANT = "shopkeeper@hearth.example"
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwAB"
                       "BAEAwS2OUAAAAABJRU5ErkJggg==")
PASSWORDS.setdefault(MERCHANT, "merchant-pass-456")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    browser.require_browser()
    db = str(tmp_path_factory.mktemp("console_shop") / "console.db")
    live = start_live_server(db, ["--no-simulate"], timeout=120)
    try:
        cli("merchant", "create", "--email", MERCHANT, "--store", "store_ceramics",
            "--password", PASSWORDS[MERCHANT], "--db", db)
        yield live
    finally:
        live.stop()


def read(server: LiveServer, path: str) -> dict[str, Any]:
    answer = httpx.get(server.url + path,
                       headers={"Authorization": f"Bearer {api_token(server, MERCHANT)}"})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_new_item_with_variants_and_its_errors_beside_the_fields(
        chromium: Any, server: LiveServer) -> None:
    page = signed_in_page(chromium, server, MERCHANT, "/console/catalog")
    store = page.locator("#item-store option").first
    store.wait_for(state="attached")
    assert store.inner_text() == "Hearth & Kiln Ceramics"  # a name, not an id
    page.get_by_text("New item").click()
    form = page.locator("#new-item-form")
    form.get_by_label("Name").fill("Ash Glaze Bowl")
    form.get_by_label("Price (USD)").fill("29.5")
    form.get_by_role("button", name="Create item").click()
    error = page.locator("#new-price + .field-error")
    error.wait_for()
    assert page.locator("#new-price").get_attribute("aria-invalid") == "true"
    assert page.locator("#new-price").get_attribute("aria-describedby") == "new-price-error"
    form.get_by_label("Price (USD)").fill("29.00")
    form.get_by_label("Options (comma separated, e.g. Size, Color; empty: no variants)").fill(
        "Size")
    form.locator("#new-variants").fill("Small, 29.00, 3\nLarge, 34.00")
    form.locator("#new-image-file").set_input_files(
        {"name": "bowl.png", "mimeType": "image/png", "buffer": PNG})
    form.get_by_role("button", name="Create item").click()
    page.locator('[data-item-id="item_ash_glaze_bowl"]').wait_for()
    assert page.locator("#new-price + .field-error").count() == 0
    item = read(server, "/items/item_ash_glaze_bowl")
    variants = item["metadata"]["dev.commerce.product.variants"]["variants"]
    assert [(v["values"], v["price"]["amount"], v["stock"]) for v in variants] == [
        (["Small"], "29.00", 3), (["Large"], "34.00", None)]
    gallery = item["metadata"]["dev.commerce.product.rich_info"]["imageGallery"]
    served = httpx.get(server.url + gallery[0]["fallbackUrl"])
    assert served.status_code == 200 and served.content == PNG
    assert page.errors == []


def test_store_settings_and_a_promotion(chromium: Any, server: LiveServer) -> None:
    page = signed_in_page(chromium, server, MERCHANT, "/console/store")
    settings = page.locator("#settings-form")
    page.locator("#settings-name").wait_for()
    page.wait_for_function("document.getElementById('settings-name').value !== ''")
    page.locator("#settings-areas").fill("US, CA, Canada")
    settings.get_by_role("button", name="Save settings").click()
    page.locator("#settings-areas + .field-error").wait_for()
    page.locator("#settings-areas").fill("US, CA")
    page.locator("#settings-pickup").fill("12 Kiln Lane, Portland, OR")
    page.locator("#settings-name").fill("Hearth & Kiln Studio")
    settings.get_by_role("button", name="Save settings").click()
    page.get_by_text("Settings saved.").wait_for()
    store = read(server, "/admin/stores/store_ceramics")
    assert store["name"] == "Hearth & Kiln Studio"
    assert store["location"]["address"] == "12 Kiln Lane, Portland, OR"
    assert store["metadata"]["dev.commerce.store.shipping"]["deliveryAreas"] == ["US", "CA"]

    promotion = page.locator("#promotion-form")
    promotion.get_by_label("Code").fill("spring")
    promotion.get_by_label("Value (percent, or amount in the store's currency)").fill("150")
    promotion.get_by_role("button", name="Save promotion").click()
    page.locator("#promo-value + .field-error").wait_for()
    promotion.get_by_label("Value (percent, or amount in the store's currency)").fill("10")
    promotion.get_by_label("Uses per customer (optional)").fill("1")
    promotion.get_by_role("button", name="Save promotion").click()
    page.locator('[data-code="SPRING"]', has_text="1 per customer").wait_for()
    codes = {p["code"]: p for p in read(server, "/admin/stores/store_ceramics/promotions")
             ["promotions"]}
    assert codes["SPRING"]["perUserLimit"] == 1 and codes["SPRING"]["value"] == "10"
    assert page.errors == []
