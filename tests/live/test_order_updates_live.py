"""GET /orders/{id}/updates against real `commerce-agent serve` processes: following an order to
the end, resuming with Last-Event-ID, changes made by another process, a server restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.support.helpers import buy
from tests.support.live import LiveServer, cli, start_live_server, user_token
from tests.support.sse import Event, apply, watch

pytestmark = pytest.mark.both_backends

HARD_TIMEOUT = 60.0


def advance(db_path: str, order_id: str) -> str:
    """The merchant command, in its own process."""
    return cli("orders", "advance", order_id, "--db", db_path)


async def serve(servers: list[LiveServer], db_path: str, args: list[str] | None = None
                ) -> tuple[LiveServer, httpx.AsyncClient, dict[str, str]]:
    """A live server (stopped after the test), a client for it, and Alice's headers."""
    server = start_live_server(db_path, args)
    servers.append(server)
    headers = {"Authorization": f"Bearer {user_token(server.db_path)}"}
    return server, httpx.AsyncClient(base_url=server.url, timeout=30), headers


async def test_a_watcher_follows_an_order_to_completed(servers: list[LiveServer],
                                                       make_db: Callable[[str], str]) -> None:
    _, http, headers = await serve(servers, make_db("follow.db"),
                                   ["--simulate", "--simulate-speed", "400"])
    async with http, asyncio.timeout(HARD_TIMEOUT):
        order = await buy(http, headers)
        async with watch(http, order["id"], headers) as stream:
            while (await stream.next(30)).event != "close":
                pass
        doc = apply(None, stream.events)
        assert doc == (await http.get(f"/orders/{order['id']}", headers=headers)).json()
        assert doc["status"] == "completed"
        statuses = [op["value"] for event in stream.events[1:-1] for op in event.patch
                    if op["path"] == "/status"]
        assert statuses[-1] == "completed" and len(stream.events) >= 3
        ids = [int(event.id or 0) for event in stream.events[:-1]]
        assert ids == list(range(ids[0], ids[0] + len(ids)))
        assert stream.parser.retry == 3000


async def test_resume_after_a_disconnect_loses_nothing(servers: list[LiveServer],
                                                       make_db: Callable[[str], str]) -> None:
    db_path = make_db("resume.db")
    server, http, headers = await serve(servers, db_path)
    async with http, asyncio.timeout(HARD_TIMEOUT):
        order = await buy(http, headers)
        seen: list[Event] = []
        async with watch(http, order["id"], headers) as stream:
            seen.append(await stream.next())
            # A change committed by another process reaches the open stream.
            await asyncio.to_thread(advance, db_path, order["id"])
            seen.append(await stream.next())
            last = stream.last_id
        # Disconnected: two more moves happen meanwhile.
        await asyncio.to_thread(advance, db_path, order["id"])
        await asyncio.to_thread(advance, db_path, order["id"])
        async with watch(http, order["id"], headers, last) as stream:
            while (await stream.next()).event != "close":
                pass
        missed = stream.events
        assert int(missed[0].id or 0) == int(last) + 1
        doc = apply(None, seen + missed)
        assert doc == (await http.get(f"/orders/{order['id']}", headers=headers)).json()
        assert doc["status"] == "completed"


async def test_missed_events_are_replayed_after_a_server_restart(
        servers: list[LiveServer], make_db: Callable[[str], str]) -> None:
    db_path = make_db("restart.db")
    server, http, headers = await serve(servers, db_path)
    async with http, asyncio.timeout(HARD_TIMEOUT):
        order = await buy(http, headers)
        async with watch(http, order["id"], headers) as stream:
            first = await stream.next()
    server.kill()
    await asyncio.to_thread(advance, db_path, order["id"])
    restarted = start_live_server(db_path, port=server.port)
    servers.append(restarted)
    async with httpx.AsyncClient(base_url=restarted.url, timeout=30) as http, \
            asyncio.timeout(HARD_TIMEOUT):
        async with watch(http, order["id"], headers, first.id) as stream:
            missed = await stream.next()
        assert int(missed.id or 0) == int(first.id or 0) + 1
        doc: dict[str, Any] = apply(None, [first, missed])
        assert doc == (await http.get(f"/orders/{order['id']}", headers=headers)).json()
        assert doc["status"] == "processing"


async def test_an_idle_stream_sends_heartbeats(servers: list[LiveServer],
                                               make_db: Callable[[str], str]) -> None:
    _, http, headers = await serve(servers, make_db("beat.db"),
                                   ["--no-simulate", "--sse-heartbeat", "0.2"])
    async with http, asyncio.timeout(HARD_TIMEOUT):
        order = await buy(http, headers)
        async with watch(http, order["id"], headers) as stream:
            lines = [line async for line in _until_comment(stream.response)]
        assert lines[-1] == ": heartbeat"
        assert any(line.startswith("event: order.patch") for line in lines)


async def _until_comment(response: httpx.Response) -> AsyncIterator[str]:
    async for line in response.aiter_lines():
        yield line
        if line.startswith(":"):
            return


async def test_ctrl_c_with_open_streams_exits_cleanly(servers: list[LiveServer],
                                                      make_db: Callable[[str], str]) -> None:
    server, http, headers = await serve(servers, make_db("stop.db"))
    async with http, asyncio.timeout(HARD_TIMEOUT):
        order = await buy(http, headers)
        async with watch(http, order["id"], headers) as stream:
            await stream.next()
            server.stop()  # SIGINT, as Ctrl-C; waits for the exit
    assert server.process.returncode == 0, server.output()
