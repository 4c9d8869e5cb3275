"""What every storage backend provides: `Database` (reads, `transaction()`, signals) and the
`Transaction` a write runs in. `database_for(target)` (db/backends.py) opens the backend
`target` names: a file path is SQLite (commerce_agent/db/database.py), a postgresql:// URL is
PostgreSQL (commerce_agent/db/postgres.py)."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
# A statement's parameters, by the names its `:name` placeholders give (db/placeholders.py).
Params = Mapping[str, Any]
AfterCommit = Callable[[], Awaitable[None] | None]
# Judges a deferred statement's row count once it is known; raises to refuse the write.
Check = Callable[[int], None]


class Row(Protocol):
    """A result row, readable by column name and by index, iterable in column order, with
    `keys()` (so `dict(row)` works). SQLite's rows are sqlite3.Row, PostgreSQL's the backend's
    own (db/postgres.py); callers know only this."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def keys(self) -> list[str]: ...


class IntegrityError(Exception):
    """A unique, foreign-key, not-null or check constraint refused a write. Each backend
    raises it in place of its driver's error (sqlite3.IntegrityError, psycopg's
    IntegrityError, kept as `__cause__`), so callers catch one type and import no driver."""

# Seconds between reads a waiter on `Database.signal` makes anyway where every process's
# commits are signalled: a safety net only (see Database.poll_seconds).
SAFETY_NET_POLL_SECONDS = 5.0
# How long one statement, one wait for a connection or one wait for SQLite's write lock may
# take before the request is answered 503: a database that is down, frozen or locked never
# holds a request longer than about this.
DATABASE_TIMEOUT_SECONDS = 5.0
# What a 503 for an unavailable database tells the client to wait before trying again.
RETRY_AFTER_SECONDS = 2


class DatabaseUnavailable(Exception):
    """The database could not answer in time (down, unreachable, frozen, locked by another
    writer, or a write lost to a deadlock): the request is answered 503 with Retry-After.
    Either backend raises it in place of its own error, so callers catch one type."""


async def run_after_commit(hooks: Iterable[AfterCommit]) -> None:
    """A committed write's hooks, in the order they were added (both backends)."""
    for hook in hooks:
        result = hook()
        if result is not None:
            await result


class WriteConflict(DatabaseUnavailable):
    """The engine broke a deadlock or a serialization conflict by rolling this write back:
    nothing of it was kept and it may be run again as it was (`retry_conflicts`)."""


# Times a write that lost a conflict is run again before its request is answered 503.
CONFLICT_ATTEMPTS = 4


async def retry_conflicts(run: Callable[[], Awaitable[T]],
                          attempts: int = CONFLICT_ATTEMPTS) -> T:
    """`run()` (one whole write), again when the engine rolled it back to break a conflict;
    past `attempts`, the WriteConflict goes on (503 with Retry-After)."""
    for attempt in range(1, attempts + 1):
        try:
            return await run()
        except WriteConflict:
            if attempt == attempts:
                raise
            await asyncio.sleep(0.005 * attempt)  # let the winner commit first
    raise AssertionError("unreachable")


class Transaction(ABC):
    """One write: its statements, its after-commit hooks and the topics it notifies."""

    dialect: str  # "sqlite" or "postgresql": the few statements that differ pick by it
    path: str  # the database's, like Database.path
    # Appended to a SELECT of rows the write will change, so that concurrent writes of the
    # same rows take turns from the read on: a row lock on PostgreSQL; nothing on SQLite,
    # whose writer holds the whole file's lock from BEGIN IMMEDIATE.
    for_update: str = ""

    def __init__(self, path: str) -> None:
        self.path = path
        self.after_commit_hooks: list[AfterCommit] = []

    @abstractmethod
    async def execute(self, sql: str, params: Params | None = None) -> int:
        """Run one statement; returns the number of rows it changed."""

    async def defer(self, sql: str, params: Params | None = None, *,
                    check: Check | None = None) -> None:
        """A statement whose row count the write does not need yet: the backend may send it
        with the next statement or the COMMIT (PostgreSQL: one round trip for them all). A
        failure then surfaces there, still inside the write, which rolls back whole.

        `check`, when given, is called with the statement's row count (rows changed, or the
        rows a SELECT returned) as soon as it is known
        (on PostgreSQL when the next statement returns, and before COMMIT at the latest) and
        raises to refuse the write: a conditional UPDATE or an `INSERT … ON CONFLICT DO
        NOTHING` whose count decides, sent without a round trip of its own."""
        count = await self.execute(sql, params)
        if check is not None:
            check(count)

    async def fetch_each(self, statements: Sequence[tuple[str, Params | None]]
                         ) -> list[list[Row]]:
        """Reads that do not depend on each other, each one's rows, in order: PostgreSQL
        sends them, with whatever is deferred, in one round trip."""
        return [await self.fetch_all(sql, params) for sql, params in statements]

    @abstractmethod
    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None: ...

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]: ...

    @abstractmethod
    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None: ...

    def after_commit(self, hook: AfterCommit) -> None:
        """Run `hook` once the transaction has committed (never on rollback): the backend
        runs `after_commit_hooks` with `run_after_commit` after its COMMIT."""
        self.after_commit_hooks.append(hook)

    @abstractmethod
    def notify(self, topic: str) -> None:
        """Set `Database.signal(topic)` once the transaction has committed (in every process
        where the backend can reach them)."""


class Database(ABC):
    """A storage backend; `database_for(target)` picks one by the target's form, so callers
    never name one."""

    dialect: str
    path: str  # the SQLite file, or the PostgreSQL URL (password removed)
    # Whether `signal(topic)` is set by other processes' commits too (PostgreSQL's NOTIFY):
    # then waiters need to poll only as a safety net, not to see those commits.
    signals_every_process = False

    def poll_seconds(self, unsignalled: float) -> float:
        """How often a waiter on `signal` reads anyway: every `unsignalled` seconds where
        other processes' commits are found only by reading (SQLite), else as a safety net."""
        return SAFETY_NET_POLL_SECONDS if self.signals_every_process else unsignalled

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending migrations."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One write, atomic and isolated from every other; hooks run after its COMMIT."""

    @abstractmethod
    def signal(self, topic: str) -> asyncio.Event:
        """Set after a commit that called `tx.notify(topic)`; each topic has one waiting loop
        per process, which clears it."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None:
        """One row (the first): meant for lookups by key."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]: ...

    @abstractmethod
    async def ping(self, timeout: float) -> None:
        """Return once the database answers a query, or raise DatabaseUnavailable after
        `timeout` seconds (the readiness check, `GET /health`)."""


def locking(db: Database | Transaction, *tables: str) -> str:
    """What a SELECT of rows about to change ends with: the write's row lock inside a
    transaction (Transaction.for_update; `tables`: only theirs, as a join's outer side cannot
    be locked), nothing for a plain read."""
    if not isinstance(db, Transaction) or not db.for_update:
        return ""
    return db.for_update + (" OF " + ", ".join(tables) if tables else "")
