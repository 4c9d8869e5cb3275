"""What every storage backend shares, without a database: writes that lost a conflict run
again (and nothing else does), after-commit hooks in order, row locks only inside a write, and
how often a waiter reads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from commerce_agent.db.base import (
    CONFLICT_ATTEMPTS,
    SAFETY_NET_POLL_SECONDS,
    AfterCommit,
    Database,
    DatabaseUnavailable,
    Params,
    Row,
    Transaction,
    WriteConflict,
    locking,
    retry_conflicts,
    run_after_commit,
)


class _Write:
    """A write that fails with each of `failures` in turn, then returns "done"."""

    def __init__(self, *failures: Exception) -> None:
        self.failures = list(failures)
        self.runs = 0

    async def __call__(self) -> str:
        self.runs += 1
        if self.failures:
            raise self.failures.pop(0)
        return "done"


async def test_a_write_that_lost_a_conflict_runs_again() -> None:
    write = _Write(WriteConflict(), WriteConflict())
    assert await retry_conflicts(write) == "done"
    assert write.runs == 3


async def test_past_its_attempts_the_conflict_goes_on() -> None:
    write = _Write(*[WriteConflict() for _ in range(CONFLICT_ATTEMPTS)])
    with pytest.raises(WriteConflict):
        await retry_conflicts(write)
    assert write.runs == CONFLICT_ATTEMPTS
    once = _Write(WriteConflict())
    with pytest.raises(WriteConflict):
        await retry_conflicts(once, attempts=1)
    assert once.runs == 1


@pytest.mark.parametrize("failure", [DatabaseUnavailable("down"), ValueError("bad"),
                                     KeyError("x")])
async def test_other_failures_are_not_run_again(failure: Exception) -> None:
    write = _Write(failure)
    with pytest.raises(type(failure)):
        await retry_conflicts(write)
    assert write.runs == 1


def test_a_conflict_is_answered_as_an_unavailable_database() -> None:
    assert issubclass(WriteConflict, DatabaseUnavailable)  # 503 with Retry-After past retries


async def test_hooks_run_in_the_order_added_sync_or_async() -> None:
    ran: list[str] = []

    def first() -> None:
        ran.append("first")

    async def later() -> None:
        ran.append("async")

    def last() -> None:
        ran.append("last")

    hooks: list[AfterCommit] = [first, later, last]
    await run_after_commit(hooks)
    assert ran == ["first", "async", "last"]


async def test_a_failing_hook_stops_the_ones_after_it() -> None:
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("hook")

    def after() -> None:
        ran.append("after")

    with pytest.raises(RuntimeError):
        await run_after_commit([broken, after])
    assert ran == []


class _Tx(Transaction):
    """Statements kept, each changing `count` rows."""

    dialect = "sqlite"
    path = ":memory:"

    def __init__(self, count: int = 1, for_update: str = "") -> None:
        self.count = count
        self.for_update = for_update
        self.statements: list[tuple[str, Params | None]] = []

    async def execute(self, sql: str, params: Params | None = None) -> int:
        self.statements.append((sql, params))
        return self.count

    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None:
        return None

    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]:
        self.statements.append((sql, params))
        return []

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        raise NotImplementedError

    def after_commit(self, hook: AfterCommit) -> None:
        raise NotImplementedError

    def notify(self, topic: str) -> None:
        raise NotImplementedError


async def test_a_deferred_statement_is_checked_with_its_row_count() -> None:
    counts: list[int] = []
    tx = _Tx(count=0)
    await tx.defer("UPDATE t SET a = 1", {"a": 1}, check=counts.append)
    assert counts == [0] and tx.statements == [("UPDATE t SET a = 1", {"a": 1})]

    def refuse(rows: int) -> None:
        raise LookupError(rows)

    with pytest.raises(LookupError):
        await tx.defer("UPDATE t SET a = 2", check=refuse)
    await tx.defer("DELETE FROM t")  # no check: nothing to judge


async def test_independent_reads_answer_in_order() -> None:
    tx = _Tx()
    assert await tx.fetch_each([("SELECT 1", None), ("SELECT 2", {"x": 1})]) == [[], []]
    assert [sql for sql, _ in tx.statements] == ["SELECT 1", "SELECT 2"]


def test_row_locks_only_inside_a_write_that_has_them() -> None:
    assert locking(_Tx(for_update=" FOR UPDATE")) == " FOR UPDATE"
    assert locking(_Tx(for_update=" FOR UPDATE"), "orders", "carts") \
        == " FOR UPDATE OF orders, carts"
    assert locking(_Tx(), "orders") == ""  # SQLite's writer holds the file already


class _Db(Database):
    dialect = "sqlite"
    path = ":memory:"

    def __init__(self, every_process: bool) -> None:
        self.signals_every_process = every_process

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    def transaction(self) -> Any:
        raise NotImplementedError

    def signal(self, topic: str) -> Any:
        raise NotImplementedError

    async def fetch_one(self, sql: str, params: Params | None = None) -> Row | None:
        return None

    async def fetch_all(self, sql: str, params: Params | None = None) -> list[Row]:
        return []

    async def ping(self, timeout: float) -> None: ...


def test_plain_reads_take_no_lock_and_waiters_poll_per_backend() -> None:
    assert locking(_Db(False), "orders") == ""
    assert _Db(False).poll_seconds(0.25) == 0.25  # other processes' commits: only by reading
    assert _Db(True).poll_seconds(0.25) == SAFETY_NET_POLL_SECONDS
