"""Both backends' migrations: SQLite's (db/migrations/) and PostgreSQL's
(db/migrations/postgres/) carry the same numbers and names, so a database on either is at the
same schema version once migrated."""

from __future__ import annotations

from importlib import resources

from commerce_agent.db.migrations import migration_files


def _numbered(folder: str) -> list[tuple[int, str]]:
    root = resources.files("commerce_agent.db") / "migrations"
    if folder:
        root = root / folder
    return [(number, name) for number, name, _ in migration_files(root)]


def test_both_backends_have_the_same_migrations() -> None:
    sqlite, postgres = _numbered(""), _numbered("postgres")
    assert sqlite and [number for number, _ in sqlite] == list(range(1, len(sqlite) + 1))
    assert postgres == sqlite
