"""The storage layer: recorded migrations, transactions, after-commit hooks and read-only
readers on both backends (the make_db fixture gives each test its database on its backend);
then what only SQLite has: WAL, group commit and the fsync after the lock."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest

from commerce_agent.db import Database, IntegrityError, database_for

pytestmark = pytest.mark.both_backends
MakeDb = Callable[[str], str]


def refused_write(backend: str) -> type[Exception]:
    """What a reader raises when asked to write."""
    if backend == "postgres":
        import psycopg
        return psycopg.errors.ReadOnlySqlTransaction
    return sqlite3.OperationalError


async def test_migrations_are_recorded_once(make_db: MakeDb, backend: str) -> None:
    path = make_db("m.db")
    first, second = database_for(path), database_for(path)
    await asyncio.gather(first.open(), second.open())
    rows = await first.fetch_all("SELECT version, name FROM schema_migrations ORDER BY version")
    assert rows and rows[0]["name"] == "0001_core"
    assert len({row["version"] for row in rows}) == len(rows)
    if backend == "sqlite":
        mode = await first.fetch_one("PRAGMA journal_mode")
        assert mode is not None and mode[0] == "wal"
    await first.close()
    await second.close()


async def test_after_commit_hooks_run_only_after_commit(make_db: MakeDb) -> None:
    db = database_for(make_db("h.db"))
    await db.open()
    seen: list[str] = []
    async with db.transaction() as tx:
        tx.after_commit(lambda: seen.append("committed"))
        await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                         "VALUES ('r', 'i', 'u', 5, 'now')")
        assert seen == []
    assert seen == ["committed"]
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            tx.after_commit(lambda: seen.append("rolled back"))
            raise RuntimeError
    assert seen == ["committed"]
    await db.close()


async def test_readers_cannot_write(make_db: MakeDb, backend: str) -> None:
    db = database_for(make_db("r.db"))
    await db.open()
    with pytest.raises(refused_write(backend)):
        await db.fetch_all("DELETE FROM reviews")
    await db.close()


async def test_single_row_reads_see_commits_and_cannot_write(make_db: MakeDb,
                                                             backend: str) -> None:
    db = database_for(make_db("l.db"))
    await db.open()
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                         "VALUES ('r', 'i', 'u', 5, 'now')")
    row = await db.fetch_one("SELECT rating FROM reviews WHERE id = :id", {"id": "r"})
    assert row is not None and row["rating"] == 5
    with pytest.raises(refused_write(backend)):
        await db.fetch_one("DELETE FROM reviews RETURNING id")
    assert await db.fetch_one("SELECT id FROM reviews") is not None
    await db.close()


async def _thirty_writes_every_third_failing(db: Database) -> None:
    """Concurrent writes: each failure rolls back its own write only, and each success is
    visible to readers by the time its after-commit hook runs."""
    seen_after_commit: list[bool] = []

    async def write(index: int) -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                             "VALUES (:id, 'i', :id, 5, 'now')", {"id": f"r{index}"})

            async def visible() -> None:  # a reader (another connection) sees it by now
                row = await db.fetch_one("SELECT 1 FROM reviews WHERE id = :id",
                                         {"id": f"r{index}"})
                seen_after_commit.append(row is not None)

            tx.after_commit(visible)
            await asyncio.sleep(0)
            if index % 3 == 0:
                raise RuntimeError(f"write {index} fails")

    results = await asyncio.gather(*(write(i) for i in range(30)), return_exceptions=True)
    failed = [i for i, result in enumerate(results) if isinstance(result, RuntimeError)]
    assert failed == list(range(0, 30, 3))
    rows = await db.fetch_all("SELECT id FROM reviews ORDER BY id")
    assert sorted(row["id"] for row in rows) == sorted(f"r{i}" for i in range(30) if i % 3)
    assert seen_after_commit == [True] * 20


async def test_concurrent_writes_keep_their_own_failures(make_db: MakeDb) -> None:
    db = database_for(make_db("w.db"))
    await db.open()
    try:
        await _thirty_writes_every_third_failing(db)
    finally:
        await db.close()


async def test_a_write_failing_at_commit_is_not_acknowledged(make_db: MakeDb) -> None:
    """slot_bookings' foreign key is checked at COMMIT: the write fails there, its hook never
    runs, nothing of it stays, and the next write goes ahead."""
    db = database_for(make_db("c.db"))
    await db.open()
    hooks: list[str] = []
    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                             "VALUES ('lost', 'i', 'u', 5, 'now')")
            await tx.execute("INSERT INTO slot_bookings (item_id, slot_id, order_id, "
                             "owner_id, created_at) VALUES ('i', 's', 'no_such_order', 'u', "
                             "'now')")
            tx.after_commit(lambda: hooks.append("dangling"))
    assert hooks == []
    assert await db.fetch_all("SELECT id FROM reviews") == []
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                         "VALUES ('after', 'i', 'u', 5, 'now')")
        tx.after_commit(lambda: hooks.append("after"))
    assert hooks == ["after"]
    await db.close()


# --- SQLite only: its connections, WAL, group commit and the sync after the lock ----------------

async def test_a_busy_single_row_read_is_retried_on_a_reader_thread(tmp_path: Any) -> None:
    """A lookup runs on the event loop with busy_timeout 0, so it never waits there; when
    SQLite answers busy (rare in WAL) the read is made again on a reader thread."""
    db = database_for(os.path.join(tmp_path, "b.db"))
    await db.open()
    assert db._lookups is not None
    timeout = db._lookups.execute("PRAGMA busy_timeout").fetchone()[0]
    assert timeout == 0

    class Busy:
        def execute(self, sql: str, params: Any = ()) -> Any:
            raise sqlite3.OperationalError("database is locked")

    lookups, db._lookups = db._lookups, Busy()  # type: ignore[assignment]
    row = await db.fetch_one("SELECT COUNT(*) AS n FROM reviews")
    assert row is not None and row["n"] == 0

    class Broken(Busy):
        def execute(self, sql: str, params: Any = ()) -> Any:
            raise sqlite3.OperationalError("no such table: nothing")

    db._lookups = Broken()  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await db.fetch_one("SELECT 1")
    db._lookups = lookups
    await db.close()


def test_bad_synchronous_setting_is_refused(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        database_for(os.path.join(tmp_path, "s.db"), synchronous="SOMETIMES")


async def test_concurrent_writes_share_commits(tmp_path: Any) -> None:
    db = database_for(os.path.join(tmp_path, "g.db"))
    await db.open()
    commits = 0
    original = db._commit  # type: ignore[attr-defined]

    async def counted(group: Any) -> None:
        nonlocal commits
        commits += 1
        await original(group)

    db._commit = counted  # type: ignore[attr-defined]
    await _thirty_writes_every_third_failing(db)
    assert 1 <= commits < 20  # grouped: fewer COMMITs (fsyncs) than writes
    await db.close()


def _temporary_files() -> list[str]:
    """SQLite's temporary files this process has open (named etilqs_…, already unlinked)."""
    found = []
    for descriptor in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{descriptor}")
        except OSError:  # closed since the listing
            continue
        if "etilqs_" in target:
            found.append(target)
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs Linux's /proc/self/fd")
async def test_a_write_changing_many_pages_keeps_its_savepoint_journal_in_memory(
        tmp_path: Any) -> None:
    """Past 64 KiB, a savepoint's journal would spill to a temporary file (and every page a
    write changes would then cost a file write); in memory it never does."""
    db = database_for(os.path.join(tmp_path, "t.db"))
    await db.open()
    try:
        async with db.transaction() as tx:  # about a hundred pages of rows
            await tx.execute_many(
                "INSERT INTO reviews (id, item_id, owner_id, rating, comment, created_at) "
                "VALUES (:id, 'i', :id, 5, :comment, 'now')",
                [{"id": f"r{index}", "comment": "c" * 1000} for index in range(400)])
        async with db.transaction() as tx:
            assert await tx.execute("UPDATE reviews SET rating = 4") == 400
            assert _temporary_files() == []
        row = await db.fetch_one("SELECT COUNT(*) FROM reviews WHERE rating = 4")
        assert row is not None and row[0] == 400
    finally:
        await db.close()


async def test_a_failed_commit_fails_every_write_of_its_group(tmp_path: Any) -> None:
    """slot_bookings' foreign key is checked at COMMIT: a write that breaks it takes down the
    writes grouped with it, and none of them is acknowledged."""
    db = database_for(os.path.join(tmp_path, "f.db"))
    await db.open()
    hooks: list[str] = []

    async def good() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                             "VALUES ('good', 'i', 'u', 5, 'now')")
            tx.after_commit(lambda: hooks.append("good"))

    async def dangling() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO slot_bookings (item_id, slot_id, order_id, owner_id, "
                             "created_at) VALUES ('i', 's', 'no_such_order', 'u', 'now')")
            tx.after_commit(lambda: hooks.append("dangling"))
            await asyncio.sleep(0.01)  # `good` queues behind it and joins its group

    results = await asyncio.gather(dangling(), good(), return_exceptions=True)
    assert all(isinstance(result, IntegrityError) for result in results), results
    assert all(isinstance(result.__cause__, sqlite3.IntegrityError) for result in results)
    assert hooks == []
    assert await db.fetch_all("SELECT id FROM reviews") == []
    async with db.transaction() as tx:  # the writer is usable again
        await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                         "VALUES ('after', 'i', 'u', 5, 'now')")
    assert len(await db.fetch_all("SELECT id FROM reviews")) == 1
    await db.close()


async def _insert(db: Database, review_id: str, hooks: list[str]) -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                         "VALUES (:id, 'i', :id, 5, 'now')", {"id": review_id})
        tx.after_commit(lambda: hooks.append(review_id))


async def _visible(db: Database, review_id: str) -> None:
    for _ in range(1000):
        if await db.fetch_one("SELECT 1 FROM reviews WHERE id = :id", {"id": review_id}):
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"{review_id} never committed")


async def test_full_writes_are_acknowledged_only_after_the_wal_sync(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """synchronous=FULL: the WAL is synced off the lock, and nothing is acknowledged (no
    return, no hook) before its sync, while the next write goes ahead meanwhile."""
    from commerce_agent.db import database

    release = threading.Event()
    synced: list[int] = []

    def held_sync(descriptor: int) -> None:
        if not synced:  # the first sync waits for the test
            release.wait(10)
        synced.append(descriptor)

    monkeypatch.setattr(database, "_sync", held_sync)
    db = database_for(os.path.join(tmp_path, "d.db"))
    await db.open()
    assert db._wal is not None
    writer_mode = db._writer.execute("PRAGMA synchronous").fetchone()[0]  # type: ignore[union-attr]
    assert writer_mode == 1  # NORMAL: the sync is ours
    hooks: list[str] = []
    first = asyncio.create_task(_insert(db, "first", hooks))
    await _visible(db, "first")  # committed (other connections read it) …
    await asyncio.sleep(0.05)
    assert not first.done() and hooks == []  # … but not on disk yet: not acknowledged
    second = asyncio.create_task(_insert(db, "second", hooks))
    # The second write takes the lock and commits while the first one's sync is held.
    await _visible(db, "second")
    assert hooks == [] and not second.done()
    release.set()
    await asyncio.wait_for(asyncio.gather(first, second), 10)
    assert hooks == ["first", "second"] and len(synced) == 2
    await db.close()


async def test_a_failed_wal_sync_fails_its_writes(tmp_path: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from commerce_agent.db import database

    def failing_sync(descriptor: int) -> None:
        raise OSError(5, "Input/output error")

    db = database_for(os.path.join(tmp_path, "e.db"))
    await db.open()
    monkeypatch.setattr(database, "_sync", failing_sync)
    hooks: list[str] = []
    with pytest.raises(OSError, match="Input/output"):
        await _insert(db, "unsure", hooks)
    assert hooks == []
    monkeypatch.undo()
    await _insert(db, "later", hooks)  # the writer goes on
    assert hooks == ["later"]
    await db.close()


async def test_other_synchronous_settings_leave_syncing_to_sqlite(tmp_path: Any) -> None:
    for setting, code in (("NORMAL", 1), ("EXTRA", 3)):
        db = database_for(os.path.join(tmp_path, f"{setting}.db"), synchronous=setting)
        await db.open()
        assert db._wal is None
        mode = db._writer.execute("PRAGMA synchronous").fetchone()[0]  # type: ignore[union-attr]
        assert mode == code
        await _insert(db, "r", [])
        await db.close()
