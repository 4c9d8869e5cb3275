"""The PostgreSQL backend's own guarantees (db/postgres.py), with two `Database` objects on one
database standing in for two processes: writes serialized by the advisory lock, signals set by
the other's commits (LISTEN/NOTIFY), hooks only after COMMIT, rows like sqlite3.Row, constraint
violations as IntegrityError, migrations applied once when both start together.

Each test makes a database of its own on 127.0.0.1:5432; without psycopg or the server they are
skipped with the reason, and fail instead when CI=true."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from importlib import resources
from typing import Any

import pytest

from commerce_agent.db import Database, IntegrityError, database_for
from commerce_agent.db.migrations import migration_files
from tests.pg import fresh_database, require_postgres


@pytest.fixture
def url() -> Iterator[str]:
    """A new, empty PostgreSQL database (not migrated: the test's openers migrate it)."""
    require_postgres()
    with fresh_database() as created:
        yield created


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two databases on one PostgreSQL database, opened (and so migrated) at the same time."""
    first, second = database_for(url), database_for(url)
    await asyncio.gather(first.open(), second.open())
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def _store(db: Database, store_id: str = "s") -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO stores (id, position, currency, doc) "
                         "VALUES (:id, 0, 'USD', '{\"name\": \"Shop\"}')", {"id": store_id})


async def test_migrations_are_applied_once_by_processes_starting_together(
        two: tuple[Database, Database]) -> None:
    first, _ = two
    rows = await first.fetch_all("SELECT version, name FROM schema_migrations ORDER BY version")
    scripts = migration_files(resources.files("commerce_agent.db") / "migrations" / "postgres")
    assert [row["version"] for row in rows] == [number for number, _, _ in scripts]
    assert rows[0][1] == "0001_core" and dict(rows[-1]) == {"version": scripts[-1][0],
                                                            "name": scripts[-1][1]}


async def test_stock_is_never_oversold_by_two_processes(two: tuple[Database, Database]) -> None:
    first, second = two
    await _store(first)
    async with first.transaction() as tx:
        await tx.execute("INSERT INTO catalogs (id, store_id, position, doc) "
                         "VALUES ('c', 's', 0, '{}')")
        await tx.execute("INSERT INTO items (id, catalog_id, store_id, position, name, price, "
                         "doc) VALUES ('i', 'c', 's', 0, 'Mug', '9', '{}')")
        await tx.execute("INSERT INTO stock (item_id, variant_id, quantity) VALUES ('i', '', 10)")

    async def take(db: Database) -> bool:
        async with db.transaction() as tx:
            # Read, then write in a separate statement: only serialized writes keep this safe.
            row = await tx.fetch_one("SELECT quantity FROM stock WHERE item_id = 'i'")
            assert row is not None
            if row["quantity"] < 1:
                return False
            await asyncio.sleep(0)
            changed = await tx.execute("UPDATE stock SET quantity = :left WHERE item_id = 'i'",
                                       {"left": row["quantity"] - 1})
            return changed == 1

    taken = await asyncio.gather(*(take(first if n % 2 else second) for n in range(50)))
    assert sum(taken) == 10
    row = await second.fetch_one("SELECT quantity FROM stock WHERE item_id = 'i'")
    assert row is not None and row[0] == 0


async def test_a_commit_signals_the_other_process_and_hooks_wait_for_commit(
        two: tuple[Database, Database]) -> None:
    first, second = two
    heard = second.signal("catalog")
    heard.clear()
    seen: list[bool] = []
    async with first.transaction() as tx:
        await tx.execute("INSERT INTO stores (id, position, currency, doc) "
                         "VALUES ('s', 0, 'USD', '{}')")
        tx.notify("catalog")
        tx.after_commit(lambda: seen.append(True))
        assert seen == [] and not first.signal("catalog").is_set()
    assert seen == [True] and first.signal("catalog").is_set()
    await asyncio.wait_for(heard.wait(), 5)


async def test_a_rolled_back_write_keeps_nothing_and_signals_nobody(
        two: tuple[Database, Database]) -> None:
    first, second = two
    second.signal("catalog").clear()
    hooks: list[str] = []
    with pytest.raises(RuntimeError):
        async with first.transaction() as tx:
            await _store_in(tx)
            tx.notify("catalog")
            tx.after_commit(lambda: hooks.append("ran"))
            raise RuntimeError("refused")
    assert await first.fetch_one("SELECT id FROM stores") is None
    await _store(first, "other")  # the connection is usable again
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(second.signal("catalog").wait(), 0.5)
    assert hooks == []


async def _store_in(tx: Any) -> None:
    await tx.execute("INSERT INTO stores (id, position, currency, doc) "
                     "VALUES ('s', 0, 'USD', '{}')")


async def test_a_constraint_violation_is_an_integrity_error(
        two: tuple[Database, Database]) -> None:
    first, _ = two
    await _store(first)
    with pytest.raises(IntegrityError):
        await _store(first)
    async with first.transaction() as tx:
        assert await tx.execute(
            "INSERT OR IGNORE INTO stores (id, position, currency, doc) "
            "VALUES ('s', 1, 'EUR', '{}')") == 0
    row = await first.fetch_one("SELECT currency FROM stores WHERE id = :id", {"id": "s"})
    assert row is not None and row["currency"] == "USD"


async def test_concurrent_writes_share_commits_and_keep_their_own_failures(
        two: tuple[Database, Database]) -> None:
    first, second = two
    transactions: list[int] = []

    async def write(number: int) -> None:
        async with first.transaction() as tx:
            row = await tx.fetch_one("SELECT txid_current() AS id")
            assert row is not None
            transactions.append(row["id"])
            await tx.execute("INSERT INTO stores (id, position, currency, doc) "
                             "VALUES (:id, :n, 'USD', '{}')", {"id": f"s{number}", "n": number})
            if number % 3 == 0:
                raise ValueError(number)

    outcomes = await asyncio.gather(*(write(n) for n in range(30)), return_exceptions=True)
    assert [n for n, outcome in enumerate(outcomes) if outcome is not None] == \
        list(range(0, 30, 3))
    rows = await second.fetch_all("SELECT id FROM stores ORDER BY position")
    assert [row["id"] for row in rows] == [f"s{n}" for n in range(30) if n % 3]
    assert len(set(transactions)) < len(transactions)  # some writes shared one COMMIT


async def test_a_lost_listen_connection_wakes_every_waiter_and_listens_again(
        two: tuple[Database, Database]) -> None:
    first, second = two
    waiter = second.signal("catalog")
    waiter.clear()
    async with first.transaction() as tx:  # the listeners' sessions: ended by the server
        await tx.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = current_database() AND query LIKE 'LISTEN %'")
    # Woken once listening again: notifications may have been missed meanwhile.
    await asyncio.wait_for(waiter.wait(), 10)
    waiter.clear()
    async with first.transaction() as tx:
        await _store_in(tx)
        tx.notify("catalog")
    await asyncio.wait_for(waiter.wait(), 10)
