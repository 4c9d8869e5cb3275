"""Stock `null` means "not counted": a variant (or item) without a count is shown with
`stock: null` and `available: true` in every read, carts and orders take any quantity of it
and never decrement it, and the admin API sets and unsets the count. A property test renders
every public read of items whose variants carry any mix of counted, zero and uncounted stock."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from starlette.applications import Starlette

from commerce_agent.mcp import server
from commerce_agent.mcp.shop import Shop
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.helpers import add_item, new_cart, pay_and_order
from tests.support.lifecycle_support import US_ADDRESS

pytestmark = pytest.mark.both_backends

MUG = "item_classic_mug"
BLUE = "var_mug_blue_12oz"
VARIANTS = "dev.commerce.product.variants"
V11 = "application/commerce+json; version=1.0, dev.commerce.product.variants=1.1"


@pytest.fixture
async def owner(app: Starlette) -> dict[str, str]:
    return await merchant_headers(app, "owner@hearth.example", CERAMICS)


def variants_of(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {v["id"]: v for v in item["metadata"][VARIANTS]["variants"]}


async def uncount(client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    response = await client.put(f"/admin/items/{MUG}/variants/{BLUE}", headers=owner, json={
        "values": ["Cobalt Blue", "12 oz"], "price": {"amount": "24.00", "currency": "USD"},
        "stock": None})
    assert response.status_code == 200, response.text
    assert variants_of(response.json())[BLUE]["stock"] is None


async def test_an_uncounted_variant_reads_everywhere(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    await uncount(client, owner)
    item = await client.get(f"/items/{MUG}", headers={"Accept": V11})
    assert item.status_code == 200, item.text
    blue = variants_of(item.json())[BLUE]
    assert blue["stock"] is None and blue["available"] is True
    catalog = await client.get(f"/catalogs/{item.json()['catalogId']}",
                               headers={"Accept": V11})
    assert catalog.status_code == 200, catalog.text
    listed = next(i for i in catalog.json()["items"] if i["id"] == MUG)
    assert variants_of(listed)[BLUE]["stock"] is None
    found = await client.get("/search", params={"q": "mug"}, headers={"Accept": V11})
    assert found.status_code == 200 and MUG in [i["id"] for i in found.json()["items"]]
    page = await client.get(f"/items/{MUG}", headers={"Accept": "text/html"})
    assert page.status_code == 200


async def test_carts_and_orders_never_count_it(
        client: httpx.AsyncClient, owner: dict[str, str], alice: dict[str, str]) -> None:
    await uncount(client, owner)
    cart = await new_cart(client, alice)
    added = await add_item(client, alice, cart["id"], MUG, 90, variantId=BLUE)
    assert added["items"][0]["available"] is True
    response = await pay_and_order(client, alice, {"cartId": cart["id"],
                                                   "deliveryAddress": US_ADDRESS})
    assert response.status_code == 201, response.text
    admin = (await client.get(f"/admin/items/{MUG}", headers=owner)).json()
    assert variants_of(admin)[BLUE]["stock"] is None  # not decremented, not turned into 0


async def test_the_stock_route_sets_and_unsets_the_count(
        client: httpx.AsyncClient, owner: dict[str, str], alice: dict[str, str]) -> None:
    zero = await client.put(f"/admin/items/{MUG}/stock", headers=owner,
                            json={"variantId": BLUE, "quantity": 0})
    assert zero.status_code == 200 and variants_of(zero.json())[BLUE]["stock"] == 0
    shown = (await client.get(f"/items/{MUG}", headers={"Accept": V11})).json()
    assert variants_of(shown)[BLUE] | {"stock": 0, "available": False} == variants_of(shown)[BLUE]
    cart = await new_cart(client, alice)
    refused = await client.post(f"/carts/{cart['id']}/items", headers=alice,
                                json={"itemId": MUG, "quantity": 1, "variantId": BLUE})
    assert refused.status_code == 400 and refused.json()["code"] == "product_unavailable"
    unset = await client.put(f"/admin/items/{MUG}/stock", headers=owner,
                             json={"variantId": BLUE, "quantity": None})
    assert unset.status_code == 200 and variants_of(unset.json())[BLUE]["stock"] is None
    shown = (await client.get(f"/items/{MUG}", headers={"Accept": V11})).json()
    assert variants_of(shown)[BLUE]["stock"] is None
    assert variants_of(shown)[BLUE]["available"] is True
    await add_item(client, alice, cart["id"], MUG, 500, variantId=BLUE)
    counted = await client.put(f"/admin/items/{MUG}/stock", headers=owner,
                               json={"variantId": BLUE, "quantity": 3})
    assert variants_of(counted.json())[BLUE]["stock"] == 3
    assert variants_of((await client.get(f"/items/{MUG}")).json())[BLUE]["stock"] == 3


async def test_mcp_reads_an_uncounted_item(app: Starlette, client: httpx.AsyncClient,
                                           owner: dict[str, str]) -> None:
    await uncount(client, owner)
    mcp_server, subscriptions = server.build_server(Shop.of_app(app))
    try:
        async with Client(mcp_server, mode="legacy") as mcp:
            found = await mcp.call_tool("search_products", {"query": "mug"})
            assert not found.is_error, found.content
            item = await mcp.call_tool("get_item", {"itemId": MUG})
            assert not item.is_error, item.content
    finally:
        await subscriptions.close()


STOCK = st.one_of(st.none(), st.just(0), st.integers(0, 5))
_names = itertools.count()


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stocks=st.lists(STOCK, min_size=1, max_size=4), item_stock=STOCK)
async def test_every_public_read_of_any_stock_mix_answers(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        stocks: list[int | None], item_stock: int | None) -> None:
    n = next(_names)
    body: dict[str, Any] = {
        "name": f"Mixstock Vase {n}", "price": {"amount": "10.00", "currency": "USD"},
        "catalogId": "cat_ceramics_drinkware", "description": "A vase."}
    if n % 2:
        body["metadata"] = {VARIANTS: {"_version": "1.0", "options": ["Size"], "variants": [
            {"id": f"var_mix_{n}_{i}", "values": [f"S{i}"], "stock": stock,
             "price": {"amount": "10.00", "currency": "USD"}}
            for i, stock in enumerate(stocks)]}}
    else:
        body["stock"] = item_stock
    created = await client.post(f"/admin/stores/{CERAMICS}/items", json=body, headers=owner)
    assert created.status_code == 201, created.text
    item_id = created.json()["id"]
    for accept in ("application/commerce+json; version=1.0", V11,
                   "application/commerce+json; version=1.0, dev.commerce.product.variants=2.0"):
        for path, params in ((f"/items/{item_id}", {}),
                             ("/catalogs/cat_ceramics_drinkware", {}),
                             ("/catalogs/cat_ceramics_drinkware", {"limit": "50"}),
                             ("/search", {"q": "mixstock"}),
                             ("/search", {"q": "mixstock", "available": "true"})):
            response = await client.get(path, params=params, headers={"Accept": accept})
            assert response.status_code < 500, (path, response.text)
    for path in (f"/items/{item_id}", "/", f"/stores/{CERAMICS}"):
        assert (await client.get(path, headers={"Accept": "text/html"})).status_code < 500
    shown = (await client.get(f"/items/{item_id}", headers={"Accept": V11})).json()
    listed = (await client.get("/search", params={"q": f"mixstock vase {n}", "available": "true",
                                                  "limit": "100"})).json()["items"]
    assert (item_id in [i["id"] for i in listed]) is shown["available"]
    if n % 2:
        for variant, stock in zip(shown["metadata"][VARIANTS]["variants"], stocks,
                                  strict=True):
            assert variant["stock"] == stock
            assert variant["available"] is (stock is None or stock > 0)
        assert shown["available"] is any(stock is None or stock > 0 for stock in stocks)
    else:
        assert shown["available"] is (item_stock is None or item_stock > 0)
