"""Session journals: where a session's record and its events live (memory, file, the
database (`sqlite`, also called `database`: SQLite or PostgreSQL, whichever --db names), redis)."""

from __future__ import annotations

import os

from commerce_agent.agent.journals.base import Conflict, Journal, SessionExists
from commerce_agent.db import Database

__all__ = ["Conflict", "Journal", "SessionExists", "open_journal"]


def open_journal(spec: str, db: Database) -> Journal:
    """The journal named by `--journal`: memory, file[:DIR], sqlite (or database: the app's
    database, SQLite or PostgreSQL), or redis://host:port/db."""
    if spec == "memory":
        from commerce_agent.agent.journals.memory import MemoryJournal

        return MemoryJournal()
    if spec in ("sqlite", "database"):
        from commerce_agent.agent.journals.sqlite import SqliteJournal

        return SqliteJournal(db)
    if spec == "file" or spec.startswith("file:"):
        from commerce_agent.agent.journals.file import FileJournal

        directory = spec[len("file:"):] if spec.startswith("file:") else ""
        if not directory:
            if db.dialect != "sqlite":
                raise ValueError("the file journal needs a directory with a PostgreSQL "
                                 "database: --journal file:DIR")
            directory = os.path.splitext(db.path)[0] + "-journal"
        return FileJournal(directory)
    if spec.startswith(("redis://", "rediss://", "unix://")):
        from commerce_agent.agent.journals.redis import RedisJournal

        return RedisJournal(spec)
    raise ValueError(f"unknown journal {spec!r}: use memory, file[:DIR], sqlite (database) "
                     "or redis://HOST:PORT/DB")
