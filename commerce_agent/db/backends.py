"""Which backend a `--db` value names: a postgresql:// (or postgres://) URL is PostgreSQL,
anything else is the path of a SQLite file."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from commerce_agent.db.base import Database
from commerce_agent.db.targets import is_postgres

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
