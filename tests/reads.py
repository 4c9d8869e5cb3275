"""Read a test's database, on either backend, from synchronous code (or from a test whose
event loop must not wait on it): the app's own Database, opened in a thread of its own."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from commerce_agent.db import database_for


async def _read(target: str, sql: str, params: Any) -> list[dict[str, Any]]:
    db = database_for(target, synchronous="OFF")
    await db.open()
    try:
        return [dict(row) for row in await db.fetch_all(sql, params)]
    finally:
        await db.close()


def read_all(target: str, sql: str, params: Any = ()) -> list[dict[str, Any]]:
    """The rows of `sql` (`:named` parameters) in the database `target` names, as dicts."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _read(target, sql, params)).result()


def read_one(target: str, sql: str, params: Any = ()) -> dict[str, Any]:
    rows = read_all(target, sql, params)
    assert rows, f"no row for {sql!r}"
    return rows[0]
