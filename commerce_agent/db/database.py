"""The SQLite file: one writer connection behind a lock, reader connections for queries.

Every write runs in its own transaction on the one writer, so one request's rollback can never
discard another's write. Readers (aiosqlite, each on its own thread) see committed data only
(WAL).

How writes stay fast while every acknowledged one is durable (synchronous=FULL):

- The statements of a write run directly on the writer connection, on the event loop. Inside
  `BEGIN IMMEDIATE` they never wait for a lock (the transaction holds the file's write lock
  and WAL readers never block it) and each takes microseconds, where a hop to a connection
  thread and back costs more than the statement. What can wait or sync the disk — BEGIN
  IMMEDIATE (another process may hold the lock) and COMMIT (fsync) — runs on the writer's own
  thread, off the loop.
- Group commit. Each write is a SAVEPOINT inside the current `BEGIN IMMEDIATE` transaction.
  When it ends and other writes are waiting for the lock, the transaction stays open for them
  and one COMMIT (one fsync) makes the whole group durable; a write that fails rolls back to
  its savepoint only. No write returns, and no after-commit hook runs, before its COMMIT.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiosqlite

from commerce_agent.db.migrations import apply_migrations

Params = Mapping[str, Any] | Sequence[Any]
AfterCommit = Callable[[], Awaitable[None] | None]
T = TypeVar("T")
_OPEN_ATTEMPTS = 40
# Writes that share one COMMIT at most; a bound keeps every write's wait for it short.
MAX_GROUP = 64


class Transaction:
    """One write (a savepoint of the writer's open transaction), plus its after-commit hooks."""

    def __init__(self, connection: sqlite3.Connection,
                 signal: Callable[[str], asyncio.Event]) -> None:
        self._connection = connection
        self._after_commit: list[AfterCommit] = []
        self._signal = signal

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        cursor = self._connection.execute(sql, params)
        count = cursor.rowcount
        cursor.close()
        return count

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._connection.execute(sql, params).fetchone()
        return row

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return self._connection.execute(sql, params).fetchall()

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        self._connection.executemany(sql, rows)

    def after_commit(self, hook: AfterCommit) -> None:
        """Run `hook` once the transaction has committed (never on rollback)."""
        self._after_commit.append(hook)

    def notify(self, topic: str) -> None:
        """Wake this process's waiters on `topic` once the transaction has committed."""
        self.after_commit(self._signal(topic).set)


class _Group:
    """Writes sharing one BEGIN IMMEDIATE … COMMIT; `committed` resolves with the COMMIT."""

    def __init__(self) -> None:
        self.size = 0
        self.committed: asyncio.Future[None] = asyncio.get_running_loop().create_future()


class Database:
    def __init__(self, path: str, *, synchronous: str = "FULL", readers: int = 2) -> None:
        self.path = path
        self.synchronous = synchronous
        self._checked_synchronous()
        self._reader_count = readers
        self._writer: sqlite3.Connection | None = None
        self._writer_thread: ThreadPoolExecutor | None = None
        self._readers: list[aiosqlite.Connection] = []
        self._next_reader: Iterable[int] = itertools.cycle(range(readers))
        self._write_lock = asyncio.Lock()
        self._waiting_writes = 0
        self._group: _Group | None = None
        self._signals: dict[str, asyncio.Event] = {}

    def _pragmas(self) -> list[str]:
        return ["PRAGMA busy_timeout = 15000", "PRAGMA foreign_keys = ON",
                f"PRAGMA synchronous = {self._checked_synchronous()}"]

    async def _connect(self) -> aiosqlite.Connection:
        connection = await aiosqlite.connect(self.path, isolation_level=None)
        connection.row_factory = sqlite3.Row
        for pragma in self._pragmas():
            await connection.execute_fetchall(pragma)
        return connection

    def _connect_writer(self) -> sqlite3.Connection:
        # Used from the event loop and from the writer thread, never at the same time.
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        for pragma in self._pragmas():
            connection.execute(pragma).fetchall()
        return connection

    def _checked_synchronous(self) -> str:
        value = self.synchronous.upper()
        if value not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"sqlite synchronous must be OFF, NORMAL, FULL or EXTRA, not {value}")
        return value

    async def _on_writer_thread(self, work: Callable[[], T]) -> T:
        assert self._writer_thread is not None, "database is not open"
        return await asyncio.get_running_loop().run_in_executor(self._writer_thread, work)

    async def open(self) -> None:
        try:
            self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
            self._writer = await self._on_writer_thread(self._connect_writer)
            await self._prepare()
            for _ in range(self._reader_count):
                reader = await self._connect()
                self._readers.append(reader)
                await reader.execute_fetchall("PRAGMA query_only = ON")
        except BaseException:
            await self.close()  # an open connection's thread would keep the process alive
            raise

    async def _prepare(self) -> None:
        """WAL and migrations. While another process switches a new file to WAL, SQLite
        answers "database is locked" at once, without waiting on busy_timeout: retry."""
        writer = self._writer
        assert writer is not None

        def prepare() -> None:
            writer.execute("PRAGMA journal_mode = WAL").fetchall()
            apply_migrations(writer)

        for attempt in range(_OPEN_ATTEMPTS):
            try:
                await self._on_writer_thread(prepare)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == _OPEN_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(min(0.01 * 2 ** attempt, 0.5))

    async def close(self) -> None:
        if self._group is not None:  # writes still waiting for their COMMIT get it
            async with self._write_lock:
                if self._group is not None:
                    await asyncio.shield(self._commit(self._group))
        for connection in self._readers:
            await asyncio.shield(connection.close())
        self._readers = []
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await asyncio.shield(self._on_writer_thread(writer.close))
        if self._writer_thread is not None:
            self._writer_thread.shutdown(wait=True)
            self._writer_thread = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One write, atomic and isolated from every other; hooks run after its COMMIT."""
        writer = self._writer
        assert writer is not None, "database is not open"
        self._waiting_writes += 1
        try:
            await self._write_lock.acquire()
        finally:
            self._waiting_writes -= 1
        try:
            if self._group is None:
                await self._on_writer_thread(lambda: writer.execute("BEGIN IMMEDIATE"))
                self._group = _Group()
            group = self._group
            group.size += 1
            tx = Transaction(writer, self.signal)
            writer.execute("SAVEPOINT write")
            try:
                yield tx
            except BaseException:
                writer.execute("ROLLBACK TO write")
                writer.execute("RELEASE write")
                raise
            else:
                writer.execute("RELEASE write")
            finally:
                await self._end_of_write(group)
        finally:
            self._write_lock.release()
        await asyncio.shield(group.committed)
        for hook in tx._after_commit:
            result = hook()
            if result is not None:
                await result

    async def _end_of_write(self, group: _Group) -> None:
        """With the lock held: commit the group now, unless more writes wait to join it.
        Writes that wait may still give up (cancelled); a flush queued behind them commits
        whatever they leave."""
        if self._waiting_writes and group.size < MAX_GROUP:
            if group.size == 1:
                asyncio.get_running_loop().create_task(self._flush(group))
            return
        await asyncio.shield(self._commit(group))

    async def _flush(self, group: _Group) -> None:
        async with self._write_lock:
            if self._group is group:
                await asyncio.shield(self._commit(group))

    async def _commit(self, group: _Group) -> None:
        writer = self._writer
        assert writer is not None and self._group is group
        self._group = None
        try:
            await self._on_writer_thread(lambda: writer.execute("COMMIT"))
        except BaseException as exc:
            # Nothing of the group was acknowledged: every write in it fails.
            if writer.in_transaction:
                await self._on_writer_thread(lambda: writer.execute("ROLLBACK"))
            group.committed.set_exception(exc)
            group.committed.exception()  # retrieved: members re-raise it themselves
            return
        group.committed.set_result(None)

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
