"""The kept parts of a whole catalog (`catalog_json.build` and `restock`): the body is the
bytes GET /catalogs/{id} answers; a catalog over the limit is only marked incomplete; a stock
change re-renders the items it touched into the same bytes a fresh build makes; a new item,
or more changes than are worth patching, asks for a fresh build instead."""

from __future__ import annotations

import json

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.services.catalog import catalog_json
from commerce_agent.commerce.storage import catalog as catalog_storage
from tests.support.admin_support import CERAMICS, merchant_headers

pytestmark = pytest.mark.both_backends

CATALOG = "cat_ceramics_drinkware"
MUG = "item_limited_glaze_mug"


async def test_the_body_is_what_the_route_answers(app: Starlette,
                                                  client: httpx.AsyncClient) -> None:
    parts = await catalog_json.build(app.state.db, CATALOG, None, 10_000)
    assert parts.complete
    answered = await client.get(f"/catalogs/{CATALOG}")
    assert json.loads(parts.body) == answered.json()
    assert list(parts.items) == [item["id"] for item in answered.json()["items"]]


async def test_a_catalog_over_the_limit_is_only_marked(app: Starlette) -> None:
    parts = await catalog_json.build(app.state.db, CATALOG, None, 1)
    assert not parts.complete and parts.items == {} and parts.opening == b""


async def test_no_stock_change_keeps_the_parts(app: Starlette) -> None:
    parts = await catalog_json.build(app.state.db, CATALOG, None, 10_000)
    assert await catalog_json.restock(app.state.db, parts, None) is parts


async def test_a_stock_change_re_renders_only_that_item(app: Starlette) -> None:
    db = app.state.db
    parts = await catalog_json.build(db, CATALOG, None, 10_000)
    async with db.transaction() as tx:
        assert await catalog_storage.decrement_stock(tx, MUG, "", 10)  # all of it
    restocked = await catalog_json.restock(db, parts, None)
    assert restocked is not None and restocked is not parts
    changed = [item_id for item_id in parts.items
               if parts.items[item_id] != restocked.items[item_id]]
    assert changed == [MUG]
    assert restocked.stock[MUG] != parts.stock[MUG]
    assert json.loads(restocked.items[MUG])["available"] is False
    fresh = await catalog_json.build(db, CATALOG, None, 10_000)
    assert restocked.body == fresh.body


async def test_a_new_item_asks_for_a_fresh_build(app: Starlette,
                                                 client: httpx.AsyncClient) -> None:
    db = app.state.db
    parts = await catalog_json.build(db, CATALOG, None, 10_000)
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    made = await client.post(f"/admin/stores/{CERAMICS}/items", headers=owner, json={
        "name": "Tall Tumbler", "price": {"amount": "15.00", "currency": "USD"},
        "catalogId": CATALOG, "stock": 4})
    assert made.status_code == 201, made.text
    assert await catalog_json.restock(db, parts, None) is None
    fresh = await catalog_json.build(db, CATALOG, None, 10_000)
    assert made.json()["id"] in fresh.items


async def test_too_many_changes_ask_for_a_fresh_build(app: Starlette,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = app.state.db
    parts = await catalog_json.build(db, CATALOG, None, 10_000)
    async with db.transaction() as tx:
        assert await catalog_storage.decrement_stock(tx, MUG, "", 1)
    monkeypatch.setattr(catalog_json, "MAX_RESTOCKED", 0)
    assert await catalog_json.restock(db, parts, None) is None


async def test_a_translated_catalog_is_kept_in_its_language(app: Starlette,
                                                            client: httpx.AsyncClient) -> None:
    parts = await catalog_json.build(app.state.db, CATALOG, "fr", 10_000)
    answered = await client.get(f"/catalogs/{CATALOG}", headers={"Accept-Language": "fr"})
    assert answered.status_code == 200
    french = json.loads(parts.body)
    english = json.loads((await catalog_json.build(app.state.db, CATALOG, None, 10_000)).body)
    assert [item["id"] for item in french["items"]] == [item["id"] for item in english["items"]]
    assert french["items"] == answered.json()["items"]
