"""Every admin route: only merchant accounts (403 for customers, 401 without a token), each on
its own stores only (404 for another merchant's, like a missing one)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.admin import (
    image_routes,
    import_routes,
    item_routes,
    mail_routes,
    order_routes,
    store_routes,
)
from commerce_agent.commerce.admin.operations import ADMIN_OPERATIONS
from tests.support.admin_support import CERAMICS, EBOOKS, merchant_headers
from tests.support.lifecycle_support import complete, mug_order

pytestmark = pytest.mark.both_backends

ADMIN_ROUTES = sorted((method, route.path) for route in
                      [*store_routes.routes, *item_routes.routes, *order_routes.routes,
                       *import_routes.routes, *image_routes.routes, *mail_routes.routes]
                      for method in route.methods or () if method != "HEAD")
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/admin/stores"): {"name": "Shop", "currency": "USD"},
    ("PATCH", "/admin/stores/{store_id}"): {"name": "Renamed"},
    ("POST", "/admin/stores/{store_id}/catalogs"): {"name": "More"},
    ("PATCH", "/admin/catalogs/{catalog_id}"): {"name": "Cups"},
    ("PUT", "/admin/stores/{store_id}/promotions/{code}"): {"type": "percentage", "value": "5"},
    ("POST", "/admin/stores/{store_id}/items"): {"name": "Bowl",
                                                 "price": {"amount": "5.00", "currency": "USD"}},
    ("PATCH", "/admin/items/{item_id}"): {"name": "Renamed"},
    ("PUT", "/admin/items/{item_id}/variants/{variant_id}"): {
        "values": ["Red", "8 oz"], "price": {"amount": "5.00", "currency": "USD"}},
    ("PUT", "/admin/items/{item_id}/stock"): {"quantity": 3},
    ("POST", "/admin/items/{item_id}/stock/adjustments"): {"delta": 1},
}


def fill(path: str, ids: dict[str, str]) -> str:
    return re.sub(r"{(\w+)}", lambda match: ids[match.group(1)], path)


async def call(client: httpx.AsyncClient, method: str, path: str, ids: dict[str, str],
               headers: dict[str, str]) -> httpx.Response:
    body = BODIES.get((method, path))
    return await client.request(method, fill(path, ids), headers=headers,
                                json=body if body is not None else None)


def test_every_admin_route_is_described_for_openapi() -> None:
    assert set(ADMIN_ROUTES) == set(ADMIN_OPERATIONS)


async def test_customers_get_403_and_anonymous_callers_401(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    ids = {"store_id": CERAMICS, "item_id": "item_classic_mug", "variant_id": "var_x",
           "code": "WELCOME10", "order_id": "ord_x", "return_id": "ret_x",
           "catalog_id": "cat_ceramics_drinkware"}
    for method, path in ADMIN_ROUTES:
        response = await call(client, method, path, ids, alice)
        assert response.status_code == 403, (method, path, response.text)
        assert response.json()["code"] == "forbidden"
        assert (await call(client, method, path, ids, {})).status_code == 401, (method, path)


async def test_another_merchants_store_is_404(app: Starlette, client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    await merchant_headers(app, "ceramics@shop.example", CERAMICS)
    other = await merchant_headers(app, "ebooks@shop.example", EBOOKS)
    placed = await mug_order(client, alice)
    await complete(app, placed["id"])
    line = placed["items"][0]["id"]
    ret = await client.post("/returns", headers=alice, json={
        "orderId": placed["id"], "items": [{"cartItemId": line, "quantity": 1}]})
    assert ret.status_code == 201, ret.text
    ids = {"store_id": CERAMICS, "item_id": "item_classic_mug", "variant_id": "var_x",
           "code": "WELCOME10", "order_id": placed["id"], "return_id": ret.json()["id"],
           "catalog_id": "cat_ceramics_drinkware"}
    for method, path in ADMIN_ROUTES:
        if "{" not in path:
            continue
        response = await call(client, method, path, ids, other)
        assert response.status_code == 404, (method, path, response.text)
    assert (await client.get("/admin/orders", headers=other)).json()["orders"] == []
    filtered = await client.get("/admin/orders", params={"storeId": CERAMICS}, headers=other)
    assert filtered.status_code == 404
    assert (await client.get("/admin/returns", headers=other)).json()["returns"] == []
    assert [s["id"] for s in (await client.get("/admin/stores", headers=other)).json()
            ["stores"]] == [EBOOKS]


@pytest.mark.parametrize("header", ["Bearer nonsense", ""])
async def test_a_bad_token_is_401(client: httpx.AsyncClient, header: str) -> None:
    headers = {"Authorization": header} if header else {}
    assert (await client.get("/admin/stores", headers=headers)).status_code == 401
