"""A webhook receiver (a live uvicorn on a free port) and reading what the outbox stored
and delivered."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
from starlette.applications import Starlette

from commerce_agent.db import Database
from commerce_agent.settings import Settings

HARD_TIMEOUT = 15.0



@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names lower-cased
    body: bytes
    status: int  # what the receiver answered

    @property
    def event(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(self.body)
        return found



@dataclass
class Answer:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False  # never answer (until the receiver closes)



class Receiver:
    """Records every request; answers with the queued answers first, then `default`."""

    def __init__(self, default: Answer | None = None) -> None:
        self.default = default or Answer()
        self.queue: list[Answer] = []
        self.requests: list[Received] = []
        self._arrived = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[Any]] = set()
        self._release = asyncio.Event()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def __aenter__(self) -> Receiver:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._release.set()
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.close()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        handler = asyncio.current_task()
        assert handler is not None
        self._handlers.add(handler)
        try:
            while line := await reader.readline():
                headers: dict[str, str] = {}
                while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = header.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                answer = self.queue.pop(0) if self.queue else self.default
                if answer.hang:
                    await self._release.wait()
                    break
                self.requests.append(Received(line.decode().split()[1], headers, body,
                                              answer.status))
                extra = "".join(f"{name}: {value}\r\n" for name, value in answer.headers.items())
                writer.write(f"HTTP/1.1 {answer.status} X\r\nContent-Length: 0\r\n{extra}\r\n"
                             .encode())
                await writer.drain()
                self._arrived.set()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            self._handlers.discard(handler)
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def wait_for(self, ready: Callable[[list[Received]], bool],
                       timeout: float = HARD_TIMEOUT) -> list[Received]:
        async with asyncio.timeout(timeout):
            while not ready(self.requests):
                self._arrived.clear()
                await self._arrived.wait()
        return self.requests

    def accepted(self) -> list[Received]:
        return [request for request in self.requests if 200 <= request.status < 300]



def quick(settings: Settings) -> Settings:
    """Quick retries and a short timeout, so failure paths finish fast."""
    return msgspec.structs.replace(settings, webhook_retry_base_seconds=0.05,
                                   webhook_timeout_seconds=2.0)



async def subscribe(client: httpx.AsyncClient, headers: dict[str, str], url: str,
                    events: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    response = await client.post("/webhooks", headers=headers,
                                 json={"url": url, "events": events or ["*"], **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created



def is_postgres(db: Database) -> bool:
    return db.path.startswith(("postgres://", "postgresql://"))



async def stored_events(db: Database) -> dict[str, tuple[str, bytes]]:
    """Every emitted event in the order it was stored: id → (name, exact body)."""
    # Events are only ever inserted: rowid (SQLite) and ctid (PostgreSQL) follow that order,
    # where created_at ties within a millisecond.
    order = "ctid" if is_postgres(db) else "rowid"
    rows = await db.fetch_all(
        f"SELECT id, event, body FROM webhook_events ORDER BY {order}")  # noqa: S608
    return {row["id"]: (row["event"], bytes(row["body"])) for row in rows}



async def deliveries(db: Database, subscription_id: str) -> list[dict[str, Any]]:
    rows = await db.fetch_all(
        "SELECT * FROM webhook_deliveries WHERE subscription_id = :subscription "
        "ORDER BY created_at, id", {"subscription": subscription_id})
    return [dict(row) for row in rows]



async def settled(app: Starlette, subscription_id: str, count: int | None = None
                  ) -> list[dict[str, Any]]:
    """The subscription's deliveries once none is pending (and at least `count` exist)."""
    async with asyncio.timeout(HARD_TIMEOUT):
        while True:
            rows = await deliveries(app.state.db, subscription_id)
            if rows and len(rows) >= (count or 0) and all(
                    row["status"] != "pending" for row in rows):
                return rows
            await asyncio.sleep(0.02)
