"""Which backend a `--db` value names: a postgresql:// (or postgres://) URL is PostgreSQL,
anything else is the path of a SQLite file."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import Any

from commerce_agent.db.base import Database, DatabaseUnavailable
from commerce_agent.db.targets import display, is_postgres

EXTRA_HINT = "pip install 'commerce-agent[postgres]'"


class MissingExtra(RuntimeError):
    """A PostgreSQL URL was given but psycopg is not installed."""


def backend_for(target: str) -> Callable[..., Database]:
    """The class of the backend `target` names (its constructor: the target, then options)."""
    if is_postgres(target):
        try:
            from commerce_agent.db.postgres import PostgresDatabase
        except ImportError as exc:
            raise MissingExtra(
                f"PostgreSQL needs the postgres extra ({exc.name} is missing): "
                f"{EXTRA_HINT}") from None
        return PostgresDatabase
    from commerce_agent.db.database import SqliteDatabase

    return SqliteDatabase


def database_for(target: str, **sqlite_options: Any) -> Database:
    """The database `target` names; `sqlite_options` (synchronous) apply to SQLite only."""
    if is_postgres(target):
        sqlite_options.pop("synchronous", None)
    return backend_for(target)(target, **sqlite_options)


class CannotOpen(RuntimeError):
    """The database cannot be opened: its server does not answer, or its file cannot be
    made or read."""


async def open_database(target: str, **sqlite_options: Any) -> Database:
    """The database `target` names, opened (and migrated); CannotOpen with the reason, in one
    line, when it cannot be, so that a command says why instead of a traceback."""
    database = database_for(target, **sqlite_options)
    failures: tuple[type[BaseException], ...] = (OSError, sqlite3.OperationalError,
                                                 DatabaseUnavailable)
    if is_postgres(target):
        import psycopg  # present: database_for found the extra

        failures += (psycopg.OperationalError,)
    try:
        await database.open()
    except failures as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise CannotOpen(f"cannot open the database {display(target)}: {reason}") from exc
    return database


def exists(target: str) -> bool:
    """Whether `target` names a database a server has created: a SQLite file that is there,
    or a PostgreSQL database that answers and has been migrated."""
    if not is_postgres(target):
        return os.path.isfile(target)
    import psycopg

    try:
        with psycopg.connect(target, connect_timeout=5) as connection:
            row = connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL"
                                     ).fetchone()
    except psycopg.OperationalError:
        return False
    return bool(row and row[0])
