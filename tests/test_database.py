"""The SQLite layer: WAL, recorded migrations, transactions and after-commit hooks."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from typing import Any

import pytest

from commerce_agent.db import Database


async def test_migrations_are_recorded_once(tmp_path: Any) -> None:
    path = os.path.join(tmp_path, "m.db")
    first, second = Database(path), Database(path)
    await asyncio.gather(first.open(), second.open())
    rows = await first.fetch_all("SELECT version, name FROM schema_migrations ORDER BY version")
    assert rows and rows[0]["name"] == "0001_core"
    assert len({row["version"] for row in rows}) == len(rows)
    mode = await first.fetch_one("PRAGMA journal_mode")
    assert mode[0] == "wal"
    await first.close()
    await second.close()


async def test_after_commit_hooks_run_only_after_commit(tmp_path: Any) -> None:
    db = Database(os.path.join(tmp_path, "h.db"))
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


async def test_readers_cannot_write(tmp_path: Any) -> None:
    db = Database(os.path.join(tmp_path, "r.db"))
    await db.open()
    with pytest.raises(sqlite3.OperationalError):
        await db.fetch_all("DELETE FROM reviews")
    await db.close()


def test_bad_synchronous_setting_is_refused(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        Database(os.path.join(tmp_path, "s.db"), synchronous="SOMETIMES")
