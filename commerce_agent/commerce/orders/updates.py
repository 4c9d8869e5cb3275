"""The body of GET /orders/{id}/updates (docs/decisions.md "Order updates stream").

    retry: first; then either the events after Last-Event-ID from the stored journal, or (no
    or unknown id) one root `replace` of the whole order carrying the latest id; then live
    events; a `: heartbeat` comment when idle; `event: close` once the order is completed or
    cancelled, and the end of the stream.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from commerce_agent.commerce.orders import model
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.orders.feed import DROPPED, OrderFeed, frame
from commerce_agent.commerce.storage import order_events as storage
from commerce_agent.db import Database
from commerce_agent.digits import whole_number

RETRY_MILLISECONDS = 3000
REPLAY_BATCH = 200
HEARTBEAT = b": heartbeat\n\n"


def parse_last_event_id(value: str | None) -> int | None:
    if value is None or len(value.strip()) > 18:
        return None
    return whole_number(value.strip())


def close_frame(status: str) -> bytes:
    return f"event: close\ndata: {json.dumps({'status': status})}\n\n".encode()


class _Replay:
    """Stored events from `sent` on, tracking the last id sent and the order's status."""

    def __init__(self, db: Database, order_id: str, sent: int, status: str) -> None:
        self.db, self.order_id, self.sent, self.status = db, order_id, sent, status

    async def upto(self, seq: int | None = None) -> AsyncIterator[bytes]:
        while seq is None or self.sent < seq:
            rows = await storage.after(self.db, self.order_id, self.sent, REPLAY_BATCH)
            for row in rows:
                self.sent, self.status = int(row["seq"]), str(row["status"])
                yield frame(self.sent, str(row["patch"]))
            if len(rows) < REPLAY_BATCH:
                return


async def order_updates(db: Database, feed: OrderFeed, order_id: str, owner_id: str,
                        last_event_id: int | None, heartbeat: float) -> AsyncIterator[bytes]:
    yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    async with feed.watch(order_id) as watcher:
        row = await storage.snapshot(db, order_id, owner_id)
        if row is None:  # deleted meanwhile (seed --reset)
            return
        latest = int(row["seq"])
        replay = _Replay(db, order_id, latest, str(row["status"]))
        if last_event_id is not None and 0 < last_event_id <= latest:
            replay.sent = last_event_id
            async for chunk in replay.upto(latest):
                yield chunk
        else:
            whole = order_view.render(model.decode(row["doc"]))
            yield frame(latest, [{"op": "replace", "path": "", "value": whole}])
        while replay.status not in model.TERMINAL:
            try:
                event = await asyncio.wait_for(watcher.queue.get(), heartbeat)
            except TimeoutError:
                yield HEARTBEAT
                continue
            if event is DROPPED:
                return  # too slow: the client resumes with Last-Event-ID
            if event.seq <= replay.sent:
                continue  # already sent by the replay
            if event.seq > replay.sent + 1:  # never expected; the journal has what is missing
                async for chunk in replay.upto(event.seq - 1):
                    yield chunk
                if event.seq <= replay.sent:
                    continue  # the journal's batch reached this event: sent once already
            replay.sent, replay.status = event.seq, event.status
            yield event.frame
        yield close_frame(replay.status)
