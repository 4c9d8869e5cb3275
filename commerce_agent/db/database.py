"""The SQLite file: one writer connection behind a lock, reader connections for queries.

Every write runs in its own transaction on the one writer, so one request's rollback can never
discard another's write. Readers see committed data only (WAL): reads of many rows run on
aiosqlite connections, each on its own thread, so a long scan never holds up the event loop;
single-row reads (`fetch_one`: a token, a cart, an order by key) run on the loop itself, on a
connection of their own, because the hop to a thread and back costs more than the lookup.

How writes stay fast while every acknowledged one is durable (synchronous=FULL):

- The statements of a write run directly on the writer connection, on the event loop. Inside
  `BEGIN IMMEDIATE` they never wait for a lock (the transaction holds the file's write lock
  and WAL readers never block it) and each takes microseconds, where a hop to a connection
  thread and back costs more than the statement. What can wait or write to the disk — BEGIN
  IMMEDIATE (another process may hold the lock) and COMMIT (WAL writes) — runs on the writer's
  own thread, off the loop.
- Group commit. Each write is a SAVEPOINT inside the current `BEGIN IMMEDIATE` transaction.
  When it ends and other writes are waiting for the lock, the transaction stays open for them
  and one COMMIT and one sync make the whole group durable; a write that fails rolls back to
  its savepoint only. No write returns, and no after-commit hook runs, before its COMMIT is
  on disk.
- The fsync runs after the lock is released. With synchronous=FULL, SQLite would sync the WAL
  inside COMMIT, and every write queued behind it would wait for the disk with the event loop
  idle. Instead the writer commits with synchronous=NORMAL (the WAL frames are written, not
  synced) and frees the lock for the next group at once, while the sync thread fdatasyncs the
  WAL file; the group's writes are acknowledged only after that, so what FULL promises for an
  acknowledged write still holds. Syncs run in commit order on one thread, and one sync
  covers every frame written before it began. Other connections may read a group's rows
  during its sync: a power cut in that moment can take back what they read, never what a
  writer was told was saved.
- Checkpoints run in the background. SQLite's automatic checkpoint runs inside a COMMIT and
  holds up every write waiting behind it for the whole copy (and, with synchronous=FULL, two
  fsyncs): the writer turns it off, and a connection of its own on its own thread runs a
  PASSIVE checkpoint (which never blocks writers) at most every CHECKPOINT_INTERVAL seconds
  after a commit.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import aiosqlite

from commerce_agent.db.base import (
    DATABASE_TIMEOUT_SECONDS,
    Check,
    Database,
    DatabaseUnavailable,
    IntegrityError,
    Params,
    Row,
    Transaction,
    run_after_commit,
)
from commerce_agent.db.migrations import apply_migrations
from commerce_agent.db.sqlite_writer_lock import WriterLock

T = TypeVar("T")
_OPEN_ATTEMPTS = 40
# Writes that share one COMMIT at most; a bound keeps every write's wait for it short.
MAX_GROUP = 64
# Seconds between background checkpoints (at most; one runs only after a commit).
CHECKPOINT_INTERVAL = 0.1
# How long a connection waits for another process's lock before SQLite answers "locked".
BUSY_TIMEOUT_MS = int(DATABASE_TIMEOUT_SECONDS * 1000)

log = logging.getLogger(__name__)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection held the lock past busy_timeout."""
    return "locked" in str(exc) or "busy" in str(exc)


def _sync(descriptor: int) -> None:
    # What SQLite itself calls to sync the WAL on Linux (the file's data and its size).
    (os.fdatasync if hasattr(os, "fdatasync") else os.fsync)(descriptor)


class SqliteTransaction(Transaction):
    """One write (a savepoint of the writer's open transaction), plus its after-commit hooks."""

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection,
                 signal: Callable[[str], asyncio.Event], path: str) -> None:
        super().__init__(path)  # the database file's, like Database.path
        self._connection = connection
        self._signal = signal

    async def execute(self, sql: str, params: Params | None = None) -> int:
        """Run one statement; returns the number of rows it changed."""
        try:
            cursor = self._connection.execute(sql, params or ())
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        count = cursor.rowcount
        cursor.close()
        return count

    async def defer(self, sql: str, params: Params | None = None, *,
                    check: Check | None = None) -> None:
        """Run at once (the writer holds the file); `check` gets the rows changed, or the
        rows a SELECT returned."""
        try:
            cursor = self._connection.execute(sql, params or ())
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        count = len(cursor.fetchall()) if cursor.description else cursor.rowcount
        cursor.close()
        if check is not None:
            check(count)

    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None:
        try:
            row: Row | None = self._connection.execute(sql, params or ()).fetchone()
        except sqlite3.IntegrityError as exc:  # an INSERT … RETURNING
            raise IntegrityError(str(exc)) from exc
        return row

    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]:
        try:
            return self._connection.execute(sql, params or ()).fetchall()
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        try:
            self._connection.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    def notify(self, topic: str) -> None:
        """Wake this process's waiters on `topic` once the transaction has committed."""
        self.after_commit(self._signal(topic).set)


class _Group:
    """Writes sharing one BEGIN IMMEDIATE … COMMIT. Each write waits on a future of its own,
    resolved with the COMMIT: a write whose request is cancelled cancels only its own."""

    def __init__(self) -> None:
        self.waiting: list[asyncio.Future[None]] = []

    @property
    def size(self) -> int:
        """Writes that joined the group (failed ones included)."""
        return len(self.waiting)

    def committed(self) -> asyncio.Future[None]:
        """A new future, resolved (or failed) with the group's COMMIT."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        return future

    def resolve(self, failure: BaseException | None = None) -> None:
        for future in self.waiting:
            if future.done():  # cancelled with its request: the COMMIT goes on regardless
                continue
            if failure is None:
                future.set_result(None)
            else:
                future.set_exception(failure)
                future.exception()  # retrieved: the write re-raises it itself


class _Write:
    """`async with db.transaction() as tx`: a class, not a generator-based context manager,
    because it runs on every write."""

    __slots__ = ("_db", "_group", "_tx", "_committed")

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def __aenter__(self) -> SqliteTransaction:
        db, writer = self._db, self._db._writer
        assert writer is not None, "database is not open"
        db._waiting_writes += 1
        try:
            await db._write_lock.acquire()
        finally:
            db._waiting_writes -= 1
        try:
            if db._group is None:
                await db._begin(writer)
                db._group = _Group()
            self._group = db._group
            writer.execute("SAVEPOINT write")
        except BaseException:
            if db._group is not None and db._group.size == 0:  # begun for this write only
                await asyncio.shield(db._commit(db._group))
            db._write_lock.release()
            raise
        self._committed = self._group.committed()
        self._tx = SqliteTransaction(writer, db.signal, db.path)
        return self._tx

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: Any) -> None:
        db, writer = self._db, self._db._writer
        assert writer is not None
        try:
            try:
                if kind is not None:
                    writer.execute("ROLLBACK TO write")
                writer.execute("RELEASE write")
            finally:
                await db._end_of_write(self._group)
        finally:
            db._write_lock.release()
        if kind is not None:
            self._committed.cancel()
            return  # the error goes on; nothing of this write was kept
        await self._committed
        await run_after_commit(self._tx.after_commit_hooks)


class SqliteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, path: str, *, synchronous: str = "FULL", readers: int = 2) -> None:
        self.path = path
        self.synchronous = synchronous
        self._checked_synchronous()
        self._reader_count = readers
        self._writer: sqlite3.Connection | None = None
        self._writer_thread: ThreadPoolExecutor | None = None
        self._readers: list[aiosqlite.Connection] = []
        self._lookups: sqlite3.Connection | None = None
        self._next_reader: Iterable[int] = itertools.cycle(range(readers))
        self._write_lock = asyncio.Lock()
        self._writer_lock: WriterLock | None = None  # between processes (sqlite_writer_lock)
        self._waiting_writes = 0
        self._group: _Group | None = None
        self._signals: dict[str, asyncio.Event] = {}
        # synchronous=FULL: the writer commits with NORMAL and the WAL is synced off the lock.
        self._wal: int | None = None  # a file descriptor of the WAL file
        self._sync_thread: ThreadPoolExecutor | None = None
        self._last_sync: asyncio.Future[None] | None = None
        self._checkpoint_thread: ThreadPoolExecutor | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpoint: asyncio.Future[None] | None = None
        self._last_checkpoint = 0.0

    async def _begin(self, writer: sqlite3.Connection) -> None:
        """Take the file's write lock: first our processes' own (sqlite_writer_lock: a waiter
        wakes when it is released), then SQLite's, for which a program of another kind may
        make us wait up to busy_timeout. Past either bound the write is answered 503."""
        assert self._writer_lock is not None
        if not await self._writer_lock.acquire(DATABASE_TIMEOUT_SECONDS):
            raise DatabaseUnavailable("another process held the database's write lock")
        try:
            await self._on_writer_thread(lambda: writer.execute("BEGIN IMMEDIATE"))
        except BaseException as exc:
            self._writer_lock.release()
            if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                raise DatabaseUnavailable(
                    f"the database is locked by another writer: {exc}") from exc
            raise

    def _pragmas(self) -> list[str]:
        # temp_store = MEMORY: each write's SAVEPOINT keeps the original of every page it
        # changes (its sub-journal); past 64 KiB SQLite spills that to a new temporary file,
        # one per commit group, and then writes each such page there (a paid order changes
        # about twenty). In memory it is dropped at RELEASE, so it never holds more than the
        # pages of one write.
        return [f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}", "PRAGMA foreign_keys = ON",
                f"PRAGMA synchronous = {self._checked_synchronous()}",
                "PRAGMA temp_store = MEMORY"]

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

    def _connect_checkpointer(self) -> sqlite3.Connection:
        # Only ever used on the checkpoint thread.
        connection = sqlite3.connect(self.path, isolation_level=None)
        for pragma in ("PRAGMA busy_timeout = 1000",
                       f"PRAGMA synchronous = {self._checked_synchronous()}"):
            connection.execute(pragma).fetchall()
        return connection

    def _connect_lookups(self) -> sqlite3.Connection:
        # On the event loop it must never wait: busy_timeout 0, and a busy answer (rare in
        # WAL: another connection recovering the file) is retried on a reader thread.
        connection = sqlite3.connect(self.path, isolation_level=None)
        connection.row_factory = sqlite3.Row
        for pragma in ("PRAGMA busy_timeout = 0", "PRAGMA query_only = ON"):
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
            self._writer_lock = WriterLock(self.path)
            for _ in range(self._reader_count):
                reader = await self._connect()
                self._readers.append(reader)
                await reader.execute_fetchall("PRAGMA query_only = ON")
            self._lookups = self._connect_lookups()
            if self._checked_synchronous() == "FULL":
                self._sync_after_commit()
            self._checkpoint_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-checkpoint")
            self._checkpointer = await asyncio.get_running_loop().run_in_executor(
                self._checkpoint_thread, self._connect_checkpointer)
        except BaseException:
            await self.close()  # an open connection's thread would keep the process alive
            raise

    def _sync_after_commit(self) -> None:
        """Commit with NORMAL and sync the WAL before acknowledging (see the module's doc).
        Where the WAL cannot be opened, SQLite's own FULL commits stay."""
        try:
            self._wal = os.open(self.path + "-wal", os.O_RDONLY)
        except OSError:
            log.warning("WAL file not found: commits keep synchronous=FULL", exc_info=True)
            return
        assert self._writer is not None
        self._writer.execute("PRAGMA synchronous = NORMAL").fetchall()
        self._sync_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-sync")

    async def _prepare(self) -> None:
        """WAL and migrations. While another process switches a new file to WAL, SQLite
        answers "database is locked" at once, without waiting on busy_timeout: retry."""
        writer = self._writer
        assert writer is not None

        def prepare() -> None:
            writer.execute("PRAGMA journal_mode = WAL").fetchall()
            writer.execute("PRAGMA wal_autocheckpoint = 0").fetchall()  # see _checkpoint_soon
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
        if self._last_sync is not None:  # syncs run in order: the last one ends them all
            await asyncio.wait([self._last_sync])
        if self._sync_thread is not None:
            self._sync_thread.shutdown(wait=True)
            self._sync_thread = None
        if self._wal is not None:
            os.close(self._wal)
            self._wal = None
        if self._checkpoint is not None:
            await asyncio.shield(self._checkpoint)
        if self._checkpoint_thread is not None:
            if self._checkpointer is not None:
                checkpointer, self._checkpointer = self._checkpointer, None
                await asyncio.shield(asyncio.get_running_loop().run_in_executor(
                    self._checkpoint_thread, checkpointer.close))
            self._checkpoint_thread.shutdown(wait=True)
            self._checkpoint_thread = None
        for connection in self._readers:
            await asyncio.shield(connection.close())
        self._readers = []
        if self._lookups is not None:
            self._lookups.close()
            self._lookups = None
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await asyncio.shield(self._on_writer_thread(writer.close))
        if self._writer_thread is not None:
            self._writer_thread.shutdown(wait=True)
            self._writer_thread = None
        if self._writer_lock is not None:
            self._writer_lock.close()
            self._writer_lock = None

    def transaction(self) -> _Write:
        """One write, atomic and isolated from every other; hooks run after its COMMIT."""
        return _Write(self)

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
            self._release_writer_lock()
            if isinstance(exc, sqlite3.IntegrityError):  # a deferred foreign key
                failure: BaseException = IntegrityError(str(exc))
                failure.__cause__ = exc
                group.resolve(failure)
            else:
                group.resolve(exc)
            return
        self._release_writer_lock()
        if self._wal is None:
            group.resolve()
        else:  # acknowledged once the WAL is on disk; the lock is not needed for that
            assert self._sync_thread is not None
            synced = asyncio.get_running_loop().run_in_executor(
                self._sync_thread, _sync, self._wal)
            synced.add_done_callback(lambda done: group.resolve(done.exception()))
            self._last_sync = synced
        self._checkpoint_soon()

    def _release_writer_lock(self) -> None:
        if self._writer_lock is not None:
            self._writer_lock.release()

    def _checkpoint_soon(self) -> None:
        """Start a background checkpoint unless one is running or ran moments ago."""
        loop = asyncio.get_running_loop()
        if self._checkpoint is not None or self._checkpoint_thread is None \
                or loop.time() - self._last_checkpoint < CHECKPOINT_INTERVAL:
            return
        checkpointer = self._checkpointer
        assert checkpointer is not None

        def checkpoint() -> None:
            try:
                checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error:  # as with SQLite's own: the next one catches up
                log.warning("background checkpoint failed", exc_info=True)

        def finished(_: asyncio.Future[None]) -> None:
            self._checkpoint = None
            self._last_checkpoint = loop.time()

        self._checkpoint = loop.run_in_executor(self._checkpoint_thread, checkpoint)
        self._checkpoint.add_done_callback(finished)

    def signal(self, topic: str) -> asyncio.Event:
        """Set after a commit that called `tx.notify(topic)`. Each topic has one waiting loop
        per process, which clears it; other processes' commits are found by polling."""
        return self._signals.setdefault(topic, asyncio.Event())

    def _reader(self) -> aiosqlite.Connection:
        return self._readers[next(self._next_reader)]  # type: ignore[call-overload]

    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None:
        """One row (the first), read on the event loop: meant for lookups by key."""
        assert self._lookups is not None, "database is not open"
        try:
            row: Row | None = self._lookups.execute(sql, params or ()).fetchone()
            return row
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
        rows = await self.fetch_all(sql, params)
        return next(iter(rows), None)

    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]:
        try:
            return list(await self._reader().execute_fetchall(sql, params or ()))
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
            raise DatabaseUnavailable(f"the database is busy: {exc}") from exc

    async def ping(self, timeout: float) -> None:
        try:
            async with asyncio.timeout(timeout):
                await self.fetch_all("SELECT 1")
        except TimeoutError:
            raise DatabaseUnavailable("the database did not answer in time") from None
