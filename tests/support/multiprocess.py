"""Helpers for the multi-process tests: one store (a SQLite file or a PostgreSQL database)
served by several live `commerce-agent serve` processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from commerce_agent.db import Database, database_for
from tests.support.live import LiveServer, start_live_server, user_token


async def start_servers(target: str, count: int, args: list[str]) -> list[LiveServer]:
    """`count` servers on one store, started at the same moment: migrations and seeding must
    hold when several processes open an empty store together."""
    # Processes starting together migrate and seed under one lock, so on a busy machine the
    # last of them answers well after a lone server would.
    return list(await asyncio.gather(*(asyncio.to_thread(start_live_server, target, args,
                                                         timeout=90.0)
                                       for _ in range(count))))


async def bearer(target: str, email: str = "alice@example.com") -> dict[str, str]:
    return {"Authorization": f"Bearer {await asyncio.to_thread(user_token, target, email)}"}


@asynccontextmanager
async def opened_store(target: str) -> AsyncIterator[Database]:
    """The store itself, for checks the API does not show (stock left, rows of the outbox)."""
    database = database_for(target)
    await database.open()
    try:
        yield database
    finally:
        await database.close()


async def one_value(target: str, sql: str, params: dict[str, Any] | None = None) -> Any:
    async with opened_store(target) as database:
        row = await database.fetch_one(sql, params or {})
    assert row is not None, sql
    return row[0]
