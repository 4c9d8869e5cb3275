"""The live part of GET /orders/{id}/updates (commerce/orders/updates.py), driven directly:
the body generator over the real journal and an OrderFeed whose reads the test makes (so no
stream is left open and nothing waits on a clock). After the snapshot or the replay come the
live events, a heartbeat while nothing happens, the journal read again when the feed skipped
an event, the end of the stream when the watcher falls behind, and `close` with the final
status. Whatever the order went through, applying the patches received to the first
snapshot gives the order GET /orders/{id} answers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import jsonpatch
import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette

from commerce_agent.commerce.orders.feed import OrderEvent, OrderFeed, frame
from commerce_agent.commerce.orders.model import TERMINAL
from commerce_agent.commerce.orders.updates import (
    HEARTBEAT,
    RETRY_MILLISECONDS,
    close_frame,
    order_updates,
    parse_last_event_id,
)
from commerce_agent.commerce.storage import order_events
from tests.support.lifecycle_support import advance, get_order, mug_order
from tests.support.sse import Event, Parser, parse

HEARTBEAT_SECONDS = 0.02
RETRY_LINE = f"retry: {RETRY_MILLISECONDS}\n\n".encode()  # every stream's first chunk


class Stream:
    """One updates body, read chunk by chunk, each read bounded in time."""

    def __init__(self, body: AsyncIterator[bytes]) -> None:
        self.body = body
        self.parser = Parser()
        self.doc: Any = None
        self.last_id = 0

    async def chunk(self) -> bytes:
        return await asyncio.wait_for(anext(self.body), 5)

    async def event(self) -> Event:
        """The next event (comments skipped), applied to the rebuilt order if a patch."""
        while True:
            found = [
                event
                for line in (await self.chunk()).decode().split("\n")
                if (event := self.parser.feed(line))
            ]
            if found:
                [event] = found
                if event.event == "order.patch":
                    assert int(event.id or 0) > self.last_id, "ids only grow"
                    self.last_id = int(event.id or 0)
                    self.doc = jsonpatch.apply_patch(self.doc, event.patch)
                return event

    async def ended(self) -> bool:
        try:
            await asyncio.wait_for(anext(self.body), 5)
        except StopAsyncIteration:
            return True
        return False


def open_stream(
    app: Starlette,
    feed: OrderFeed,
    order_id: str,
    last_event_id: int | None = None,
    owner: str = "user_alice",
) -> Stream:
    return Stream(
        order_updates(app.state.db, feed, order_id, owner, last_event_id, HEARTBEAT_SECONDS)
    )


async def start(stream: Stream) -> Event:
    assert await stream.chunk() == RETRY_LINE
    return await stream.event()


async def latest(app: Starlette, order_id: str) -> int:
    return await order_events.latest_seq(app.state.db, order_id)


async def assert_closes(stream: Stream, status: str) -> None:
    """The `close` event with the order's final status, and the end of the stream."""
    closing = await stream.event()
    assert (closing.event, json.loads(closing.data)) == ("close", {"status": status})
    assert await stream.ended()


async def watch_new_order(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], feed: OrderFeed
) -> tuple[str, Stream, Event]:
    """A new order of Alice's and its updates stream through `feed`, read past the snapshot."""
    order_id = (await mug_order(client, alice))["id"]
    stream = open_stream(app, feed, order_id)
    return order_id, stream, await start(stream)


async def test_live_events_follow_the_snapshot_and_close_ends_the_stream(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    feed = OrderFeed(app.state.db)
    order_id, stream, snapshot = await watch_new_order(app, client, alice, feed)
    assert snapshot.id == str(await latest(app, order_id))
    assert snapshot.patch[0]["path"] == "" and stream.doc == await get_order(
        client, alice, order_id
    )
    # Nothing happens: heartbeats, and the stream stays open.
    for _ in range(2):
        assert await stream.chunk() == HEARTBEAT
    while stream.doc["status"] != "completed":
        await advance(app, order_id)
        assert await feed.dispatch() >= 1
        while stream.last_id < await latest(app, order_id):  # a move may write several
            assert (await stream.event()).event == "order.patch"
        assert stream.doc == await get_order(client, alice, order_id)
    await assert_closes(stream, "completed")
    assert feed.watcher_count() == 0  # the watcher left with the stream


async def test_a_skipped_event_is_read_from_the_journal(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    """A live event further on than the next one: what lies between is replayed first."""
    feed = OrderFeed(app.state.db)
    order_id, stream, _ = await watch_new_order(app, client, alice, feed)
    first = await latest(app, order_id)
    for _ in range(2):
        await advance(app, order_id)
    rows = await order_events.after(app.state.db, order_id, first, 10)
    assert [int(row["seq"]) for row in rows] == [first + 1, first + 2]
    # Only the later one reaches the watcher.
    [watcher] = feed._watchers[order_id]
    watcher.offer(
        OrderEvent(first + 2, str(rows[1]["status"]), frame(first + 2, str(rows[1]["patch"])))
    )
    assert (await stream.event()).id == str(first + 1)
    assert (await stream.event()).id == str(first + 2)
    assert stream.doc == await get_order(client, alice, order_id)
    # An event already sent (the feed and the replay overlap) is not sent twice.
    watcher.offer(OrderEvent(first + 1, "", b"never sent"))
    assert await stream.chunk() == HEARTBEAT


async def test_a_watcher_that_falls_behind_ends_its_stream_and_resumes_from_the_journal(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    feed = OrderFeed(app.state.db, capacity=1)
    order_id, stream, _ = await watch_new_order(app, client, alice, feed)
    resume_from = stream.last_id
    before = stream.doc
    for _ in range(2):
        await advance(app, order_id)
        await feed.dispatch()
    assert await stream.ended()  # DROPPED: no close frame, the client reconnects
    assert stream.doc == before
    resumed = open_stream(app, OrderFeed(app.state.db), order_id, resume_from)
    resumed.doc = before
    assert await resumed.chunk() == RETRY_LINE
    for _ in range(2):
        await resumed.event()
    assert resumed.last_id == await latest(app, order_id)
    assert resumed.doc == await get_order(client, alice, order_id)


async def test_another_owners_order_streams_nothing(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    order_id = (await mug_order(client, alice))["id"]
    stream = open_stream(app, OrderFeed(app.state.db), order_id, owner="user_bob")
    assert await stream.chunk() == RETRY_LINE
    assert await stream.ended()


async def test_a_cancel_while_watching_closes_with_cancelled(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    feed = OrderFeed(app.state.db)
    order_id, stream, _ = await watch_new_order(app, client, alice, feed)
    cancelled = await client.post(f"/orders/{order_id}/cancel", headers=alice)
    assert cancelled.status_code == 200, cancelled.text
    await feed.dispatch()
    patch = await stream.event()
    assert {"op": "replace", "path": "/status", "value": "cancelled"} in patch.patch
    assert stream.doc == await get_order(client, alice, order_id)
    await assert_closes(stream, "cancelled")


async def test_a_last_event_id_in_latin_1_digits_is_unknown_not_an_error(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    """ "²" (byte B2) is a digit to str.isdigit but not to int(): it was a 500."""
    order_id = (await mug_order(client, alice))["id"]
    await advance(app, order_id, "completed")
    for raw in (b"\xb2", b"1\xb9", b"\xbd", b" 3\xb3 "):
        response = await client.get(
            f"/orders/{order_id}/updates", headers={**alice, "Last-Event-ID": raw}
        )
        assert response.status_code == 200, (raw, response.text)
        events, _ = parse(response.text)
        assert events[0].patch[0]["path"] == ""  # the whole order: an unknown id
        assert [event.event for event in events] == ["order.patch", "close"]


@pytest.mark.parametrize("status", sorted(TERMINAL))
def test_close_frames_say_the_status_as_json(status: str) -> None:
    text = close_frame(status).decode()
    assert text.startswith("event: close\ndata: ") and text.endswith("\n\n")
    assert json.loads(text.split("data: ", 1)[1]) == {"status": status}


@given(value=st.none() | st.text(max_size=25))
def test_a_last_event_id_is_a_plain_number_or_nothing(value: str | None) -> None:
    parsed = parse_last_event_id(value)
    if value is None:
        assert parsed is None
        return
    digits = value.strip()
    if digits.isascii() and digits.isdigit() and len(digits) <= 18:
        assert parsed == int(digits)
    else:
        assert parsed is None


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("7", 7),
        (" 42 ", 42),
        ("0", 0),
        ("999999999999999999", 999999999999999999),
        ("9999999999999999999", None),
        ("-1", None),
        ("1e3", None),
        ("", None),
        ("٣", None),
        ("²", None),
        ("1¹", None),
    ],
)
def test_last_event_ids(value: str, parsed: int | None) -> None:
    assert parse_last_event_id(value) == parsed
