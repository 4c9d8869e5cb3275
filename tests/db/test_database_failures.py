"""How the SQLite database answers failures that are not the database's fault: a statement
with an error is raised as it is (a bug, not a 503), a ping that takes too long is
DatabaseUnavailable, a failed write leaves nothing behind and the next write works, and a
unique violation is the neutral IntegrityError on the writer, in the group and after it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from commerce_agent.db import Database, DatabaseUnavailable, IntegrityError, database_for


@pytest.fixture
async def db(tmp_path: Path) -> Any:
    database = database_for(str(tmp_path / "failures.db"), synchronous="NORMAL")
    await database.open()
    async with database.transaction() as tx:
        await tx.execute("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)")
    try:
        yield database
    finally:
        await database.close()


async def count(db: Database) -> int:
    row = await db.fetch_one("SELECT COUNT(*) AS n FROM notes")
    assert row is not None
    return int(row["n"])


async def test_a_bad_statement_is_raised_as_it_is(db: Database) -> None:
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await db.fetch_all("SELECT * FROM nowhere")
    with pytest.raises(sqlite3.OperationalError):
        await db.fetch_one("SELEKT 1")


async def test_a_ping_that_takes_too_long_is_unavailable(db: Database,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    await db.ping(5.0)  # answers

    async def stuck(sql: str, params: Any = None) -> list[Any]:
        await asyncio.sleep(10)
        return []

    monkeypatch.setattr(db, "fetch_all", stuck)
    with pytest.raises(DatabaseUnavailable, match="did not answer in time"):
        await db.ping(0.05)


async def test_a_failed_write_leaves_nothing_and_the_next_one_works(db: Database) -> None:
    with pytest.raises(RuntimeError, match="midway"):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO notes (id, body) VALUES (:id, :body)",
                             {"id": "n1", "body": "kept?"})
            raise RuntimeError("midway")
    assert await count(db) == 0
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO notes (id, body) VALUES (:id, :body)",
                         {"id": "n1", "body": "kept"})
    assert await count(db) == 1


async def test_a_unique_violation_is_the_neutral_integrity_error(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO notes (id, body) VALUES ('n1', 'first')")
    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO notes (id, body) VALUES ('n1', 'again')")
    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO notes (id, body) VALUES ('n2', NULL)")
    row = await db.fetch_one("SELECT body FROM notes WHERE id = 'n1'")
    assert row is not None and row["body"] == "first"
    assert await count(db) == 1


async def test_concurrent_writes_fail_alone(db: Database) -> None:
    """One write of a group failing its constraint fails alone; the others commit."""

    async def write(note_id: str, body: str | None) -> str:
        try:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO notes (id, body) VALUES (:id, :body)",
                                 {"id": note_id, "body": body})
        except IntegrityError:
            return "refused"
        return "written"

    results = await asyncio.gather(*(write(f"n{n}", None if n == 3 else "x")
                                     for n in range(6)))
    assert results == ["written"] * 3 + ["refused"] + ["written"] * 2
    assert await count(db) == 5

