"""Live order events for every SSE watcher in this process, from one reader.

The feed remembers, for each order someone watches, the last event number (`seq`) it handed
out and, whenever a change commits here (`Database.signal`: on PostgreSQL, a commit of any
process) or the poll interval passes (changes of other processes on SQLite; a safety net on
PostgreSQL), reads what is new for those orders at once (one query per CHUNK watched orders)
and hands each event to the watchers of its order. Per order, not by a global cursor: on
PostgreSQL writes of different orders commit concurrently, in any order, while one order's
events are numbered under its row lock, so they commit in number order without gaps. Many
watchers of one order cost one query per change, and each event is encoded once, shared by
every watcher.

A watcher's queue is bounded: a watcher too slow to keep up is dropped (its stream ends) and
its client resumes with Last-Event-ID from the stored journal, so memory stays bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette

from commerce_agent.background import running
from commerce_agent.commerce.orders.events import ORDER_EVENTS
from commerce_agent.commerce.storage import order_events as storage
from commerce_agent.db import Database

BATCH = 500
CHUNK = 100  # watched orders per query
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OrderEvent:
    seq: int
    status: str
    frame: bytes  # the whole SSE event, ready to send


def frame(seq: int, patch: str | list[dict[str, Any]]) -> bytes:
    data = patch if isinstance(patch, str) else json.dumps(patch, separators=(",", ":"),
                                                           ensure_ascii=False)
    return f"id: {seq}\nevent: order.patch\ndata: {data}\n\n".encode()


DROPPED = OrderEvent(-1, "", b"")  # the watcher fell too far behind


class Watcher:
    def __init__(self, order_id: str, capacity: int) -> None:
        self.order_id = order_id
        self.queue: asyncio.Queue[OrderEvent] = asyncio.Queue(capacity)

    def offer(self, event: OrderEvent) -> bool:
        """Queue `event`; False (and only DROPPED left in the queue) when it is full."""
        try:
            self.queue.put_nowait(event)
            return True
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(DROPPED)
            return False


# Seconds between reads when no commit was signalled: other processes' commits on SQLite
# (where they are signalled too, PostgreSQL, Database.poll_seconds makes it a safety net).
POLL_SECONDS = 0.25


class OrderFeed:
    def __init__(self, db: Database, *, poll_interval: float | None = None,
                 capacity: int = 256) -> None:
        self.db = db
        self.poll_interval = db.poll_seconds(POLL_SECONDS) if poll_interval is None \
            else poll_interval
        self.capacity = capacity
        self._watchers: dict[str, set[Watcher]] = {}
        self._seen: dict[str, int] = {}  # watched order → the last seq handed out
        self._lock = asyncio.Lock()
        self._someone_watches = asyncio.Event()

    @contextlib.asynccontextmanager
    async def watch(self, order_id: str) -> AsyncIterator[Watcher]:
        """Events of `order_id` committed from now on. Read the stored journal *after*
        entering, so nothing falls between that read and the live events."""
        watcher = Watcher(order_id, self.capacity)
        async with self._lock:
            if order_id not in self._seen:
                self._seen[order_id] = await storage.latest_seq(self.db, order_id)
            self._watchers.setdefault(order_id, set()).add(watcher)
            self._someone_watches.set()
        try:
            yield watcher
        finally:
            self._forget(watcher)

    def _forget(self, watcher: Watcher) -> None:
        watchers = self._watchers.get(watcher.order_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.order_id]
                self._seen.pop(watcher.order_id, None)
        if not self._watchers:
            self._someone_watches.clear()

    def watcher_count(self) -> int:
        return sum(len(watchers) for watchers in self._watchers.values())

    async def dispatch(self) -> int:
        """Read what committed since the last read and hand it out; returns events read."""
        read = 0
        async with self._lock:
            orders = list(self._seen)
            for start in range(0, len(orders), CHUNK):
                while True:
                    seen = {order_id: self._seen[order_id]
                            for order_id in orders[start:start + CHUNK]
                            if order_id in self._seen}  # watchers may leave while we read
                    rows = await storage.after_each(self.db, seen, BATCH)
                    for row in rows:
                        self._hand_out(row)
                    read += len(rows)
                    if len(rows) < BATCH:
                        break
        return read

    def _hand_out(self, row: Any) -> None:
        order_id, seq = str(row["order_id"]), int(row["seq"])
        if seq <= self._seen.get(order_id, seq):
            return  # the order is no longer watched (or this was handed out already)
        self._seen[order_id] = seq
        event = OrderEvent(seq, str(row["status"]), frame(seq, str(row["patch"])))
        for watcher in list(self._watchers.get(order_id, ())):
            if not watcher.offer(event):
                self._forget(watcher)

    async def run(self) -> None:
        signal = self.db.signal(ORDER_EVENTS)
        while True:
            await self._someone_watches.wait()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(signal.wait(), self.poll_interval)
            signal.clear()
            try:
                await self.dispatch()
            except Exception:  # a failed read must not end every stream: the next one retries
                log.exception("order feed: reading new order events failed")
                await asyncio.sleep(self.poll_interval)


@contextlib.asynccontextmanager
async def order_feed_worker(app: Starlette) -> AsyncIterator[None]:
    """Runs the app's feed while the app runs (create_app's background workers)."""
    feed: OrderFeed = app.state.order_feed
    async with running(feed.run()):
        yield
