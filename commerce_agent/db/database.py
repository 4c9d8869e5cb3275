"""The SQLite file: one writer connection behind a lock, reader connections for queries.

Every write runs in its own `BEGIN IMMEDIATE` transaction on the writer, so one request's
rollback can never discard another's write. Readers see committed data only (WAL).
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from commerce_agent.db.migrations import apply_migrations

Params = Mapping[str, Any] | Iterable[Any]
AfterCommit = Callable[[], Awaitable[None] | None]
_OPEN_ATTEMPTS = 40


class Transaction:
    """The writer connection inside one open transaction, plus hooks that run after commit."""

    def __init__(self, connection: aiosqlite.Connection,
                 signal: Callable[[str], asyncio.Event]) -> None:
        self.connection = connection
        self._after_commit: list[AfterCommit] = []
        self._signal = signal

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        cursor = await self.connection.execute(sql, params)
        count = cursor.rowcount
        await cursor.close()
        return count

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.connection.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await self.connection.execute_fetchall(sql, params))

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self.connection.executemany(sql, rows)

    def after_commit(self, hook: AfterCommit) -> None:
        """Run `hook` once the transaction has committed (never on rollback)."""
        self._after_commit.append(hook)

    def notify(self, topic: str) -> None:
        """Wake this process's waiters on `topic` once the transaction has committed."""
        self.after_commit(self._signal(topic).set)


class Database:
    def __init__(self, path: str, *, synchronous: str = "FULL", readers: int = 2) -> None:
        self.path = path
        self.synchronous = synchronous
        self._checked_synchronous()
        self._reader_count = readers
        self._writer: aiosqlite.Connection | None = None
        self._readers: list[aiosqlite.Connection] = []
        self._next_reader: Iterable[int] = itertools.cycle(range(readers))
        self._write_lock = asyncio.Lock()
        self._signals: dict[str, asyncio.Event] = {}

    async def _connect(self) -> aiosqlite.Connection:
        connection = await aiosqlite.connect(self.path, isolation_level=None)
        connection.row_factory = sqlite3.Row
        await connection.execute_fetchall("PRAGMA busy_timeout = 15000")
        await connection.execute("PRAGMA foreign_keys = ON")
        await connection.execute(f"PRAGMA synchronous = {self._checked_synchronous()}")
        return connection

    def _checked_synchronous(self) -> str:
        value = self.synchronous.upper()
        if value not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"sqlite synchronous must be OFF, NORMAL, FULL or EXTRA, not {value}")
        return value

    async def open(self) -> None:
        try:
            self._writer = await self._connect()
            await self._prepare(self._writer)
            for _ in range(self._reader_count):
                reader = await self._connect()
                self._readers.append(reader)
                await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await self.close()  # an open connection's thread would keep the process alive
            raise

    @staticmethod
    async def _prepare(writer: aiosqlite.Connection) -> None:
        """WAL and migrations. While another process switches a new file to WAL, SQLite
        answers "database is locked" at once, without waiting on busy_timeout: retry."""
        for attempt in range(_OPEN_ATTEMPTS):
            try:
                await writer.execute_fetchall("PRAGMA journal_mode = WAL")
                await apply_migrations(writer)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == _OPEN_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(min(0.01 * 2 ** attempt, 0.5))

    async def close(self) -> None:
        for connection in [*self._readers, *([self._writer] if self._writer else [])]:
            await asyncio.shield(connection.close())
        self._readers = []
        self._writer = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One real write transaction; hooks registered on it run after COMMIT."""
        assert self._writer is not None, "database is not open"
        async with self._write_lock:
            tx = Transaction(self._writer, self.signal)
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield tx
            except BaseException:
                await asyncio.shield(self._writer.execute("ROLLBACK"))
                raise
            await asyncio.shield(self._writer.execute("COMMIT"))
        for hook in tx._after_commit:
            result = hook()
            if result is not None:
                await result

    def signal(self, topic: str) -> asyncio.Event:
        """Set after a commit that called `tx.notify(topic)`. Each topic has one waiting loop
        per process, which clears it; other processes' commits are found by polling."""
        return self._signals.setdefault(topic, asyncio.Event())

    def _reader(self) -> aiosqlite.Connection:
        return self._readers[next(self._next_reader)]  # type: ignore[call-overload]

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self._reader().execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await self._reader().execute_fetchall(sql, params))
