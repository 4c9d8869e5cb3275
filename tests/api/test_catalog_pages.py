"""GET /catalogs/{id}: whole by default (streamed batch by batch when large), or one page of
its items with `limit`/`cursor`; search pages cut in the database; the kept catalog rendered
once however many wait, and brought up to date item by item when only stock changed."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.routes import catalog as catalog_routes
from commerce_agent.commerce.services.catalog import cache as catalog_cache
from commerce_agent.commerce.services.catalog import catalog_json
from commerce_agent.commerce.shop import writes
from commerce_agent.commerce.storage import catalog as catalog_storage
from tests.support.helpers import CERAMICS, LIMITED_MUG, buy

pytestmark = pytest.mark.both_backends

BIG = "cat_big"


async def _first_catalog(client: httpx.AsyncClient) -> str:
    return str((await client.get(f"/stores/{CERAMICS}")).json()["catalogIds"][0])


async def _mug_catalog(client: httpx.AsyncClient) -> str:
    for catalog_id in (await client.get(f"/stores/{CERAMICS}")).json()["catalogIds"]:
        items = (await client.get(f"/catalogs/{catalog_id}")).json()["items"]
        if any(item["id"] == LIMITED_MUG for item in items):
            return str(catalog_id)
    raise AssertionError("limited mug not found")


async def _big_store(app: Starlette, items: int) -> None:
    store = {"id": "store_big", "name": "Big Shop", "description": "Many things.",
             "currency": "USD", "metadata": {}, "promotions": [],
             "catalogs": [{"id": BIG, "name": "All", "items": [
                 {"id": f"item_big_{index:05d}", "name": f"Thing {index}",
                  "description": "A thing.", "price": {"amount": "5.00", "currency": "USD"},
                  "fulfillmentType": "physical", "stock": index % 7}
                 for index in range(items)]}]}
    async with app.state.db.transaction() as tx:
        await writes.add_store(tx, store)


async def _walk(client: httpx.AsyncClient, url: str, limit: int,
                headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    items, cursor = [], None
    while True:
        params: dict[str, Any] = {"limit": limit}
        if cursor:
            params["cursor"] = cursor
        response = await client.get(url, params=params, headers=headers)
        assert response.status_code == 200, response.text
        body = response.json()
        items += body["items"]
        cursor = body["pagination"]["nextCursor"]
        if cursor is None:
            return items


async def test_an_items_page_is_the_catalog_with_a_slice_of_its_items(
        client: httpx.AsyncClient) -> None:
    catalog_id = await _first_catalog(client)
    whole = (await client.get(f"/catalogs/{catalog_id}")).json()
    page = (await client.get(f"/catalogs/{catalog_id}?limit=3")).json()
    assert {key: value for key, value in page.items() if key not in ("items", "pagination")} \
        == {key: value for key, value in whole.items() if key != "items"}
    assert page["items"] == whole["items"][:3]
    assert page["pagination"]["totalCount"] == len(whole["items"])
    assert page["pagination"]["previousCursor"] is None
    assert await _walk(client, f"/catalogs/{catalog_id}", 2) == whole["items"]
    second = (await client.get(f"/catalogs/{catalog_id}", params={
        "cursor": page["pagination"]["nextCursor"]})).json()  # a cursor alone: pages of 20
    assert second["items"] == whole["items"][3:23]
    back = (await client.get(f"/catalogs/{catalog_id}", params={
        "limit": 3, "cursor": second["pagination"]["previousCursor"]})).json()
    assert back["items"] == whole["items"][:3]


async def test_an_items_page_carries_the_caller_s_review_actions(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    await buy(client, alice, LIMITED_MUG, 1)
    catalog_id = await _mug_catalog(client)
    items = await _walk(client, f"/catalogs/{catalog_id}", 2, alice)
    assert {item["id"] for item in items if item["actions"]} == {LIMITED_MUG}


async def test_bad_pages_and_unknown_catalogs(client: httpx.AsyncClient) -> None:
    catalog_id = await _first_catalog(client)
    for params in ({"limit": 0}, {"limit": 101}, {"cursor": "nope"}):
        response = await client.get(f"/catalogs/{catalog_id}", params=params)
        assert response.status_code == 400, params
    assert (await client.get("/catalogs/cat_missing?limit=2")).status_code == 404
    assert (await client.get("/catalogs/cat_missing")).status_code == 404


async def test_a_large_catalog_is_streamed_whole_in_catalog_order(
        client: httpx.AsyncClient, app: Starlette, bob: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    count = catalog_json.BATCH * 2 + 7
    await _big_store(app, count)
    expected = [f"item_big_{index:05d}" for index in range(count)]
    kept = await client.get(f"/catalogs/{BIG}")  # anonymous, small enough: kept whole
    assert "content-length" in kept.headers
    signed_in = await client.get(f"/catalogs/{BIG}", headers=bob)  # never kept: streamed
    assert "content-length" not in signed_in.headers
    assert signed_in.json() == kept.json()
    assert [item["id"] for item in signed_in.json()["items"]] == expected
    assert signed_in.json()["items"][5]["available"] is True
    monkeypatch.setattr(catalog_routes, "MAX_ITEMS", catalog_json.BATCH)
    app.state.catalog_cache = catalog_cache.CatalogCache(app.state.db)
    too_large = await client.get(f"/catalogs/{BIG}")  # anonymous, too large to keep
    assert "content-length" not in too_large.headers
    assert too_large.json() == kept.json()
    assert await _walk(client, f"/catalogs/{BIG}", 100) == kept.json()["items"]


async def test_search_pages_concatenate_to_the_ranked_list(client: httpx.AsyncClient) -> None:
    for query in ("q=mug&", "q=ceramic+mug&", "q=mug&sort=price_desc&", ""):
        whole = (await client.get(f"/search?{query}limit=100")).json()
        assert whole["items"], query
        assert whole["pagination"]["totalCount"] == len(whole["items"])
        assert whole["pagination"]["nextCursor"] is None
        paged, cursor = [], None
        while True:
            body = (await client.get(f"/search?{query}limit=3" + (
                f"&cursor={cursor}" if cursor else ""))).json()
            assert body["pagination"]["totalCount"] == len(whole["items"])
            paged += body["items"]
            cursor = body["pagination"]["nextCursor"]
            if cursor is None:
                break
        assert paged == whole["items"], query
    ranked = (await client.get("/search?q=mug&limit=100")).json()["items"]
    assert [item["relevance"] for item in ranked] == sorted(
        (item["relevance"] for item in ranked), reverse=True)
    priced = (await client.get("/search?q=mug&sort=price_desc&limit=100")).json()["items"]
    assert [float(item["price"]["amount"]) for item in priced] == sorted(
        (float(item["price"]["amount"]) for item in priced), reverse=True)
    past = (await client.get("/search?q=mug&limit=5&cursor="
                             + _offset(len(ranked) + 10))).json()
    assert past["items"] == [] and past["pagination"]["totalCount"] == len(ranked)


def _offset(offset: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"o": offset}).encode()).decode().rstrip("=")


async def test_browsing_pages_every_active_item_in_store_order(
        client: httpx.AsyncClient) -> None:
    everything = (await client.get("/search?limit=100")).json()
    stores = [store["id"] for store in (await client.get("/stores?limit=100")).json()["stores"]]
    positions = [stores.index(item["storeId"]) for item in everything["items"]]
    assert positions == sorted(positions)
    paged, cursor = [], None
    while True:
        body = (await client.get("/search?limit=7" + (f"&cursor={cursor}" if cursor else ""))
                ).json()
        paged += body["items"]
        cursor = body["pagination"]["nextCursor"]
        if cursor is None:
            break
    assert paged == everything["items"]
    one_store = (await client.get(f"/search?storeId={CERAMICS}&limit=100")).json()["items"]
    assert one_store == [item for item in everything["items"] if item["storeId"] == CERAMICS]


async def test_concurrent_readers_of_a_dropped_catalog_share_one_render(
        client: httpx.AsyncClient, app: Starlette) -> None:
    catalog_id = await _first_catalog(client)
    cache = app.state.catalog_cache = catalog_cache.CatalogCache(app.state.db)
    answers = await asyncio.gather(*(client.get(f"/catalogs/{catalog_id}") for _ in range(24)))
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.content for answer in answers}) == 1
    assert cache.builds == 1
    async with app.state.db.transaction() as tx:  # an item changed: render afresh, once
        tx.notify(catalog_storage.CHANGED)
    again = await asyncio.gather(*(client.get(f"/catalogs/{catalog_id}") for _ in range(24)))
    assert len({answer.content for answer in again}) == 1
    assert cache.builds == 2


async def test_a_failed_render_fails_its_waiters_and_the_next_read_renders_again(
        app: Starlette) -> None:
    cache = catalog_cache.CatalogCache(app.state.db)
    calls = 0

    async def failing() -> catalog_json.Parts:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        raise RuntimeError("database gone")

    async def restock(parts: catalog_json.Parts) -> catalog_json.Parts | None:
        return parts

    key = ("cat", None, "")
    results = await asyncio.gather(*(cache.read(key, failing, restock) for _ in range(5)),
                                   return_exceptions=True)
    assert calls == 1 and all(isinstance(result, RuntimeError) for result in results)

    async def working() -> catalog_json.Parts:
        return catalog_json.Parts("cat", "{}", b'{"items":[', {"a": b'{"id":"a"}'}, {"a": {}})

    assert (await cache.read(key, working, restock)).body == b'{"items":[{"id":"a"}]}'


async def test_a_stock_change_re_renders_only_the_items_it_moved(
        client: httpx.AsyncClient, app: Starlette, bob: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    catalog_id = await _mug_catalog(client)
    app.state.catalog_cache = catalog_cache.CatalogCache(app.state.db, clock=lambda: 1000.0)
    renders: list[str] = []
    build, restock = catalog_json.build, catalog_json.restock

    async def counted_build(*args: Any) -> catalog_json.Parts:
        renders.append("whole")
        return await build(*args)

    async def counted_restock(db: Any, parts: catalog_json.Parts, locale: Any
                              ) -> catalog_json.Parts | None:
        renders.append("restock")
        return await restock(db, parts, locale)

    monkeypatch.setattr(catalog_json, "build", counted_build)
    monkeypatch.setattr(catalog_json, "restock", counted_restock)
    before = (await client.get(f"/catalogs/{catalog_id}")).json()
    async with app.state.db.transaction() as tx:  # the mug's last units are sold
        assert await catalog_storage.decrement_stock(tx, LIMITED_MUG, "", 10)
    after = (await client.get(f"/catalogs/{catalog_id}")).json()
    # On PostgreSQL the change is also heard again through LISTEN, a moment later: that may
    # restock once more, but nothing renders the whole catalog again.
    assert renders[:2] == ["whole", "restock"] and set(renders[1:]) == {"restock"}
    changed = [item["id"] for item, old in zip(after["items"], before["items"], strict=True)
               if item != old]
    assert changed == [LIMITED_MUG]
    mug = next(item for item in after["items"] if item["id"] == LIMITED_MUG)
    assert mug["available"] is False
    rendered_afresh = await client.get(f"/catalogs/{catalog_id}", headers=bob)  # never kept
    assert rendered_afresh.json() == after
    assert (await client.get(f"/catalogs/{catalog_id}")).json() == after
    assert renders[0] == "whole" and set(renders[1:]) == {"restock"}  # kept after the restock
