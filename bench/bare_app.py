"""The ceilings, served by uvicorn exactly like our server: a bare Starlette JSON endpoint, and
a bare Starlette SSE broadcast (a stream starts with an event carrying the current id, like
our snapshot; each POST /publish sends one event to every open stream)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

_streams: set[asyncio.Queue[bytes]] = set()
_published = 0


async def hello(request: Request) -> JSONResponse:
    return JSONResponse({"id": "cat_bare", "name": "Bare Starlette", "items": []})


async def events(request: Request) -> StreamingResponse:
    queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def body() -> AsyncIterator[bytes]:
        _streams.add(queue)
        try:
            yield b"retry: 3000\n\n" + _frame(_published)
            while True:
                yield await queue.get()
        finally:
            _streams.discard(queue)

    return StreamingResponse(body(), media_type="text/event-stream")


def _frame(event_id: int) -> bytes:
    return (f"id: {event_id}\nevent: order.patch\ndata: [{{\"op\":\"replace\","
            f"\"path\":\"/updatedAt\",\"value\":\"{event_id}\"}}]\n\n").encode()


async def publish(request: Request) -> Response:
    global _published
    _published += 1
    frame = _frame(_published)
    for queue in _streams:
        queue.put_nowait(frame)
    return JSONResponse({"published": _published, "streams": len(_streams)})


app = Starlette(routes=[Route("/catalogs/bare", hello), Route("/events", events),
                        Route("/publish", publish, methods=["POST"])])
