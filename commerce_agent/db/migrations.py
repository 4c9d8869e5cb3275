"""Numbered migrations (`migrations/NNNN_name.sql`), each applied once and recorded.

PostgreSQL has its own scripts with the same numbers (`migrations/postgres/`), applied by
db/postgres.py the same way."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from importlib import resources
from importlib.abc import Traversable


def migration_files(folder: Traversable) -> list[tuple[int, str, str]]:
    """(number, name, script) of each `NNNN_name.sql` in `folder`, in order."""
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name[:-4], entry.read_text(encoding="utf-8")))
    numbers = [number for number, _, _ in found]
    if len(numbers) != len(set(numbers)):
        raise RuntimeError(f"two migrations share a number: {sorted(numbers)}")
    return sorted(found)


def _migration_files() -> list[tuple[int, str, str]]:
    return migration_files(resources.files("commerce_agent.db") / "migrations")


def _statements(script: str) -> list[str]:
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                statements.append(pending.strip())
            pending = ""
    if pending.strip():
        raise RuntimeError(f"incomplete SQL statement in migration: {pending[:80]!r}")
    return statements


def apply_migrations(connection: sqlite3.Connection) -> list[str]:
    """Apply pending migrations in one IMMEDIATE transaction, safe with concurrent starters."""
    connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    applied: list[str] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        done = {row[0] for row in connection.execute("SELECT version FROM schema_migrations")}
        for number, name, script in _migration_files():
            if number in done:
                continue
            for statement in _statements(script):
                connection.execute(statement)
            connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) "
                "VALUES (:version, :name, :at)",
                {"version": number, "name": name, "at": datetime.now(UTC).isoformat()},
            )
            applied.append(name)
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
    return applied
