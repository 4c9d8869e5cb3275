"""The migration bookkeeping on an in-memory SQLite database: which files count as migrations
and in what order, scripts split into statements (trigger bodies kept whole), every migration
recorded once, and a failing one leaving nothing behind."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from commerce_agent.db import migrations


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_numbered_sql_files_only_in_numeric_order(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"0010_ten.sql": "SELECT 10;", "0002_two.sql": "SELECT 2;",
                                "README.md": "x", "notes.sql": "SELECT 0;",
                                "0003_three.sql.bak": "x"})
    (folder / "postgres").mkdir()
    assert migrations.migration_files(folder) == [(2, "0002_two", "SELECT 2;"),
                                                  (10, "0010_ten", "SELECT 10;")]


def test_two_migrations_with_one_number_are_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"0004_a.sql": "SELECT 1;", "0004_b.sql": "SELECT 2;"})
    with pytest.raises(RuntimeError, match="share a number"):
        migrations.migration_files(folder)


def test_a_trigger_body_stays_one_statement() -> None:
    script = """
    CREATE TABLE t (a INTEGER);  -- first
    CREATE TRIGGER t_moved AFTER UPDATE ON t BEGIN
        UPDATE t SET a = a + 1 WHERE a < 0;
        DELETE FROM t WHERE a > 9;
    END;

    INSERT INTO t VALUES (';');
    """
    statements = migrations._statements(script)
    assert len(statements) == 3
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    assert statements[2] == "INSERT INTO t VALUES (';');"


def test_an_unfinished_statement_is_refused() -> None:
    with pytest.raises(RuntimeError, match="incomplete SQL statement"):
        migrations._statements("CREATE TABLE t (a INTEGER);\nINSERT INTO t VALUES (1)")


def _memory() -> sqlite3.Connection:
    return sqlite3.connect(":memory:", isolation_level=None)


def test_every_migration_is_applied_and_recorded_once() -> None:
    connection = _memory()
    names = [name for _, name, _ in migrations._migration_files()]
    assert migrations.apply_migrations(connection) == names
    recorded = connection.execute(
        "SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
    assert [name for _, name in recorded] == names
    assert [version for version, _ in recorded] == [int(name[:4]) for name in names]
    assert migrations.apply_migrations(connection) == []
    assert connection.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] \
        == len(names)


def test_only_the_pending_migrations_run(monkeypatch: pytest.MonkeyPatch) -> None:
    connection = _memory()
    first = [(1, "0001_a", "CREATE TABLE a (x INTEGER);")]
    monkeypatch.setattr(migrations, "_migration_files", lambda: first)
    assert migrations.apply_migrations(connection) == ["0001_a"]
    monkeypatch.setattr(migrations, "_migration_files",
                        lambda: [*first, (2, "0002_b", "CREATE TABLE b (x INTEGER);")])
    assert migrations.apply_migrations(connection) == ["0002_b"]


def test_a_failing_migration_leaves_nothing_of_the_batch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    connection = _memory()
    monkeypatch.setattr(migrations, "_migration_files", lambda: [
        (1, "0001_a", "CREATE TABLE a (x INTEGER);"),
        (2, "0002_b", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);")])
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        migrations.apply_migrations(connection)
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert tables == {"schema_migrations"}
    assert connection.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] == 0
    assert not connection.in_transaction
