"""Choosing the backend from --db, translating statements for PostgreSQL, and the two
migration folders keeping the same numbers (none of it needs a PostgreSQL server)."""

from __future__ import annotations

import builtins
import os
from importlib import resources
from typing import Any

import pytest
from click.testing import CliRunner

from commerce_agent.cli import main
from commerce_agent.db import database_for
from commerce_agent.db.backends import MissingExtra, backend_for
from commerce_agent.db.database import SqliteDatabase
from commerce_agent.db.dialect import NotPortable, to_postgres
from commerce_agent.db.migrations import migration_files
from commerce_agent.db.targets import display


def test_both_migration_folders_have_the_same_numbers() -> None:
    folder = resources.files("commerce_agent.db") / "migrations"
    sqlite = [(number, name) for number, name, _ in migration_files(folder)]
    postgres = [(number, name) for number, name, _ in migration_files(folder / "postgres")]
    assert sqlite == postgres
    assert [number for number, _ in sqlite] == list(range(1, len(sqlite) + 1))


def test_a_path_is_sqlite_and_a_url_postgresql(tmp_path: Any) -> None:
    path = os.path.join(tmp_path, "x.db")
    assert type(database_for(path)) is SqliteDatabase
    assert type(database_for(path, synchronous="NORMAL")) is SqliteDatabase
    pytest.importorskip("psycopg")
    for url in ("postgresql://u@h/db", "postgres://u@h/db"):
        database = database_for(url, synchronous="NORMAL")  # SQLite's option is ignored
        assert database.dialect == "postgresql" and type(database_for(url)) is type(database)


def _without_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] in ("psycopg", "psycopg_pool"):
            raise ImportError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    monkeypatch.delitem(__import__("sys").modules, "commerce_agent.db.postgres", raising=False)


def test_a_url_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _without_psycopg(monkeypatch)
    with pytest.raises(MissingExtra, match=r"pip install 'commerce-agent\[postgres\]'"):
        backend_for("postgresql://u@h/db")
    result = CliRunner().invoke(main, ["seed", "--db", "postgresql://u@h/db"])
    assert result.exit_code == 2
    assert "commerce-agent[postgres]" in result.output


def test_printed_urls_hide_the_password() -> None:
    assert display("postgresql://shop:s3cret@db.internal/shop") == \
        "postgresql://shop:***@db.internal/shop"
    assert display("postgresql://shop@db.internal/shop") == "postgresql://shop@db.internal/shop"
    assert display("./commerce-agent.db") == "./commerce-agent.db"


@pytest.mark.parametrize(("sqlite", "postgresql"), [
    ("SELECT * FROM t WHERE a = :a AND b = ?", "SELECT * FROM t WHERE a = %(a)s AND b = %s"),
    # Quoted text and casts are left alone; a literal % is escaped for psycopg.
    ("SELECT ':a', \"?\", x::jsonb FROM t WHERE y LIKE 'a%'",
     "SELECT ':a', \"?\", x::jsonb FROM t WHERE y LIKE 'a%%'"),
    ("SELECT 1 WHERE (:status IS NULL OR status = :status)",
     "SELECT 1 WHERE (%(status)s::text IS NULL OR status = %(status)s)"),
    ("INSERT OR IGNORE INTO r (a) VALUES (:a)",
     "INSERT INTO r (a) VALUES (%(a)s) ON CONFLICT DO NOTHING"),
    ("INSERT OR IGNORE INTO r (a) VALUES (:a) RETURNING a",
     "INSERT INTO r (a) VALUES (%(a)s) ON CONFLICT DO NOTHING RETURNING a"),
    ("SELECT json_extract(doc, '$.metadata.\"dev.x\".slug') FROM items",
     "SELECT (doc::jsonb #>> '{\"metadata\",\"dev.x\",\"slug\"}') FROM items"),
    ("UPDATE items SET doc = json_set(doc, '$.name', 'Ash') WHERE id = :id",
     "UPDATE items SET doc = jsonb_set(doc::jsonb, '{\"name\"}', to_jsonb('Ash'::text))::text "
     "WHERE id = %(id)s"),
])
def test_statements_are_translated_for_postgresql(sqlite: str, postgresql: str) -> None:
    assert to_postgres(sqlite) == postgresql


@pytest.mark.parametrize("statement", [
    "PRAGMA foreign_keys = ON", "INSERT OR REPLACE INTO t (a) VALUES (1)",
    "REPLACE INTO t (a) VALUES (1)", "SELECT json_extract(doc, '$[0]') FROM t"])
def test_sqlite_only_statements_are_refused(statement: str) -> None:
    with pytest.raises(NotPortable):
        to_postgres(statement)
