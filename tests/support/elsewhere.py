"""A test's database, on either backend, reached the way another process would: its own
Database (own connections, own transactions, no in-process signals), opened in a thread of its
own, so synchronous code can call it and an async test's loop never waits on it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from commerce_agent.db import database_for

Params = Mapping[str, Any] | None  # by the names of the statement's :name placeholders


async def _read(target: str, sql: str, params: Params) -> list[dict[str, Any]]:
    db = database_for(target, synchronous="OFF")
    await db.open()
    try:
        return [dict(row) for row in await db.fetch_all(sql, params)]
    finally:
        await db.close()


def read_all(target: str, sql: str, params: Params = None) -> list[dict[str, Any]]:
    """The rows of `sql` (`:named` parameters) in the database `target` names, as dicts."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _read(target, sql, params)).result()


async def _write(target: str, sql: str, params: Params) -> int:
    db = database_for(target, synchronous="OFF")
    await db.open()
    try:
        async with db.transaction() as tx:
            return await tx.execute(sql, params)
    finally:
        await db.close()


def write(target: str, sql: str, params: Params = None) -> int:
    """Run one write statement (`:named` parameters) in a transaction of its own, notifying
    nobody, as another process's connection would; the rows it changed."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _write(target, sql, params)).result()


def read_one(target: str, sql: str, params: Params = None) -> dict[str, Any]:
    rows = read_all(target, sql, params)
    assert rows, f"no row for {sql!r}"
    return rows[0]
