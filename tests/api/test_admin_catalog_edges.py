"""The admin catalog's edges: repeating a change changes nothing and tells nobody again,
stock that is not counted cannot be adjusted, a variant id where the item has none, the last
variant, ids of another store's catalog or item, and another merchant's store, item or
catalog answering 404."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, EBOOKS, merchant_headers, subscribe
from tests.support.admin_support import webhook_events as events

pytestmark = pytest.mark.both_backends

MUG = "item_limited_glaze_mug"
CLASSIC = "item_classic_mug"


@pytest.fixture
async def owner(app: Starlette, client: httpx.AsyncClient) -> dict[str, str]:
    headers = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    await subscribe(client, headers)
    return headers


@pytest.fixture
async def other(app: Starlette) -> dict[str, str]:
    """The ebook store's merchant: none of the ceramics store is theirs."""
    return await merchant_headers(app, "owner@folio.example", EBOOKS)


def field_of(response: httpx.Response) -> str:
    assert response.status_code == 400, response.text
    return str(response.json()["details"][0]["field"])


async def test_archiving_twice_answers_the_item_and_tells_subscribers_once(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    first = await client.post(f"/admin/items/{MUG}/archive", headers=owner)
    assert first.status_code == 200 and first.json()["status"] == "archived"
    told = len(await events(app, "product.updated"))
    second = await client.post(f"/admin/items/{MUG}/archive", headers=owner)
    assert second.status_code == 200 and second.json()["status"] == "archived"
    assert second.json()["id"] == MUG
    assert len(await events(app, "product.updated")) == told


async def test_setting_the_status_an_item_has_changes_nothing(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    before = (await client.get(f"/admin/items/{MUG}", headers=owner)).json()
    told = len(await events(app, "product.updated"))
    same = await client.patch(f"/admin/items/{MUG}", headers=owner, json={"status": "active"})
    assert same.status_code == 200 and same.json()["status"] == "active"
    assert same.json()["price"] == before["price"]
    assert len(await events(app, "product.updated")) == told


async def test_uncounted_stock_can_be_set_but_not_adjusted(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    url = f"/admin/items/{MUG}/stock"
    unlimited = await client.put(url, headers=owner, json={"quantity": None})
    assert unlimited.status_code == 200, unlimited.text
    assert unlimited.json()["stock"] is None
    assert (await client.get(f"/items/{MUG}")).json()["available"] is True
    refused = await client.post(f"{url}/adjustments", headers=owner, json={"delta": -1})
    assert field_of(refused) == "/delta"
    assert "not counted" in str(refused.json()["details"][0])
    counted = await client.put(url, headers=owner, json={"quantity": 2})
    assert counted.json()["stock"] == 2
    adjusted = await client.post(f"{url}/adjustments", headers=owner, json={"delta": 3})
    assert adjusted.status_code == 200 and adjusted.json()["stock"] == 5


async def test_a_variant_id_is_refused_on_an_item_without_variants(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    url = f"/admin/items/{MUG}/stock"
    assert field_of(await client.put(url, headers=owner, json={
        "quantity": 3, "variantId": "var_mug_white_12oz"})) == "/variantId"
    assert field_of(await client.post(f"{url}/adjustments", headers=owner, json={
        "delta": 1, "variantId": "var_mug_white_12oz"})) == "/variantId"


async def test_an_unknown_variant_of_an_item_with_variants_is_refused(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    refused = await client.put(f"/admin/items/{CLASSIC}/stock", headers=owner,
                               json={"quantity": 3, "variantId": "var_mug_plaid_99oz"})
    assert field_of(refused) == "/variantId"


async def test_the_last_variant_cannot_be_removed(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    item = (await client.get(f"/items/{CLASSIC}")).json()
    ids = [v["id"] for v in item["metadata"]["dev.commerce.product.variants"]["variants"]]
    assert len(ids) > 1
    for variant_id in ids[:-1]:
        removed = await client.delete(f"/admin/items/{CLASSIC}/variants/{variant_id}",
                                      headers=owner)
        assert removed.status_code == 200, removed.text
    last = await client.delete(f"/admin/items/{CLASSIC}/variants/{ids[-1]}", headers=owner)
    assert field_of(last) == "variant_id"
    kept = (await client.get(f"/items/{CLASSIC}")).json()
    assert [v["id"] for v in kept["metadata"]["dev.commerce.product.variants"]["variants"]] \
        == [ids[-1]]


async def test_a_new_item_with_the_id_of_another_stores_item_is_refused(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    ebook = "item_ebook_python_patterns"
    body: dict[str, Any] = {"id": ebook, "name": "Python Patterns Mug",
                            "price": {"amount": "12.00", "currency": "USD"},
                            "catalogId": "cat_ceramics_drinkware"}
    response = await client.post(f"/admin/stores/{CERAMICS}/items", headers=owner, json=body)
    assert field_of(response) == "/id"
    elsewhere = await client.post(f"/admin/stores/{CERAMICS}/items", headers=owner, json={
        **body, "id": "item_python_patterns_mug", "catalogId": "cat_ebooks_books"})
    assert field_of(elsewhere) == "/catalogId"
    still = (await client.get(f"/items/{ebook}")).json()
    assert still["name"] != "Python Patterns Mug"


async def test_another_merchants_store_item_and_catalog_answer_404(
        client: httpx.AsyncClient, other: dict[str, str]) -> None:
    reads = [client.get(f"/admin/items/{MUG}", headers=other),
             client.get(f"/admin/stores/{CERAMICS}", headers=other),
             client.get(f"/admin/stores/{CERAMICS}/items", headers=other)]
    for read in reads:
        response = await read
        assert response.status_code == 404, response.text
    writes = [
        client.patch(f"/admin/items/{MUG}", headers=other, json={"name": "Taken"}),
        client.post(f"/admin/items/{MUG}/archive", headers=other),
        client.put(f"/admin/items/{MUG}/stock", headers=other, json={"quantity": 0}),
        client.post(f"/admin/items/{MUG}/stock/adjustments", headers=other,
                    json={"delta": -1}),
        client.delete(f"/admin/items/{CLASSIC}/variants/var_mug_white_12oz", headers=other),
        client.patch(f"/admin/stores/{CERAMICS}", headers=other, json={"name": "Taken"}),
        client.patch("/admin/catalogs/cat_ceramics_drinkware", headers=other,
                     json={"name": "Taken"}),
    ]
    for change in writes:
        response = await change
        assert response.status_code == 404, response.text
    mug = (await client.get(f"/items/{MUG}")).json()
    assert mug["name"] == "Limited Edition Glaze Mug"
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    assert store["name"] != "Taken"


async def test_a_shopper_is_no_merchant(client: httpx.AsyncClient,
                                        alice: dict[str, str]) -> None:
    response = await client.get(f"/admin/items/{MUG}", headers=alice)
    assert response.status_code == 403, response.text
    listed = await client.get("/admin/stores", headers=alice)
    assert listed.status_code == 403


async def test_a_metadata_entry_set_to_null_is_removed(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    added = await client.patch(f"/admin/items/{MUG}", headers=owner, json={
        "metadata": {"dev.commerce.product.rich_info": {"_version": "1.0",
                                                        "highlights": ["Hand thrown"]}}})
    assert added.status_code == 200, added.text
    shown = (await client.get(f"/items/{MUG}")).json()
    assert "dev.commerce.product.rich_info" in shown["metadata"]
    removed = await client.patch(f"/admin/items/{MUG}", headers=owner, json={
        "metadata": {"dev.commerce.product.rich_info": None}})
    assert removed.status_code == 200, removed.text
    shown = (await client.get(f"/items/{MUG}")).json()
    assert "dev.commerce.product.rich_info" not in shown.get("metadata", {})


async def test_an_unknown_status_filter_is_refused(client: httpx.AsyncClient,
                                                   owner: dict[str, str]) -> None:
    refused = await client.get(f"/admin/stores/{CERAMICS}/items", headers=owner,
                               params={"status": "sold"})
    assert field_of(refused) == "status"
    drafts = await client.get(f"/admin/stores/{CERAMICS}/items", headers=owner,
                              params={"status": "draft"})
    assert drafts.status_code == 200
    assert all(item["status"] == "draft" for item in drafts.json()["items"])
