"""Both migration folders build the same schema: applied to a new SQLite file and to a new
PostgreSQL database, they give the same tables, columns (of compatible types and the same
nullability), primary keys, unique constraints and indexes (their columns, order, uniqueness
and partial conditions).

What differs by design is listed here, each with its reason, and nothing else may: the search
index (FTS5 tables on SQLite, a tsvector table on PostgreSQL, migration 0009) and the
`rowid` column PostgreSQL declares where storage orders by SQLite's implicit one."""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import pytest

from commerce_agent.db.migrations import apply_migrations
from tests.support.pg import fresh_database, require_postgres

# Each backend's own search index (migrations 0009 and 0017): compared by
# tests/api/test_search.py's behaviour on both, not by shape.
SEARCH_INDEX = {"sqlite": {"items_fts", "items_trigram", "item_search_keys"},
                "postgresql": {"item_search", "item_search_terms"}}
# Declared types, by the values both backends store in them.
_TYPES = {"text": "text", "character varying": "text", "varchar": "text",
          "integer": "integer", "int": "integer", "bigint": "integer", "smallint": "integer",
          "real": "real", "double precision": "real", "numeric": "numeric",
          "blob": "blob", "bytea": "blob"}


@dataclass
class Table:
    columns: dict[str, tuple[str, bool]] = field(default_factory=dict)  # name: (type, null?)
    primary_key: tuple[str, ...] = ()
    unique: set[tuple[str, ...]] = field(default_factory=set)  # UNIQUE constraints
    # Indexes created by name (CREATE INDEX): (columns, unique, partial condition).
    indexes: dict[str, tuple[tuple[str, ...], bool, str]] = field(default_factory=dict)
    has_rowid: bool = False


def _type(declared: str) -> str:
    base = re.sub(r"\(.*\)", "", declared.lower()).strip()
    return _TYPES.get(base, base)


def _condition(text: str | None) -> str:
    """A partial index's WHERE, spelled alike: no casts, parentheses, quotes of names or case."""
    if not text:
        return ""
    text = re.sub(r"::[a-z ]+", "", text.lower())
    return re.sub(r"[()\"\s]+", " ", text).strip()


def sqlite_schema(path: str) -> dict[str, Table]:
    connection = sqlite3.connect(path)
    try:
        apply_migrations(connection)
        tables: dict[str, Table] = {}
        names = [row[0] for row in connection.execute(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for name in names:
            if name in SEARCH_INDEX["sqlite"]:
                continue
            table = tables[name] = Table()
            table.has_rowid = not connection.execute(
                "SELECT wr FROM pragma_table_list WHERE name = ?", (name,)).fetchone()[0]
            keyed = []
            for _, column, declared, notnull, _, pk in connection.execute(
                    f"PRAGMA table_info('{name}')"):
                table.columns[column] = (_type(declared), not (notnull or pk))
                if pk:
                    keyed.append((pk, column))
            table.primary_key = tuple(column for _, column in sorted(keyed))
            for _, index, unique, origin, partial in connection.execute(
                    f"PRAGMA index_list('{name}')"):
                columns = tuple(
                    (column if column is not None else "<expression>") + (" desc" if desc else "")
                    for _, _, column, desc, _, key in connection.execute(
                        f"PRAGMA index_xinfo('{index}')") if key)
                if origin == "u":
                    table.unique.add(columns)
                elif origin == "c":
                    sql = connection.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                                             (index,)).fetchone()[0]
                    where = re.search(r"\bWHERE\b(.*)$", sql, re.I | re.S) if partial else None
                    table.indexes[index] = (columns, bool(unique),
                                            _condition(where[1] if where else None))
        return tables
    finally:
        connection.close()


def postgres_schema(url: str) -> dict[str, Table]:
    import psycopg

    tables: dict[str, Table] = {}
    with psycopg.connect(url) as connection:
        for (name,) in connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "ORDER BY tablename").fetchall():
            if name not in SEARCH_INDEX["postgresql"]:
                tables[name] = Table()
        for name, column, declared, nullable in connection.execute(
                "SELECT table_name, column_name, data_type, is_nullable "
                "FROM information_schema.columns WHERE table_schema = current_schema() "
                "ORDER BY table_name, ordinal_position").fetchall():
            if name in tables:
                tables[name].columns[column] = (_type(declared), nullable == "YES")
        indexes = connection.execute(
            "SELECT t.relname, i.relname, x.indisunique, x.indisprimary, "
            "pg_get_expr(x.indpred, x.indrelid), c.contype, "
            "ARRAY(SELECT CASE WHEN k.attnum = 0 THEN '<expression>' ELSE a.attname END "
            "  || CASE WHEN x.indoption[k.ord - 1] & 1 = 1 THEN ' desc' ELSE '' END "
            "  FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord) "
            "  LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum "
            "  ORDER BY k.ord) "
            "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
            "JOIN pg_class t ON t.oid = x.indrelid "
            "JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema() "
            "LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid").fetchall()
        for name, index, unique, primary, where, constraint, columns in indexes:
            if name not in tables:
                continue
            table = tables[name]
            if primary:
                table.primary_key = tuple(columns)
            elif constraint == "u":
                table.unique.add(tuple(columns))
            else:
                table.indexes[index] = (tuple(columns), unique, _condition(where))
    return tables


def differences(sqlite: dict[str, Table], postgres: dict[str, Table]) -> list[str]:
    """What one schema has and the other has not, one line each."""
    found = [f"table {name} only on {side}"
             for side, mine, other in (("SQLite", sqlite, postgres),
                                       ("PostgreSQL", postgres, sqlite))
             for name in sorted(set(mine) - set(other))]
    for name in sorted(set(sqlite) & set(postgres)):
        lite, pg = sqlite[name], postgres[name]
        pg_columns = dict(pg.columns)
        if "rowid" in pg_columns and "rowid" not in lite.columns and lite.has_rowid:
            del pg_columns["rowid"]  # declared where SQLite's implicit rowid is read
        for column in sorted(set(lite.columns) | set(pg_columns)):
            if lite.columns.get(column) != pg_columns.get(column):
                found.append(f"{name}.{column}: SQLite {lite.columns.get(column)}, "
                             f"PostgreSQL {pg_columns.get(column)}")
        if lite.primary_key != pg.primary_key:
            found.append(f"{name} primary key: SQLite {lite.primary_key}, "
                         f"PostgreSQL {pg.primary_key}")
        if lite.unique != pg.unique:
            found.append(f"{name} unique: SQLite {sorted(lite.unique)}, "
                         f"PostgreSQL {sorted(pg.unique)}")
        for index in sorted(set(lite.indexes) | set(pg.indexes)):
            if lite.indexes.get(index) != pg.indexes.get(index):
                found.append(f"{name} index {index}: SQLite {lite.indexes.get(index)}, "
                             f"PostgreSQL {pg.indexes.get(index)}")
    return found


async def test_both_migration_folders_build_the_same_schema(tmp_path: Any) -> None:
    require_postgres()
    from commerce_agent.db.postgres import PostgresDatabase

    sqlite = sqlite_schema(os.path.join(tmp_path, "parity.db"))
    with fresh_database() as url:
        database = PostgresDatabase(url)
        await database.open()  # the migrations, as the server applies them
        await database.close()
        postgres = postgres_schema(url)
    assert len(sqlite) > 20 and sqlite["orders"].primary_key == ("id",)
    assert differences(sqlite, postgres) == []


def test_a_difference_is_reported() -> None:
    """The comparison itself: each kind of drift is found."""
    def table(**changes: Any) -> dict[str, Table]:
        base = Table(columns={"id": ("text", False), "n": ("integer", True)},
                     primary_key=("id",), unique={("n",)},
                     indexes={"t_by_n": (("n",), False, "")})
        for key, value in changes.items():
            setattr(base, key, value)
        return {"t": base}

    assert differences(table(), table()) == []
    drifts: list[dict[str, Any]] = [
        {"columns": {"id": ("text", False), "n": ("text", True)}},
        {"columns": {"id": ("text", False), "n": ("integer", False)}},
        {"columns": {"id": ("text", False)}},
        {"primary_key": ("id", "n")}, {"unique": set()},
        {"indexes": {"t_by_n": (("n desc",), False, "")}},
        {"indexes": {"t_by_n": (("n",), False, "n > 0")}}, {"indexes": {}}]
    for drift in drifts:
        assert len(differences(table(), table(**drift))) == 1, drift
    assert differences(table(), {}) == ["table t only on SQLite"]


@pytest.mark.parametrize(("written", "read"), [
    ("status = 'active'", "status = 'active'"),
    ("(status = 'active'::text)", "status = 'active'"),
    ('("position" > 0)', "position > 0")])
def test_partial_conditions_compare_alike(written: str, read: str) -> None:
    assert _condition(written) == read
