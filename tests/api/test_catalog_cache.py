"""Anonymous catalog reads are kept for a moment: dropped at once by a change in this process,
stale for at most the TTL after a change by another process, keyed by locale and versions."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.services.catalog import cache as catalog_cache
from commerce_agent.commerce.storage import catalog as catalog_storage
from tests.support.elsewhere import write
from tests.support.helpers import CERAMICS, LIMITED_MUG, buy

pytestmark = pytest.mark.both_backends
READERS = 20


async def _mug(client: httpx.AsyncClient, catalog_id: str, **headers: str) -> dict[str, Any]:
    response = await client.get(f"/catalogs/{catalog_id}", headers=headers)
    assert response.status_code == 200
    item: dict[str, Any] = next(i for i in response.json()["items"] if i["id"] == LIMITED_MUG)
    return item


async def _catalog_id(client: httpx.AsyncClient) -> str:
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    for catalog_id in store["catalogIds"]:
        items = (await client.get(f"/catalogs/{catalog_id}")).json()["items"]
        if any(item["id"] == LIMITED_MUG for item in items):
            return str(catalog_id)
    raise AssertionError("limited mug not found")


def _frozen_clock(app: Starlette) -> list[float]:
    """Give the app a catalog cache whose clock the test moves."""
    clock = [1000.0]
    app.state.catalog_cache = catalog_cache.CatalogCache(app.state.db, clock=lambda: clock[0])
    return clock


async def test_another_process_s_stock_change_shows_within_the_ttl(
        client: httpx.AsyncClient, app: Starlette) -> None:
    catalog_id = await _catalog_id(client)
    clock = _frozen_clock(app)
    before = await _mug(client, catalog_id)
    # Another process (its own connection to the database) sells the last units.
    write(app.state.settings.db_path, "UPDATE stock SET quantity = 0 WHERE item_id = :item",
          {"item": LIMITED_MUG})
    clock[0] += catalog_cache.TTL_SECONDS / 2
    assert await _mug(client, catalog_id) == before  # still the kept answer
    clock[0] += catalog_cache.TTL_SECONDS
    after = await _mug(client, catalog_id)
    assert before["available"] is True and after["available"] is False


async def test_a_change_in_this_process_is_seen_at_once(client: httpx.AsyncClient,
                                                        app: Starlette) -> None:
    catalog_id = await _catalog_id(client)
    _frozen_clock(app)  # nothing expires: only the change can drop the kept answer
    assert (await _mug(client, catalog_id))["available"] is True
    async with app.state.db.transaction() as tx:
        assert await catalog_storage.decrement_stock(tx, LIMITED_MUG, "", 10)
    assert (await _mug(client, catalog_id))["available"] is False


async def test_locale_and_versions_are_part_of_the_key(client: httpx.AsyncClient) -> None:
    catalog_id = await _catalog_id(client)
    english = await client.get(f"/catalogs/{catalog_id}")
    french = await client.get(f"/catalogs/{catalog_id}", headers={"Accept-Language": "fr"})
    again = await client.get(f"/catalogs/{catalog_id}", headers={"Accept-Language": "fr"})
    assert english.headers["content-language"] == "en"
    assert french.json() != english.json() and again.content == french.content
    assert again.headers["content-language"] == french.headers["content-language"] == "fr"
    asked = {"Accept-Commerce-Capabilities": "dev.commerce.product.variants@2.0"}
    v2 = await client.get(f"/catalogs/{catalog_id}", headers=asked)
    assert v2.status_code == 200 and v2.content != english.content
    assert (await client.get(f"/catalogs/{catalog_id}")).content == english.content


async def test_signed_in_reads_are_never_served_from_the_cache(client: httpx.AsyncClient,
                                                               alice: dict[str, str]) -> None:
    catalog_id = await _catalog_id(client)
    await client.get(f"/catalogs/{catalog_id}")
    await buy(client, alice, LIMITED_MUG, 1)
    mine = await _mug(client, catalog_id, **alice)
    assert [action["id"] for action in mine["actions"]] == ["add_review"]
    assert (await _mug(client, catalog_id))["actions"] == []


async def test_readers_of_a_catalog_being_rendered_wait_for_that_one_render(
        client: httpx.AsyncClient, app: Starlette) -> None:
    catalog_id = await _catalog_id(client)
    _frozen_clock(app)  # a new, empty cache whose entries never expire
    cache: catalog_cache.CatalogCache = app.state.catalog_cache
    answers = await asyncio.gather(*(client.get(f"/catalogs/{catalog_id}")
                                     for _ in range(READERS)))
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.content for answer in answers}) == 1
    assert cache.builds == 1  # one render for every reader that asked meanwhile


async def test_a_stock_change_re_renders_the_item_it_touches_once(
        client: httpx.AsyncClient, app: Starlette) -> None:
    catalog_id = await _catalog_id(client)
    _frozen_clock(app)
    cache: catalog_cache.CatalogCache = app.state.catalog_cache
    before = (await client.get(f"/catalogs/{catalog_id}")).json()
    async with app.state.db.transaction() as tx:
        assert await catalog_storage.decrement_stock(tx, LIMITED_MUG, "", 10)  # all of it
    answers = await asyncio.gather(*(client.get(f"/catalogs/{catalog_id}")
                                     for _ in range(READERS)))
    assert len({answer.content for answer in answers}) == 1
    # One more render for all the readers, and it brought the kept catalog's stock up to
    # date instead of rendering it whole again.
    assert (cache.builds, cache.restocks) == (2, 1)
    after = answers[0].json()
    mug = {item["id"]: item for item in after["items"]}[LIMITED_MUG]
    was = {item["id"]: item for item in before["items"]}[LIMITED_MUG]
    assert was["available"] is True and mug["available"] is False
    others = [item for item in after["items"] if item["id"] != LIMITED_MUG]
    assert others == [item for item in before["items"] if item["id"] != LIMITED_MUG]
    # A change of the items themselves drops the kept catalogs: the next read renders whole.
    async with app.state.db.transaction() as tx:
        tx.notify(catalog_storage.CHANGED)  # what every writer of items notifies
    assert (await client.get(f"/catalogs/{catalog_id}")).status_code == 200
    assert (cache.builds, cache.restocks) == (3, 1)
