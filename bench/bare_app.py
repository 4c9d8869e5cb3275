"""The ceilings, served by uvicorn exactly like our server: a bare Starlette JSON endpoint, and
a bare Starlette SSE broadcast (a stream starts with an event carrying the current id, like
our snapshot; each POST /publish sends one event to every open stream).

Added for the other ceilings (the routes above are unchanged):
- NDJSON streams like the agent's (bench/agent_journals.py): GET /ndjson?count=N&chunk=C sends
  N small event lines, C per chunk (a replay); GET /ndjson/follow?group=G&lines=K holds a stream
  open (sending a first turn of K lines when K > 0), and each POST /ndjson/poke?group=G&lines=K
  sends one turn of K lines, the last a `session.waiting`, to every open stream of group G;
- webhook deliveries (bench/webhooks.py): POST /webhooks/push {"urls", "count", "concurrency",
  "body"} POSTs `count` signed JSON bodies (the template `body` with a fresh id and timestamp)
  round-robin to `urls`, `concurrency` at a time on one shared httpx.AsyncClient, and answers
  when every one has been answered."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from functools import lru_cache

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


NDJSON = "application/x-ndjson; charset=utf-8"
_groups: dict[str, set[asyncio.Queue[bytes]]] = {}
_turns: dict[str, int] = {}  # stream index of the next line, per group


def _delta(index: int) -> bytes:
    return (f'{{"type":"agent.content.delta","data":{{"text":"fragment {index} "}},'
            f'"streamIndex":{index}}}\n').encode()


@lru_cache(maxsize=8)
def _replay_lines(count: int) -> tuple[bytes, ...]:
    """Like a stored journal: the lines are encoded once, then only read."""
    return tuple(_delta(index) for index in range(count))


def _turn(group: str, lines: int) -> bytes:
    """`lines` event lines of one turn, ending with `session.waiting`."""
    first = _turns.get(group, 0)
    _turns[group] = first + lines
    last = first + lines - 1
    return b"".join([*map(_delta, range(first, last)),
                     f'{{"type":"session.waiting","streamIndex":{last}}}\n'.encode()])


async def ndjson(request: Request) -> StreamingResponse:
    count = int(request.query_params.get("count", "10000"))
    chunk = max(1, int(request.query_params.get("chunk", "500")))

    async def body() -> AsyncIterator[bytes]:
        lines = _replay_lines(count)
        for start in range(0, count, chunk):
            yield b"".join(lines[start:start + chunk])

    return StreamingResponse(body(), media_type=NDJSON)


async def ndjson_follow(request: Request) -> StreamingResponse:
    group = request.query_params.get("group", "")
    lines = int(request.query_params.get("lines", "0"))
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    streams = _groups.setdefault(group, set())
    streams.add(queue)  # before the answer starts: a poke after it is never missed
    if lines > 0:
        queue.put_nowait(_turn(group, lines))

    async def body() -> AsyncIterator[bytes]:
        try:
            while True:
                yield await queue.get()
        finally:
            streams.discard(queue)

    return StreamingResponse(body(), media_type=NDJSON)


async def ndjson_poke(request: Request) -> JSONResponse:
    group = request.query_params.get("group", "")
    turn = _turn(group, max(1, int(request.query_params.get("lines", "1"))))
    streams = _groups.get(group, set())
    for queue in streams:
        queue.put_nowait(turn)
    return JSONResponse({"streams": len(streams)})


async def push_webhooks(request: Request) -> JSONResponse:
    import httpx  # here, not at import: the other ceilings' RSS stays as it was

    order = await request.json()
    urls: list[str] = order["urls"]
    count, concurrency = int(order["count"]), int(order["concurrency"])
    template: dict[str, object] = order["body"]
    secret = b"bare-webhook-secret"
    statuses: dict[int, int] = {}
    next_index = iter(range(count))

    def signed(index: int) -> tuple[bytes, dict[str, str]]:
        now = time.time()
        event_id = f"evt_bare_{index}"
        stamp = datetime.fromtimestamp(now, UTC).isoformat(timespec="milliseconds")
        body = json.dumps({**template, "id": event_id, "timestamp": stamp.replace(
            "+00:00", "Z")}, separators=(",", ":")).encode()
        seconds = str(int(now))
        standard = base64.b64encode(hmac.digest(
            secret, f"{event_id}.{seconds}.".encode() + body, hashlib.sha256)).decode()
        return body, {
            "Content-Type": "application/json", "User-Agent": "bare-starlette/1.0",
            "webhook-id": event_id, "webhook-timestamp": seconds,
            "webhook-signature": f"v1,{standard}", "X-Commerce-Webhook-Event": "bare",
            "X-Commerce-Webhook-ID": event_id, "X-Commerce-Webhook-Timestamp": seconds,
            "X-Commerce-Webhook-Signature": hmac.new(secret, body, hashlib.sha256).hexdigest()}

    async def sender(client: httpx.AsyncClient) -> None:
        for index in next_index:
            body, headers = signed(index)
            try:  # sent and read as our sender does (commerce/services/webhooks/sender.py)
                async with client.stream("POST", urls[index % len(urls)], content=body,
                                         headers=headers) as response:
                    status = response.status_code
                    async for _ in response.aiter_raw():
                        pass
            except httpx.HTTPError:
                status = 0
            statuses[status] = statuses.get(status, 0) + 1

    started = time.perf_counter()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(follow_redirects=False, limits=limits, trust_env=False,
                                 timeout=30) as client:
        await asyncio.gather(*(sender(client) for _ in range(concurrency)))
    return JSONResponse({"sent": count, "seconds": time.perf_counter() - started,
                         "statuses": {str(code): n for code, n in statuses.items()}})


app = Starlette(routes=[Route("/catalogs/bare", hello), Route("/events", events),
                        Route("/publish", publish, methods=["POST"]),
                        Route("/ndjson", ndjson), Route("/ndjson/follow", ndjson_follow),
                        Route("/ndjson/poke", ndjson_poke, methods=["POST"]),
                        Route("/webhooks/push", push_webhooks, methods=["POST"])])
