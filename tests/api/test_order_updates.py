"""GET /orders/{id}/updates in-process (finished orders give finite streams), and the feed that
hands live events to watchers."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.orders import feed as order_feed
from commerce_agent.commerce.orders.feed import DROPPED, OrderFeed
from commerce_agent.commerce.storage import order_events as storage
from tests.support.helpers import assert_error
from tests.support.lifecycle_support import advance, get_order, kitchen_order, mug_order
from tests.support.sse import apply, parse, updates

pytestmark = pytest.mark.both_backends


async def _latest_seq(app: Starlette, order_id: str) -> int:
    row = await app.state.db.fetch_one(
        "SELECT MAX(seq) AS seq FROM order_events WHERE order_id = :id", {"id": order_id})
    return int(row["seq"])


async def _walk_to_completed(app: Starlette, client: httpx.AsyncClient,
                             headers: dict[str, str], order_id: str
                             ) -> dict[int, dict[str, Any]]:
    """Advance the order step by step; the order as GET shows it after each event number."""
    seen = {await _latest_seq(app, order_id): await get_order(client, headers, order_id)}
    while seen[max(seen)]["status"] != "completed":
        await advance(app, order_id)
        seen[await _latest_seq(app, order_id)] = await get_order(client, headers, order_id)
    return seen


async def test_a_finished_order_streams_a_snapshot_then_close(client: httpx.AsyncClient,
                                                              app: Starlette,
                                                              alice: dict[str, str]) -> None:
    order = await mug_order(client, alice)
    await advance(app, order["id"], "completed")
    response = await updates(client, alice, order["id"])
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    events, parser = parse(response.text)
    assert parser.retry == 3000
    assert [event.event for event in events] == ["order.patch", "close"]
    snapshot = events[0]
    assert snapshot.id == str(await _latest_seq(app, order["id"]))
    assert snapshot.patch[0]["op"] == "replace" and snapshot.patch[0]["path"] == ""
    assert apply(None, events) == await get_order(client, alice, order["id"])
    assert events[1].data == '{"status": "completed"}' and events[1].id is None


async def test_replay_from_every_event_id_rebuilds_the_order(client: httpx.AsyncClient,
                                                             app: Starlette,
                                                             alice: dict[str, str]) -> None:
    order = await mug_order(client, alice)
    seen = await _walk_to_completed(app, client, alice, order["id"])
    final = seen[max(seen)]
    assert len(seen) >= 4  # confirmed, processing, in_transit…, completed
    for seq, doc in seen.items():
        events, _ = parse((await updates(client, alice, order["id"], str(seq))).text)
        patches = [event for event in events if event.event == "order.patch"]
        assert [int(event.id or 0) for event in patches] == list(range(seq + 1, max(seen) + 1))
        assert apply(doc, patches) == final
        assert events[-1].event == "close"
        # Each stored patch names metadata by its base key, never with @version.
        assert all("@" not in op["path"] for event in patches for op in event.patch)


@pytest.mark.parametrize("last_event_id", ["0", "99999", "abc", "-1", "1e3", ""])
async def test_an_unknown_last_event_id_gets_the_whole_order(client: httpx.AsyncClient,
                                                             app: Starlette,
                                                             alice: dict[str, str],
                                                             last_event_id: str) -> None:
    order = await kitchen_order(client, alice)
    await advance(app, order["id"], "completed")
    events, _ = parse((await updates(client, alice, order["id"], last_event_id)).text)
    assert events[0].patch[0]["path"] == "" and len(events) == 2
    assert apply(None, events) == await get_order(client, alice, order["id"])


async def test_a_cancelled_order_closes_with_its_status(client: httpx.AsyncClient,
                                                        alice: dict[str, str]) -> None:
    order = await mug_order(client, alice)
    assert (await client.post(f"/orders/{order['id']}/cancel", headers=alice)).status_code == 200
    events, _ = parse((await updates(client, alice, order["id"], "1")).text)
    assert [event.event for event in events] == ["order.patch", "close"]
    assert events[0].id == "2" and {"op": "replace", "path": "/status",
                                    "value": "cancelled"} in events[0].patch
    assert events[1].data == '{"status": "cancelled"}'


async def test_streams_belong_to_the_order_owner(client: httpx.AsyncClient,
                                                 alice: dict[str, str],
                                                 bob: dict[str, str]) -> None:
    order = await mug_order(client, alice)
    assert_error(await updates(client, bob, order["id"]), 404, "order_not_found")
    assert_error(await updates(client, alice, "ord_nope"), 404, "order_not_found")
    unauthenticated = await client.get(f"/orders/{order['id']}/updates")
    assert_error(unauthenticated, 401, "unauthorized")


async def test_a_slow_watcher_is_dropped_not_buffered(client: httpx.AsyncClient,
                                                      app: Starlette,
                                                      alice: dict[str, str]) -> None:
    order_id = (await mug_order(client, alice))["id"]
    feed = OrderFeed(app.state.db, capacity=2)
    async with feed.watch(order_id) as slow, feed.watch(order_id) as keeping_up:
        for _ in range(3):
            await advance(app, order_id)
            await feed.dispatch()
            while not keeping_up.queue.empty():
                event = keeping_up.queue.get_nowait()
                assert event is not DROPPED
        assert slow.queue.qsize() == 1 and slow.queue.get_nowait() is DROPPED
        assert feed.watcher_count() == 1  # only the one that kept up is still fed


async def test_many_watchers_cost_one_read_per_change(client: httpx.AsyncClient,
                                                      app: Starlette, alice: dict[str, str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    order_id = (await mug_order(client, alice))["id"]
    other = await mug_order(client, alice)
    reads: list[int] = []
    original = storage.after_each

    async def counted(db: Any, seen: dict[str, int], limit: int) -> Any:
        reads.append(len(seen))
        return await original(db, seen, limit)

    monkeypatch.setattr(order_feed.storage, "after_each", counted)
    feed = OrderFeed(app.state.db)
    async with asyncio.timeout(10):
        contexts = [feed.watch(order_id) for _ in range(200)]
        watchers = [await context.__aenter__() for context in contexts]
        async with feed.watch(other["id"]) as bystander:
            for _ in range(3):
                await advance(app, order_id)
                await feed.dispatch()
            assert len(reads) == 3
            assert all(watcher.queue.qsize() >= 3 for watcher in watchers)
            frames = {id(watcher.queue.get_nowait().frame) for watcher in watchers}
            assert len(frames) == 1  # encoded once, shared by every watcher
            assert bystander.queue.empty()
        for context in contexts:
            await context.__aexit__(None, None, None)
    assert feed.watcher_count() == 0
