"""PostgreSQL: the same interface as the SQLite file, for several processes on several hosts.

- Writes run concurrently, from every process and host. Each `transaction()` is one
  transaction of its own (READ COMMITTED) on a connection of the writer pool: BEGIN travels
  with its first statement, deferred statements (`tx.defer`) with the next one, NOTIFYs with
  the COMMIT (one text each, so one round trip). No rule relies on writes
  taking turns; each is kept by the engine (docs/decisions.md, "PostgreSQL writes
  concurrently"): conditional UPDATEs whose row count is checked, unique constraints with
  `INSERT … ON CONFLICT`, row locks (`tx.for_update`) where a write reads what it will
  change, `FOR UPDATE SKIP LOCKED` for outboxes. A deadlock or serialization failure the
  engine breaks is `WriteConflict`, which the request layer runs again a few times.
- Every wait is bounded (db/postgres_limits.py): a database that is down or frozen costs a
  request seconds and a 503, never a hang.
- Reads run on pooled connections in autocommit mode, one statement each (committed data).
- `tx.notify(topic)` sends `NOTIFY commerce_agent, 'topic'` with the COMMIT, which PostgreSQL
  delivers only if the transaction commits. Each process LISTENs on one connection of its own
  and sets `signal(topic)` for every notification, whichever process committed: order-update
  streams, webhook senders, catalog caches and agent journal followers wake without polling.
  The committing process also sets its own signal straight after COMMIT.
- Migrations: `migrations/postgres/NNNN_*.sql` (the same numbers as SQLite's), each applied
  once and recorded in schema_migrations, under an advisory lock so processes starting
  together apply them once.
- Statements are the storage modules' own, written once for both databases; their `:name`
  placeholders become psycopg's `%(name)s` (db/placeholders.py), nothing else changes.
- Rows read by name and by index (the `Row` protocol, as sqlite3.Row); a constraint
  violation is raised as db/base.py's `IntegrityError`, the one callers catch.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Awaitable, Iterable, Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any, ClassVar, TypeVar, cast

import psycopg
from psycopg.rows import RowMaker
from psycopg_pool import AsyncConnectionPool

from commerce_agent.background import stop
from commerce_agent.db.base import (
    Check,
    Database,
    DatabaseUnavailable,
    IntegrityError,
    Params,
    Row,
    Transaction,
    run_after_commit,
)
from commerce_agent.db.migrations import migration_files
from commerce_agent.db.placeholders import to_pyformat
from commerce_agent.db.postgres_limits import (
    POOL_WAIT_SECONDS,
    RECONNECT_SECONDS,
    bounded,
    connection_options,
    is_broken,
    unavailable,
)
from commerce_agent.db.targets import display

# Advisory lock key (any bigint unlikely to clash with another application's).
MIGRATION_LOCK = 7_202_611_180_002
CHANNEL = "commerce_agent"
# Topics are code constants; the check keeps them safe to inline in NOTIFY.
_TOPIC = re.compile(r"[A-Za-z0-9_.:\-]{1,200}")
READ_POOL_MAX = 8
# Writes of one process in flight at once, each on its own connection and transaction.
WRITE_POOL_MAX = 8
T = TypeVar("T")
log = logging.getLogger(__name__)


# --- rows --------------------------------------------------------------------------------


class _Row(tuple[Any, ...]):
    """A row readable by column name and by index (db/base.py's Row, as sqlite3.Row)."""

    __slots__ = ()
    _index: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


@functools.lru_cache(maxsize=1024)
def _row_class(names: tuple[str, ...]) -> type[_Row]:
    index: dict[str, int] = {}
    for position, name in enumerate(names):
        index.setdefault(name, position)  # a repeated name reads the first, as in sqlite3.Row
    return type("Row", (_Row,), {"__slots__": (), "_index": index})


def _rows(cursor: Any) -> RowMaker[Any]:
    description = cursor.description
    if description is None:
        return tuple
    return _row_class(tuple(column.name for column in description))


# --- writes ------------------------------------------------------------------------------


async def _to_the_end(work: Awaitable[T]) -> T:
    """Run `work` to its end even if the caller is cancelled meanwhile (then re-raise): a
    COMMIT or ROLLBACK left half done would hand the next write a connection mid-transaction."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            if task.done():
                raise
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return result


class PostgresTransaction(Transaction):
    dialect = "postgresql"
    # The lock an UPDATE of the row takes: rows inserted elsewhere that merely reference it
    # (foreign keys take KEY SHARE) need not wait for it.
    for_update = " FOR NO KEY UPDATE"

    def __init__(self, connection: psycopg.AsyncConnection[Any], path: str) -> None:
        super().__init__(path)
        self._connection = connection
        self._cursor = connection.cursor()  # server-side binding, prepared when used often
        self._texts = psycopg.AsyncClientCursor(connection)  # several statements in one
        self.topics: list[str] = []
        self.begun = False
        # Statements with their values, ready to send, and the check of each one's row count.
        self.deferred: list[tuple[str, Check | None]] = []

    def _pending(self) -> tuple[list[str], list[Check | None]]:
        """What must precede the next statement, with the check of each one's row count:
        BEGIN (writer connections are autocommit: the transaction is begun here, in the same
        round trip) and the deferred statements."""
        statements: list[str] = [] if self.begun else ["BEGIN"]
        checks: list[Check | None] = [] if self.begun else [None]
        for statement, check in self.deferred:
            statements.append(statement)
            checks.append(check)
        self.begun, self.deferred = True, []
        return statements, checks

    @staticmethod
    def _checked(cursor: psycopg.AsyncCursor[Any], checks: list[Check | None]) -> None:
        """Walk the results of the statements sent before the caller's (one result each),
        giving each check its row count; the cursor is left at the caller's first result."""
        for check in checks:
            if check is not None:
                check(cursor.rowcount)
            cursor.nextset()

    async def _send(self, work: Awaitable[T]) -> T:
        """One round trip, bounded in time. A constraint's refusal is IntegrityError, a
        database that cannot answer is DatabaseUnavailable."""
        try:
            return await bounded(self._connection, work)
        except psycopg.errors.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        except psycopg.OperationalError as exc:
            raise unavailable(exc) from exc

    async def _run(self, query: str, params: Params | None, *, many: bool = False
                   ) -> psycopg.AsyncCursor[Any]:
        """One statement, with whatever is pending in the same round trip (then through the
        client-side binding cursor, which sends several statements as one text). Returns the
        cursor holding its result."""
        params = {} if params is None else params  # None would leave `%%` doubled
        if many:
            if not self.begun or self.deferred:  # no parameters: sent as it is
                statements, checks = self._pending()
                await self._send(self._texts.execute(cast(Any, "; ".join(statements)), None))
                self._checked(self._texts, checks)
            await self._send(self._cursor.executemany(query, cast(Any, params)))
            return self._cursor
        if self.begun and not self.deferred:
            await self._send(self._cursor.execute(query, params))
            return self._cursor
        statements, checks = self._pending()
        # `%` doubled in what goes before: the statement's parameters are merged after.
        text = "".join(statement.replace("%", "%%") + "; " for statement in statements) + query
        await self._send(self._texts.execute(cast(Any, text), params))
        self._checked(self._texts, checks)
        return self._texts

    async def execute(self, sql: str, params: Params | None = None) -> int:
        return (await self._run(to_pyformat(sql), params)).rowcount

    def _bound(self, sql: str, params: Params | None) -> str:
        """A statement with its values in it (quoted by psycopg), ready to travel with others."""
        return self._texts.mogrify(cast(Any, to_pyformat(sql)), {} if params is None else params)

    async def defer(self, sql: str, params: Params | None = None, *,
                    check: Check | None = None) -> None:
        self.deferred.append((self._bound(sql, params), check))

    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None:
        cursor = await self._run(to_pyformat(sql), params)
        return cast(Row | None, await cursor.fetchone())

    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]:
        cursor = await self._run(to_pyformat(sql), params)
        return cast(list[Row], await cursor.fetchall())

    async def fetch_each(self, statements: Sequence[tuple[str, Params | None]]
                         ) -> list[list[Row]]:
        reads = [self._bound(sql, params) for sql, params in statements]
        if not reads:
            return []
        pending, checks = self._pending()
        cursor = self._texts
        await self._send(cursor.execute(cast(Any, "; ".join(pending + reads)), None))
        self._checked(cursor, checks)
        found = []
        for _ in reads:
            found.append(cast(list[Row], await cursor.fetchall()))
            cursor.nextset()
        return found

    async def flush(self) -> None:
        """Send the deferred statements that carry a check, and run the checks: before
        COMMIT, which must not travel with them (it would commit whatever they found)."""
        if any(check is not None for _, check in self.deferred):
            statements, checks = self._pending()
            await self._send(self._texts.execute(cast(Any, "; ".join(statements)), None))
            self._checked(self._texts, checks)

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        rows = list(rows)
        if rows:
            await self._run(to_pyformat(sql), cast(Any, rows), many=True)

    def notify(self, topic: str) -> None:
        if _TOPIC.fullmatch(topic) is None:
            raise ValueError(f"not a notification topic: {topic!r}")
        if topic not in self.topics:
            self.topics.append(topic)


class _Write:
    """`async with db.transaction() as tx` on PostgreSQL: one transaction of its own on a
    pooled writer connection, concurrent with every other (see the module's doc)."""

    __slots__ = ("_db", "_connection", "_tx")

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    async def __aenter__(self) -> PostgresTransaction:
        self._connection = await self._db._connection(self._db._writer())
        self._tx = PostgresTransaction(self._connection, self._db.path)
        return self._tx

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: Any) -> None:
        db, connection, tx = self._db, self._connection, self._tx
        try:
            if kind is None:
                await _to_the_end(_commit(connection, tx))
        finally:
            await _to_the_end(db._give_back(db._writer(), connection))  # rolls back if open
        if kind is not None:
            return  # the error goes on; nothing of this write was kept
        for topic in tx.topics:
            db.signal(topic).set()
        await run_after_commit(tx.after_commit_hooks)


async def _commit(connection: psycopg.AsyncConnection[Any], tx: PostgresTransaction) -> None:
    """Statements still deferred, the write's NOTIFYs (delivered by PostgreSQL only if it
    commits) and COMMIT, as one text: one round trip. A constraint refusing any of them is
    IntegrityError."""
    if not tx.begun and not tx.topics and not tx.deferred:
        return  # nothing was run
    await tx.flush()
    notices = "".join(f"NOTIFY {CHANNEL}, '{topic}'; " for topic in tx.topics)
    text = ("" if tx.begun else "BEGIN; ") + "".join(
        statement + "; " for statement, _ in tx.deferred) + notices + "COMMIT"
    try:
        await _statement(connection, text)
    except psycopg.errors.IntegrityError as exc:
        raise IntegrityError(str(exc)) from exc


# --- the database --------------------------------------------------------------------------


class PostgresDatabase(Database):
    dialect = "postgresql"
    signals_every_process = True

    def __init__(self, url: str, *, readers: int = READ_POOL_MAX, writers: int = WRITE_POOL_MAX,
                 synchronous: str | None = None) -> None:
        # `synchronous` is SQLite's durability setting; PostgreSQL's is the server's own
        # (synchronous_commit), so it is accepted and ignored.
        del synchronous
        self.url = url
        self.path = display(url)
        self._reader_count = readers
        self._writer_count = writers
        self._readers: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._writers: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._checking: set[AsyncConnectionPool[psycopg.AsyncConnection[Any]]] = set()
        self._signals: dict[str, asyncio.Event] = {}
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        # Whether pg_trgm is installed (typo candidates by trigram similarity; see search).
        self.trigrams = False

    def _pool(self, size: int, name: str, *, read_only: bool = False
              ) -> AsyncConnectionPool[psycopg.AsyncConnection[Any]]:
        async def configure(connection: psycopg.AsyncConnection[Any]) -> None:
            connection.row_factory = _rows

        # Autocommit: readers run each statement on its own; a write begins its transaction
        # itself, with its first statement (PostgresTransaction._pending).
        return AsyncConnectionPool(
            self.url, min_size=1, max_size=size, open=False, name=name,
            kwargs={"autocommit": True, **connection_options(read_only=read_only)},
            configure=configure, timeout=POOL_WAIT_SECONDS,
            reconnect_timeout=RECONNECT_SECONDS, reconnect_failed=_reconnect_failed)

    async def _connection(self, pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]],
                          seconds: float | None = None) -> psycopg.AsyncConnection[Any]:
        """A pooled connection, or DatabaseUnavailable once the pool's wait is over."""
        try:
            return await pool.getconn(seconds)
        except psycopg.OperationalError as exc:
            raise unavailable(exc) from exc

    async def _give_back(self, pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]],
                         connection: psycopg.AsyncConnection[Any]) -> None:
        """Return `connection` to `pool` with no transaction open; a lost one is discarded and
        the pool's other idle connections checked (after a restart they are all lost)."""
        if not connection.closed and \
                connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            try:
                await _statement(connection, "ROLLBACK")
            except (psycopg.Error, DatabaseUnavailable):
                await connection.close()
        if connection.closed:
            self._check_soon(pool)
        await pool.putconn(connection)

    def _check_soon(self, pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]]) -> None:
        """Check `pool`'s idle connections in the background (once at a time): the pool takes
        them all out at once, so the next request gets a checked or a new one."""
        if pool in self._checking:
            return
        self._checking.add(pool)
        check = asyncio.get_running_loop().create_task(pool.check())
        self._background.add(check)

        def done(task: asyncio.Task[None]) -> None:
            self._checking.discard(pool)
            self._background.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.debug("pool check failed", exc_info=task.exception())

        check.add_done_callback(done)

    def _writer(self) -> AsyncConnectionPool[psycopg.AsyncConnection[Any]]:
        assert self._writers is not None, "database is not open"
        return self._writers

    async def open(self) -> None:
        try:
            async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, **connection_options()) as connection:
                await _migrate(connection)
                found = await connection.execute(
                    "SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
                self.trigrams = await found.fetchone() is not None
            self._writers = self._pool(self._writer_count, "commerce-agent-writers")
            self._readers = self._pool(self._reader_count, "commerce-agent-readers",
                                       read_only=True)
            await self._writers.open(wait=True, timeout=30.0)
            await self._readers.open(wait=True, timeout=30.0)
            self._listener = asyncio.create_task(self._listen())
            await asyncio.wait_for(self._listening.wait(), 30.0)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        await stop(self._listener)
        self._listener = None
        for pool in (self._readers, self._writers):
            if pool is not None:
                await pool.close()  # waits for connections in use (writes finish first)
        self._readers = self._writers = None

    async def _listen(self) -> None:
        """LISTEN for every process's commits; reconnect when the connection drops (waking
        every waiter then, since notifications may have been missed meanwhile)."""
        delay = 0.1
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True, **connection_options()) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    if self._listening.is_set():
                        for event in self._signals.values():
                            event.set()
                    self._listening.set()
                    delay = 0.1
                    async for notice in connection.notifies():
                        self.signal(notice.payload).set()
            except psycopg.Error as exc:  # once per outage, not once per attempt
                (log.warning if delay == 0.1 else log.debug)(
                    "PostgreSQL notifications lost (%s); reconnecting", exc)
            await asyncio.sleep(delay)  # the connection ended: wait a little, then reconnect
            delay = min(delay * 2, RECONNECT_SECONDS)

    def transaction(self) -> _Write:
        return _Write(self)

    def signal(self, topic: str) -> asyncio.Event:
        return self._signals.setdefault(topic, asyncio.Event())

    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None:
        rows = await self._read(sql, params, one=True)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]:
        return await self._read(sql, params, one=False)

    async def _read(self, sql: str, params: Params | None, *, one: bool,
                    seconds: float | None = None) -> list[Row]:
        """One read on a pooled connection, within `seconds` (else the usual bound). A
        connection found lost (the server restarted since it was last used) is replaced and
        the read made once more on another."""
        pool = self._readers
        assert pool is not None, "database is not open"
        statement = to_pyformat(sql)
        params = {} if params is None else params  # None would leave `%%` doubled
        for attempt in (1, 2):
            connection = await self._connection(pool, seconds)
            try:
                work = connection.execute(statement, params)
                cursor = await (bounded(connection, work) if seconds is None
                                else bounded(connection, work, seconds))
                if one:
                    row = await cursor.fetchone()
                    return [] if row is None else [cast(Row, row)]
                return cast(list[Row], await cursor.fetchall())
            except psycopg.OperationalError as exc:
                if attempt == 1 and is_broken(connection):
                    continue  # _give_back has started checking the rest of the pool
                raise unavailable(exc) from exc
            finally:
                await self._give_back(pool, connection)
        raise AssertionError("unreachable")

    async def ping(self, timeout: float) -> None:
        # Not asyncio.timeout: cancelling a psycopg statement waits for the server.
        await self._read("SELECT 1", None, one=True, seconds=timeout)


def _reconnect_failed(pool: AsyncConnectionPool[Any]) -> None:
    # The pool stays usable: the next request that finds it empty starts a new attempt.
    log.warning("PostgreSQL unreachable for %s s (pool %s); still trying", RECONNECT_SECONDS,
                pool.name)


async def _statement(connection: psycopg.AsyncConnection[Any], sql: str) -> None:
    """A statement of the write protocol itself (BEGIN, SAVEPOINT, COMMIT), bounded."""
    try:
        await bounded(connection, connection.execute(cast(Any, sql)))
    except psycopg.errors.IntegrityError:
        raise
    except psycopg.OperationalError as exc:
        raise unavailable(exc) from exc


# --- migrations ----------------------------------------------------------------------------


async def _migrate(connection: psycopg.AsyncConnection[Any]) -> list[str]:
    """Apply pending migrations in one transaction, under an advisory lock: processes that
    start together wait for the first and then find nothing left to do."""
    applied: list[str] = []
    # No statement timeout: a migration on a large table, or waiting for another process's,
    # may take long; it runs before the server answers any request.
    await connection.execute(f"BEGIN; SET LOCAL statement_timeout = 0; "
                             f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
    try:
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        cursor = await connection.execute("SELECT version FROM schema_migrations")
        done = {row[0] for row in await cursor.fetchall()}
        for number, name, script in postgres_migrations():
            if number in done:
                continue
            await connection.execute(cast(Any, script))  # no parameters: many statements
            await connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) "
                "VALUES (%s, %s, %s)", (number, name, datetime.now(UTC).isoformat()))
            applied.append(name)
    except BaseException:
        await _to_the_end(connection.execute("ROLLBACK"))
        raise
    await connection.execute("COMMIT")
    return applied


def postgres_migrations() -> list[tuple[int, str, str]]:
    return migration_files(resources.files("commerce_agent.db") / "migrations" / "postgres")

