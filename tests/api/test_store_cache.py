"""Stores and promotions are kept per database file for a second; a seed drops them."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.services.catalog import store_cache
from commerce_agent.seed import seed
from tests.support.elsewhere import write

pytestmark = pytest.mark.both_backends


async def test_a_change_by_another_process_shows_within_the_ttl(app: Starlette) -> None:
    db = app.state.db
    store_cache.forget(db.path)
    before = await store_cache.rules(db, "store_ceramics")
    assert before is not None and "WELCOME10" in before.promotions
    write(app.state.settings.db_path, "DELETE FROM promotions WHERE store_id = :store",
                      {"store": "store_ceramics"})
    kept = await store_cache.rules(db, "store_ceramics")
    assert kept is before  # within the second: not read again
    await asyncio.sleep(store_cache.TTL_SECONDS + 0.1)
    fresh = await store_cache.rules(db, "store_ceramics")
    assert fresh is not None and fresh.promotions == {}
    assert await store_cache.rules(db, "store_nothing") is None


async def test_a_seed_in_this_process_drops_what_is_kept(app: Starlette) -> None:
    db = app.state.db
    assert await store_cache.rules(db, "store_ceramics") is not None
    assert any(key[0] == db.path for key in store_cache._entries)
    await seed(db, reset=True)
    assert not any(key[0] == db.path for key in store_cache._entries)


async def test_carts_price_with_the_kept_promotions(client: httpx.AsyncClient, app: Starlette,
                                                    alice: dict[str, str]) -> None:
    cart = (await client.post("/carts", json={"storeId": "store_ceramics"},
                              headers=alice)).json()
    await client.post(f"/carts/{cart['id']}/items", headers=alice,
                      json={"itemId": "item_limited_glaze_mug", "quantity": 3})
    applied = await client.post(f"/carts/{cart['id']}/promotions", headers=alice,
                                json={"type": "promo_code", "value": "WELCOME10"})
    assert applied.status_code == 200, applied.text
    assert applied.json()["discount"]["amount"] != "0.00"
    store_cache.forget(app.state.db.path)  # as after a reseed that removed the code
    write(app.state.settings.db_path, "DELETE FROM promotions WHERE code = 'WELCOME10'", {})
    cart_now = (await client.get(f"/carts/{cart['id']}", headers=alice)).json()
    assert cart_now["discount"]["amount"] == "0.00"
    assert cart_now["promotions"][0]["applicable"] is False
