"""Choosing the backend from --db, binding `:name` placeholders for psycopg, the few spellings
that differ per dialect, and the two migration folders keeping the same numbers (none of it
needs a PostgreSQL server; tests/db/test_schema_parity.py compares the schemas themselves)."""

from __future__ import annotations

import builtins
import os
import threading
from importlib import resources
from typing import Any

import pytest
from click.testing import CliRunner

from commerce_agent.cli import main
from commerce_agent.db import database_for
from commerce_agent.db.backends import MissingExtra, backend_for
from commerce_agent.db.database import SqliteDatabase
from commerce_agent.db.dialect import json_text
from commerce_agent.db.migrations import migration_files
from commerce_agent.db.placeholders import PlaceholderError, named_list, to_pyformat
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
    # Only this test's thread goes without: the support threads that make and drop other
    # tests' PostgreSQL databases meanwhile still import psycopg.
    this_thread = threading.get_ident()

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] in ("psycopg", "psycopg_pool") and \
                threading.get_ident() == this_thread:
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


@pytest.mark.parametrize(("written", "psycopg"), [
    ("SELECT * FROM t WHERE a = :a AND b = :b_2",
     "SELECT * FROM t WHERE a = %(a)s AND b = %(b_2)s"),
    # Quoted text, quoted names and casts are left alone; a literal % is escaped for psycopg.
    ("SELECT ':a', \"x:y\", x::jsonb FROM t WHERE y LIKE 'a%' AND z = :z",
     "SELECT ':a', \"x:y\", x::jsonb FROM t WHERE y LIKE 'a%%' AND z = %(z)s"),
    ("SELECT 'it''s :not' AS a, :yes", "SELECT 'it''s :not' AS a, %(yes)s"),
    # A comment holding a quote (or a name) neither opens text nor binds anything.
    ("SELECT a -- the buyer's :note\nFROM t WHERE id = :id",
     "SELECT a -- the buyer's :note\nFROM t WHERE id = %(id)s"),
    ("SELECT /* don't /* nested :x */ bind */ :id",
     "SELECT /* don't /* nested :x */ bind */ %(id)s"),
    ("SELECT $$ it's :x $$, $tag$ :y ' $tag$, :z", "SELECT $$ it's :x $$, $tag$ :y ' $tag$, %(z)s"),
    # What is written for both databases goes through unchanged.
    ("INSERT INTO r (a) VALUES (:a) ON CONFLICT DO NOTHING RETURNING a",
     "INSERT INTO r (a) VALUES (%(a)s) ON CONFLICT DO NOTHING RETURNING a"),
    ("SELECT 1 WHERE (CAST(:status AS TEXT) IS NULL OR status = :status)",
     "SELECT 1 WHERE (CAST(%(status)s AS TEXT) IS NULL OR status = %(status)s)"),
])
def test_named_placeholders_become_psycopg_ones(written: str, psycopg: str) -> None:
    assert to_pyformat(written) == psycopg


@pytest.mark.parametrize("statement", [
    "SELECT * FROM t WHERE a = ?", "SELECT 'open", "SELECT 1 /* open", "SELECT $$ open",
    'SELECT "open'])
def test_statements_that_cannot_be_bound_by_name_are_refused(statement: str) -> None:
    with pytest.raises(PlaceholderError):
        to_pyformat(statement)


def test_an_in_list_binds_each_value_by_name() -> None:
    assert named_list("s", ["a", "b"]) == (":s0, :s1", {"s0": "a", "s1": "b"})
    assert named_list("s", []) == ("NULL", {})


def test_json_text_is_spelled_per_dialect() -> None:
    assert json_text("sqlite", "doc", "metadata", "dev.x", "slug") == \
        """json_extract(doc, '$."metadata"."dev.x"."slug"')"""
    assert json_text("postgresql", "items.doc", "price", "currency") == \
        """(CAST(items.doc AS jsonb) #>> '{"price","currency"}')"""
    for bad in (("sqlite", "doc"), ("sqlite", "doc", "it's"), ("sqlite", "doc; --", "a"),
                ("mysql", "doc", "a")):
        with pytest.raises(ValueError):
            json_text(*bad)
