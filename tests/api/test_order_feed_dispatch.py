"""The order feed driven by hand (`dispatch`, no background loop): a watcher hears only what
committed after it started watching, each event once, in number order; watchers of one order
share each event; a slow watcher is dropped rather than held; leaving stops the reads."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.orders.feed import DROPPED, OrderEvent, OrderFeed, Watcher, frame
from tests.support.lifecycle_support import advance, mug_order

pytestmark = pytest.mark.both_backends


def drained(watcher: Watcher) -> list[OrderEvent]:
    found = []
    while not watcher.queue.empty():
        found.append(watcher.queue.get_nowait())
    return found


async def test_a_watcher_hears_only_what_commits_after_it_starts(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    feed = OrderFeed(app.state.db, poll_interval=0.05)
    async with feed.watch(placed["id"]) as watcher:
        assert await feed.dispatch() == 0  # the events of placing it came before
        assert drained(watcher) == []
        await advance(app, placed["id"], "processing")
        assert await feed.dispatch() >= 1
        events = drained(watcher)
        assert events and [event.status for event in events][-1] == "processing"
        seqs = [event.seq for event in events]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        assert all(event.frame.startswith(f"id: {event.seq}\n".encode()) for event in events)
        assert await feed.dispatch() == 0  # each event is handed out once
        assert drained(watcher) == []


async def test_watchers_of_one_order_share_each_event(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    other = await mug_order(client, alice)
    feed = OrderFeed(app.state.db, poll_interval=0.05)
    async with feed.watch(placed["id"]) as first, feed.watch(placed["id"]) as second, \
            feed.watch(other["id"]) as elsewhere:
        assert feed.watcher_count() == 3
        await advance(app, placed["id"], "processing")
        await feed.dispatch()
        heard, also = drained(first), drained(second)
        assert heard and len(heard) == len(also)
        assert all(a is b for a, b in zip(heard, also, strict=True))  # encoded once
        assert drained(elsewhere) == []
    assert feed.watcher_count() == 0


async def test_a_watcher_too_slow_to_keep_up_is_dropped(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    feed = OrderFeed(app.state.db, poll_interval=0.05, capacity=1)
    async with feed.watch(placed["id"]) as slow:
        await advance(app, placed["id"], "processing")
        await advance(app, placed["id"], "in_transit")
        await feed.dispatch()
        assert drained(slow) == [DROPPED]
        assert feed.watcher_count() == 0  # forgotten: its stream ends, the client resumes


async def test_after_the_last_watcher_leaves_nothing_is_read(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    feed = OrderFeed(app.state.db, poll_interval=0.05)
    async with feed.watch(placed["id"]):
        pass
    await advance(app, placed["id"], "processing")
    assert await feed.dispatch() == 0


def test_a_queue_that_overflows_keeps_only_the_drop_marker() -> None:
    watcher = Watcher("ord_1", 2)
    one, two, three = (OrderEvent(n, "confirmed", frame(n, [])) for n in (1, 2, 3))
    assert watcher.offer(one) and watcher.offer(two)
    assert not watcher.offer(three)
    assert drained(watcher) == [DROPPED]


def test_a_frame_is_one_sse_event_with_its_patch() -> None:
    patch = [{"op": "replace", "path": "/status", "value": "en cours é"}]
    assert frame(7, patch) == ('id: 7\nevent: order.patch\ndata: [{"op":"replace",'
                               '"path":"/status","value":"en cours é"}]\n\n').encode()
    assert frame(8, "[]") == b"id: 8\nevent: order.patch\ndata: []\n\n"
