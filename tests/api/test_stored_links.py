"""A link the server stores is an http(s) URL (or a path of its own), whichever way it came
in: the admin API, a catalog import (JSON store file or Shopify CSV, over HTTP or the CLI),
the sample data, webhooks, the merchant CLI. A merchant cannot put `javascript:` on a
customer's order page, not even through a carrier website stored before the rule."""

from __future__ import annotations

import asyncio
import copy
import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette

from commerce_agent import links
from commerce_agent.cli import main
from commerce_agent.commerce.services.catalog import store_cache
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.commerce.shop import writes
from commerce_agent.commerce.storage import catalog_writes
from commerce_agent.errors import CommerceError
from commerce_agent.seed import load_stores
from tests.support.admin_support import merchant_headers
from tests.support.helpers import (
    CERAMICS,
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    new_cart,
    pay_and_order,
)

pytestmark = pytest.mark.both_backends

EVIL = "javascript:alert(document.domain);//x"
SHIPPING = "dev.commerce.store.shipping"
CSV = (Path(__file__).parents[1] / "data" / "shopify_products.csv").read_text(encoding="utf-8")


@pytest.mark.parametrize(("value", "ok"), [
    ("https://www.usps.com", True), ("http://127.0.0.1:9/x?a=1", True),
    ("/items/item_x", True), (EVIL, False), ("JavaScript:alert(1)", False),
    ("data:text/html,<script>1</script>", False), ("//evil.example/x", False),
    ("/\\evil.example", False), ("https://", False), ("https://a b", False),
    ("ftp://example.com/x", False), (" https://example.com", False),
    ("https://example.com:port/", False), ("vbscript:msgbox(1)", False)])
def test_the_rule(value: str, ok: bool) -> None:
    assert (links.url_problem(value, relative=True) is None) is ok


def test_links_are_found_under_their_keys_only() -> None:
    doc = {"name": "javascript: is a word here", "metadata": {
        "info": {"url": EVIL}, "rich": {"imageGallery": [{"fallbackUrl": "data:x"}]},
        "policies": {"returnPolicy": EVIL, "stackingPolicy": "none"},
        "links": [{"href": "/search?q=mugs"}]}}
    found = {field for field, _, _ in links.document_link_problems(doc)}
    assert found == {"/metadata/info/url", "/metadata/rich/imageGallery/0/fallbackUrl",
                     "/metadata/policies/returnPolicy"}


def _provider(website: str) -> dict[str, Any]:
    return {"deliveryAreas": ["US"], "providers": [{"name": "USPS", "website": website}]}


async def test_admin_api_refuses_a_bad_link(app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@example.com", CERAMICS)
    for body, field in (({"shipping": _provider(EVIL)}, "/providers/0/website"),
                        ({"info": {"url": "data:text/html,x"}}, "/url"),
                        ({"policies": {"returnPolicy": "//evil.example"}}, "/returnPolicy")):
        response = await client.patch(f"/admin/stores/{CERAMICS}", json=body, headers=owner)
        assert response.status_code == 400, response.text
        assert response.json()["details"][0]["field"].endswith(field), response.text
    item = await client.patch(f"/admin/items/{LIMITED_MUG}", headers=owner, json={
        "metadata": {"dev.commerce.product.rich_content": {
            "_version": "1.0", "imageGallery": [{"alt": "x", "fallbackUrl": EVIL}]}}})
    assert item.status_code == 400, item.text
    shipped = await client.patch(f"/admin/stores/{CERAMICS}", headers=owner,
                                 json={"shipping": _provider("https://www.usps.com")})
    assert shipped.status_code == 200, shipped.text


async def test_a_json_store_file_with_a_bad_link_imports_nothing(
        app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@example.com", CERAMICS)
    store = copy.deepcopy(load_stores()[0])
    store["metadata"][SHIPPING]["providers"][0]["website"] = EVIL
    response = await client.post(f"/admin/stores/{CERAMICS}/catalog/import",
                                 content=json.dumps(store).encode(),
                                 headers={**owner, "Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert any("website" in detail.get("field", "") for detail in response.json()["details"])


async def test_a_shopify_image_that_is_not_http_imports_nothing(
        app: Starlette, client: httpx.AsyncClient) -> None:
    owner = await merchant_headers(app, "owner@example.com", CERAMICS)
    rows = list(csv.reader(io.StringIO(CSV)))
    rows[1][rows[0].index("Image Src")] = "javascript:alert(1)"
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    body = out.getvalue()
    response = await client.post(f"/admin/stores/{CERAMICS}/catalog/import",
                                 content=body.encode(), headers={**owner,
                                                                 "Content-Type": "text/csv"})
    assert response.status_code == 400, response.text
    assert any(d.get("field") == "Image Src" for d in response.json()["details"])


def test_the_cli_import_refuses_a_bad_link(db_target: str, tmp_path: Path) -> None:
    store = copy.deepcopy(load_stores()[0])
    store["id"] = "store_evil"
    store["metadata"]["dev.commerce.store.info"]["url"] = EVIL
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(store), encoding="utf-8")
    # only serve, seed and init create a database (docs/decisions.md)
    created = CliRunner().invoke(main, ["init", "--db", db_target])
    assert created.exit_code == 0, created.output
    result = CliRunner().invoke(main, ["catalog", "import", str(path), "--db", db_target])
    assert result.exit_code == 1, result.output
    assert "url" in result.output and "Nothing was imported" in result.output


async def test_every_writer_refuses_a_bad_link(app: Starlette) -> None:
    """The sample data and anything else reach the store through shop.writes."""
    store = copy.deepcopy(load_stores()[0])
    store["id"] = "store_evil"
    store["metadata"][SHIPPING]["providers"][0]["website"] = EVIL
    with pytest.raises(CommerceError) as refused:
        async with app.state.db.transaction() as tx:
            await writes.add_store(tx, store)
    assert refused.value.status == 400
    assert refused.value.details[0]["field"].endswith("/website")
    with pytest.raises(CommerceError):
        async with app.state.db.transaction() as tx:
            await writes.update_store(tx, CERAMICS, {"metadata": {SHIPPING: _provider(EVIL)}})


async def test_webhooks_refuse_a_script_url(client: httpx.AsyncClient,
                                            alice: dict[str, str]) -> None:
    for url in (EVIL, "data:,x", "https://a b/", "http://127.0.0.1:9/\\x"):
        response = await client.post("/webhooks", json={"url": url, "events": ["*"]},
                                     headers=alice)
        assert response.status_code == 400, (url, response.text)


async def _shipped_order(app: Starlette, client: httpx.AsyncClient,
                         alice: dict[str, str]) -> dict[str, Any]:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], LIMITED_MUG)
    placed = await pay_and_order(client, alice, {"cartId": cart["id"],
                                                 "deliveryAddress": US_ADDRESS})
    assert placed.status_code == 201, placed.text
    return dict(placed.json())


async def test_a_carrier_website_stored_before_the_rule_is_never_sent(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    # A store saved by an older version: written under the writers' check, as it was then.
    async with app.state.db.transaction() as tx:
        row = await tx.fetch_one("SELECT doc FROM stores WHERE id = :id", {"id": CERAMICS})
        doc = msgspec.json.decode(row["doc"])
        for provider in doc["metadata"][SHIPPING]["providers"]:
            provider["website"] = EVIL
        await catalog_writes.save_store_doc(tx, CERAMICS, doc)
    store_cache.forget(app.state.db.path)
    order = await _shipped_order(app, client, alice)
    for _ in range(2):
        async with app.state.db.transaction() as tx:
            shipped = await simulator.advance(tx, order["id"], "http://test", None)
    assert shipped["status"] == "in_transit"
    [parcel] = shipped["metadata"]["dev.commerce.order.shipment_tracking"]
    assert parcel["trackingUrl"].startswith("https://"), parcel
    seen = await client.get(f"/orders/{order['id']}", headers=alice)
    assert "javascript:" not in seen.text


async def test_the_merchant_tracking_url_is_checked_on_every_way_in(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        db_target: str) -> None:
    order = await _shipped_order(app, client, alice)
    owner = await merchant_headers(app, "owner@example.com", CERAMICS)
    response = await client.post(f"/admin/orders/{order['id']}/advance", headers=owner,
                                  json={"trackingNumber": "1Z", "trackingUrl": EVIL})
    assert response.status_code == 400
    result = await asyncio.to_thread(CliRunner().invoke, main, [
        "orders", "advance", order["id"], "--tracking-number", "1Z", "--tracking-url", EVIL,
        "--db", db_target])
    assert result.exit_code == 1 and "trackingUrl" in result.output, result.output
