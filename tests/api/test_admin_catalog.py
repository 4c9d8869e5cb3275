"""Admin items, variants, prices, stock, stores and promotions: each change is live at once in
catalog reads (and their cache), search, carts and webhooks; bad input names its field."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, merchant_headers, subscribe, webhook_events
from tests.support.agent_support import run
from tests.support.helpers import add_item, new_cart
from tests.support.lifecycle_support import mug_order, stock

pytestmark = pytest.mark.both_backends

CATALOG = "cat_ceramics_drinkware"
BOWL = {"name": "Ash Glaze Noodle Bowl", "price": {"amount": "29.00", "currency": "USD"},
        "description": "A deep bowl in wood-ash glaze.", "stock": 6, "catalogId": CATALOG}


@pytest.fixture
async def owner(app: Starlette, client: httpx.AsyncClient) -> dict[str, str]:
    headers = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    await subscribe(client, headers)
    return headers


async def create(client: httpx.AsyncClient, owner: dict[str, str], body: dict[str, Any],
                 **headers: str) -> httpx.Response:
    return await client.post(f"/admin/stores/{CERAMICS}/items", json=body,
                             headers={**owner, **headers})


def field_errors(response: httpx.Response) -> list[str]:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "bad_request"
    return [detail["field"] for detail in body["details"]]


async def catalog_ids(client: httpx.AsyncClient) -> list[str]:
    catalog = (await client.get(f"/catalogs/{CATALOG}")).json()
    return [item["id"] for item in catalog["items"]]


async def test_a_new_item_is_live_in_catalog_search_carts_and_webhooks(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    before = await catalog_ids(client)  # fills the catalog cache
    response = await create(client, owner, BOWL)
    assert response.status_code == 201, response.text
    item = response.json()
    assert item["id"] == "item_ash_glaze_noodle_bowl" and item["status"] == "active"
    assert item["stock"] == 6 and response.headers["location"] == f"/admin/items/{item['id']}"
    assert await catalog_ids(client) == [*before, item["id"]]
    found = (await client.get("/search", params={"q": "noodle"})).json()["items"]
    assert [i["id"] for i in found] == [item["id"]]
    cart = await new_cart(client, alice)
    assert (await add_item(client, alice, cart["id"], item["id"], 2))["items"]
    events = await webhook_events(app, "product.created")
    assert [event["data"]["id"] for event in events] == [item["id"]]


async def test_bad_items_name_their_fields(client: httpx.AsyncClient,
                                           owner: dict[str, str]) -> None:
    assert field_errors(await create(client, owner, {**BOWL, "price": {
        "amount": "29.5", "currency": "USD"}})) == ["/price/amount"]
    assert field_errors(await create(client, owner, {**BOWL, "price": {
        "amount": "29.00", "currency": "EUR"}})) == ["/price/currency"]
    assert field_errors(await create(client, owner, {**BOWL, "colour": "red"})) == ["/colour"]
    assert field_errors(await create(client, owner, {**BOWL, "stock": -1})) == ["/stock"]
    assert field_errors(await create(client, owner, {**BOWL, "name": ""})) == ["/name"]
    assert field_errors(await create(client, owner, {**BOWL, "catalogId": "cat_nope"})) == \
        ["/catalogId"]
    assert field_errors(await create(client, owner, {**BOWL, "id": "item_classic_mug"})) == \
        ["/id"]
    variants = {"dev.commerce.product.variants": {"_version": "1.0", "options": ["Size"],
                "variants": [{"id": "var_bowl_s", "values": ["S", "extra"],
                              "price": {"amount": "1.00", "currency": "USD"}}]}}
    assert field_errors(await create(client, owner, {**BOWL, "metadata": variants})) == \
        ["/metadata/dev.commerce.product.variants/variants/0/values"]
    assert (await client.get(f"/admin/stores/{CERAMICS}/items", params={"limit": 100},
                             headers=owner)).json()["pagination"]["totalCount"] == \
        len([i for i in (await client.get(f"/admin/stores/{CERAMICS}/items",
                                          params={"limit": 100}, headers=owner)).json()
             ["items"]])


async def test_an_idempotency_key_replays_and_creates_once(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    first = await create(client, owner, BOWL, **{"Idempotency-Key": "bowl-1"})
    again = await create(client, owner, BOWL, **{"Idempotency-Key": "bowl-1"})
    assert first.status_code == again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true" and again.json() == first.json()
    other = await create(client, owner, {**BOWL, "name": "Other"},
                         **{"Idempotency-Key": "bowl-1"})
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"
    listed = (await client.get(f"/admin/stores/{CERAMICS}/items", params={"limit": 100},
                               headers=owner)).json()["items"]
    assert [i["name"] for i in listed].count(BOWL["name"]) == 1


async def test_price_and_description_edits_are_live(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    await client.get(f"/catalogs/{CATALOG}")
    response = await client.patch("/admin/items/item_limited_glaze_mug", headers=owner,
                                  json={"price": {"amount": "21.00", "currency": "USD"},
                                        "description": "Now a little dearer."})
    assert response.status_code == 200, response.text
    shown = (await client.get("/items/item_limited_glaze_mug")).json()
    assert shown["price"]["amount"] == "21.00" and shown["description"] == "Now a little dearer."
    catalog = (await client.get(f"/catalogs/{CATALOG}")).json()
    assert next(i for i in catalog["items"] if i["id"] == "item_limited_glaze_mug"
                )["price"]["amount"] == "21.00"
    assert await stock(app, "item_limited_glaze_mug") == 10  # edits keep the stock
    updated = await webhook_events(app, "product.updated")
    assert updated[-1]["data"]["price"]["amount"] == "21.00"
    assert updated[-1]["previousData"]["price"]["amount"] == "18.00"
    assert field_errors(await client.patch("/admin/items/item_limited_glaze_mug",
                                           headers=owner, json={"price": {
                                               "amount": "x", "currency": "USD"}})) == \
        ["/price/amount"]


async def test_variants_are_added_and_repriced(client: httpx.AsyncClient,
                                               owner: dict[str, str]) -> None:
    added = await client.put("/admin/items/item_classic_mug/variants/var_mug_sage_12oz",
                             headers=owner, json={"values": ["Sage", "12 oz"], "stock": 7,
                                                  "price": {"amount": "25.00",
                                                            "currency": "USD"}})
    assert added.status_code == 201, added.text
    repriced = await client.put("/admin/items/item_classic_mug/variants/var_mug_blue_12oz",
                                headers=owner, json={"values": ["Cobalt Blue", "12 oz"],
                                                     "price": {"amount": "26.00",
                                                               "currency": "USD"}})
    assert repriced.status_code == 200
    shown = (await client.get("/items/item_classic_mug")).json()
    variants = {v["id"]: v for v in
                shown["metadata"]["dev.commerce.product.variants"]["variants"]}
    assert variants["var_mug_sage_12oz"]["stock"] == 7
    assert variants["var_mug_blue_12oz"]["price"]["amount"] == "26.00"
    assert variants["var_mug_blue_12oz"]["stock"] == 40  # repricing keeps the stock
    wrong = await client.put("/admin/items/item_classic_mug/variants/var_mug_odd",
                             headers=owner, json={"values": ["Sage"], "price": {
                                 "amount": "25.00", "currency": "USD"}})
    assert field_errors(wrong) == ["/values"]
    removed = await client.delete("/admin/items/item_classic_mug/variants/var_mug_sage_12oz",
                                  headers=owner)
    assert removed.status_code == 200, removed.text
    shown = (await client.get("/items/item_classic_mug")).json()
    assert "var_mug_sage_12oz" not in [
        v["id"] for v in shown["metadata"]["dev.commerce.product.variants"]["variants"]]
    again = await client.delete("/admin/items/item_classic_mug/variants/var_mug_sage_12oz",
                                headers=owner)
    assert again.status_code == 404 and again.json()["code"] == "variant_not_found"


async def test_stock_is_set_and_adjusted_never_below_zero(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    url = "/admin/items/item_limited_glaze_mug/stock"
    response = await client.put(url, headers=owner, json={"quantity": 5})
    assert response.status_code == 200 and response.json()["stock"] == 5
    shown = (await client.get("/items/item_limited_glaze_mug")).json()
    assert shown["available"] is True
    results = await asyncio.gather(*[
        client.post(f"{url}/adjustments", headers=owner, json={"delta": -1})
        for _ in range(8)])
    assert sorted(r.status_code for r in results) == [200] * 5 + [409] * 3
    assert all(r.json()["code"] == "insufficient_stock" for r in results
               if r.status_code == 409)
    assert await stock(app, "item_limited_glaze_mug") == 0
    assert (await client.get("/items/item_limited_glaze_mug")).json()["available"] is False
    back = await client.post(f"{url}/adjustments", headers=owner, json={"delta": 4})
    assert back.json()["stock"] == 4
    events = await webhook_events(app, "inventory.updated")
    assert sorted((e["data"]["previousQuantity"], e["data"]["quantity"]) for e in events) == \
        [(0, 4), (1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (10, 5)]
    variant = await client.put("/admin/items/item_classic_mug/stock", headers=owner,
                               json={"variantId": "var_mug_white_12oz", "quantity": 12})
    assert variant.status_code == 200
    assert await stock(app, "item_classic_mug", "var_mug_white_12oz") == 12
    assert field_errors(await client.put("/admin/items/item_classic_mug/stock",
                                         headers=owner, json={"quantity": 3})) == ["/variantId"]
    assert field_errors(await client.post(f"{url}/adjustments", headers=owner,
                                          json={"delta": "many"})) == ["/delta"]


async def test_an_ordered_item_is_archived_not_deleted(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    archived = await client.post("/admin/items/item_limited_glaze_mug/archive", headers=owner)
    assert archived.status_code == 200 and archived.json()["status"] == "archived"
    assert "item_limited_glaze_mug" not in await catalog_ids(client)
    assert (await client.get("/items/item_limited_glaze_mug")).status_code == 404
    found = (await client.get("/search", params={"q": "limited glaze"})).json()["items"]
    assert "item_limited_glaze_mug" not in [item["id"] for item in found]
    cart = await new_cart(client, alice)
    refused = await client.post(f"/carts/{cart['id']}/items", headers=alice,
                                json={"itemId": "item_limited_glaze_mug", "quantity": 1})
    assert refused.status_code == 400
    order = await client.get(f"/orders/{placed['id']}", headers=alice)
    assert order.status_code == 200
    assert order.json()["items"][0]["itemId"] == "item_limited_glaze_mug"
    mine = await client.get("/admin/items/item_limited_glaze_mug", headers=owner)
    assert mine.json()["status"] == "archived"
    back = await client.patch("/admin/items/item_limited_glaze_mug", headers=owner,
                              json={"status": "active"})
    assert back.json()["status"] == "active"
    assert "item_limited_glaze_mug" in await catalog_ids(client)


async def test_store_edits_and_promotions_are_live(
        client: httpx.AsyncClient, owner: dict[str, str], alice: dict[str, str]) -> None:
    edited = await client.patch(f"/admin/stores/{CERAMICS}", headers=owner, json={
        "name": "Hearth & Kiln", "shipping": {"deliveryAreas": ["US"]},
        "policies": {"returnPolicy": "https://hearth.example/returns"}})
    assert edited.status_code == 200, edited.text
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    assert store["name"] == "Hearth & Kiln"
    assert store["catalogIds"] == ["cat_ceramics_drinkware", "cat_ceramics_tableware",
                                   "cat_ceramics_studio"]
    assert store["metadata"]["dev.commerce.store.shipping"]["deliveryAreas"] == ["US"]
    assert field_errors(await client.patch(f"/admin/stores/{CERAMICS}", headers=owner, json={
        "shipping": {"deliveryAreas": ["usa"]}})) == ["/shipping/deliveryAreas/0"]
    assert field_errors(await client.patch(f"/admin/stores/{CERAMICS}", headers=owner, json={
        "constraints": {"minimumOrderValue": {"amount": "5", "currency": "USD"}}})) == \
        ["/constraints/minimumOrderValue/amount"]
    code = await client.put(f"/admin/stores/{CERAMICS}/promotions/spring15", headers=owner,
                            json={"type": "percentage", "value": "15",
                                  "description": "15% off"})
    assert code.status_code == 201 and code.json()["code"] == "SPRING15"
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], "item_limited_glaze_mug", 2)
    applied = await client.post(f"/carts/{cart['id']}/promotions", headers=alice,
                                json={"type": "promo_code", "value": "spring15"})
    assert applied.status_code == 200, applied.text
    assert field_errors(await client.put(f"/admin/stores/{CERAMICS}/promotions/BIG",
                                         headers=owner, json={"type": "percentage",
                                                              "value": "150"})) == ["/value"]
    gone = await client.delete(f"/admin/stores/{CERAMICS}/promotions/SPRING15", headers=owner)
    assert gone.status_code == 204
    again = await client.delete(f"/admin/stores/{CERAMICS}/promotions/SPRING15",
                                headers=owner)
    assert again.status_code == 404 and again.json()["code"] == "promotion_not_found"
    other = await new_cart(client, alice)
    await add_item(client, alice, other["id"], "item_limited_glaze_mug", 2)
    refused = await client.post(f"/carts/{other['id']}/promotions", headers=alice,
                                json={"type": "promo_code", "value": "SPRING15"})
    assert refused.status_code == 400 and refused.json()["code"] == "promotion_invalid"


async def test_a_merchant_creates_a_store_with_a_catalog_and_an_item(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    store = await client.post("/admin/stores", headers=owner,
                              json={"name": "Kiln Seconds", "currency": "EUR"})
    assert store.status_code == 201, store.text
    store_id = store.json()["id"]
    assert store_id == "store_kiln_seconds"
    catalog = await client.post(f"/admin/stores/{store_id}/catalogs", headers=owner,
                                json={"name": "Seconds"})
    assert catalog.status_code == 201
    item = await client.post(f"/admin/stores/{store_id}/items", headers=owner,
                             json={"name": "Wonky Mug", "price": {"amount": "9.00",
                                                                  "currency": "EUR"}})
    assert item.status_code == 201 and item.json()["catalogId"] == catalog.json()["id"]
    public = (await client.get(f"/catalogs/{catalog.json()['id']}")).json()
    assert [i["name"] for i in public["items"]] == ["Wonky Mug"]
    assert field_errors(await client.post("/admin/stores", headers=owner,
                                          json={"name": "X", "currency": "ZZZ"})) == \
        ["/currency"]


async def test_the_agents_tools_see_changes_at_once(app: Starlette, client: httpx.AsyncClient,
                                                    owner: dict[str, str]) -> None:
    await run(app, "search_products", {"query": "noodle"}, principal=None)
    created = (await create(client, owner, BOWL)).json()
    found = await run(app, "search_products", {"query": "noodle"}, principal=None)
    assert [r["itemId"] for r in found["results"]] == [created["id"]]
    await client.patch(f"/admin/items/{created['id']}", headers=owner,
                       json={"price": {"amount": "31.00", "currency": "USD"}})
    item = await run(app, "get_item", {"itemId": created["id"]}, principal=None)
    assert item["price"]["amount"] == "31.00"
    await client.post(f"/admin/items/{created['id']}/archive", headers=owner)
    gone = await run(app, "search_products", {"query": "noodle"}, principal=None)
    assert gone["results"] == []


async def test_a_repeated_stock_adjustment_is_applied_once(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    url = "/admin/items/item_limited_glaze_mug/stock/adjustments"
    key = {**owner, "Idempotency-Key": "restock-42"}
    first = await client.post(url, headers=key, json={"delta": 5})
    again = await client.post(url, headers=key, json={"delta": 5})
    assert first.json()["stock"] == again.json()["stock"] == 15
    assert again.headers["idempotent-replayed"] == "true"
    assert await stock(app, "item_limited_glaze_mug") == 15


async def test_a_catalog_is_renamed(client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    await client.get(f"/catalogs/{CATALOG}")
    renamed = await client.patch(f"/admin/catalogs/{CATALOG}", headers=owner,
                                 json={"name": "Cups & Mugs"})
    assert renamed.status_code == 200, renamed.text
    assert (await client.get(f"/catalogs/{CATALOG}")).json()["name"] == "Cups & Mugs"
    assert field_errors(await client.patch(f"/admin/catalogs/{CATALOG}", headers=owner,
                                           json={"name": ""})) == ["/name"]
