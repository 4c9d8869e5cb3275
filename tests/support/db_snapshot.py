"""Everything a database holds, to show that a refused request changed nothing: each table's
rows, in a stable order, on either backend."""

from __future__ import annotations

from typing import Any

from commerce_agent.db import Database

# Kept by reading alone: a session's last use.
READ_TOUCHED = frozenset({"schema_migrations"})


async def table_names(db: Database) -> list[str]:
    if db.dialect == "postgresql":
        rows = await db.fetch_all("SELECT tablename AS name FROM pg_tables "
                                  "WHERE schemaname = current_schema() ORDER BY tablename")
    else:
        rows = await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table' "
                                  "AND name NOT LIKE 'sqlite_%' ORDER BY name")
    return [str(row["name"]) for row in rows if row["name"] not in READ_TOUCHED]


async def contents(db: Database, skip: frozenset[str] = frozenset()) -> dict[str, list[Any]]:
    """{table: sorted rows as tuples of text} for every table but `skip`."""
    found: dict[str, list[Any]] = {}
    for name in await table_names(db):
        if name in skip:
            continue
        rows = await db.fetch_all(f'SELECT * FROM "{name}"')  # noqa: S608 - catalog names
        found[name] = sorted(tuple(str(value) for value in row) for row in rows)
    return found
