"""Fresh PostgreSQL databases for tests, on the server at 127.0.0.1:5432 (user postgres, trust).

Each test gets a database of its own, uniquely named, dropped afterwards (`WITH (FORCE)`, so a
connection a test left open cannot keep it alive). Creating one is a file copy of a template:
once per session the migrations run into a template database, and every test's database is
`CREATE DATABASE … TEMPLATE` that one — much faster than migrating per test. Until the
PostgreSQL backend exists in `commerce_agent.db.backends`, the template is the empty template0.

When psycopg is not installed or the server does not answer, PostgreSQL tests are skipped with
the reason; with CI=true they fail instead, so CI never passes by skipping them.

Admin statements use psycopg's synchronous API: CREATE/DROP DATABASE cannot run inside a
transaction, and the admin connection must not share the test's event loop.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cache
from typing import Any

import pytest

HOST = os.environ.get("COMMERCE_AGENT_TEST_PG_HOST", "127.0.0.1")
PORT = int(os.environ.get("COMMERCE_AGENT_TEST_PG_PORT", "5432"))
USER = os.environ.get("COMMERCE_AGENT_TEST_PG_USER", "postgres")
ADMIN_DATABASE = "postgres"
# Every database a test run makes starts with this and the creating process id, so a later
# run can drop what a killed run left behind (and only that).
PREFIX = "ca_test_"
_NAME = re.compile(rf"^{PREFIX}(\d+)_[0-9a-f]+$")


def url_for(name: str) -> str:
    return f"postgresql://{USER}@{HOST}:{PORT}/{name}"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@cache
def unavailable_reason() -> str | None:
    """Why PostgreSQL tests cannot run here, or None when they can (checked once per run)."""
    try:
        import psycopg
    except ImportError:
        return ("psycopg is not installed (pip install -e '.[postgres]'): "
                "PostgreSQL tests need it")
    try:
        with psycopg.connect(url_for(ADMIN_DATABASE), autocommit=True, connect_timeout=3):
            return None
    except psycopg.Error as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        return f"PostgreSQL is not reachable at {HOST}:{PORT} as {USER}: {first_line}"


def require_postgres() -> None:
    """Skip the calling test when PostgreSQL is unavailable; fail instead when CI=true."""
    reason = unavailable_reason()
    if reason is None:
        return
    if _in_ci():
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


def _admin() -> Any:
    import psycopg
    return psycopg.connect(url_for(ADMIN_DATABASE), autocommit=True, connect_timeout=5)


def _new_name() -> str:
    return f"{PREFIX}{os.getpid()}_{uuid.uuid4().hex[:10]}"


def create_database(template: str = "template0", *, name: str | None = None) -> str:
    """Create a fresh database cloned from `template`; its name."""
    from psycopg import sql
    name = name or _new_name()
    with _admin() as admin:
        admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template)))
    return name


def drop_database(name: str) -> None:
    from psycopg import sql
    with _admin() as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(name)))


@contextmanager
def fresh_database(template: str = "template0") -> Iterator[str]:
    """A new database for the block, dropped after it; its URL."""
    name = create_database(template)
    try:
        yield url_for(name)
    finally:
        drop_database(name)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def drop_leftovers() -> list[str]:
    """Drop the test databases of runs that died before dropping them; their names."""
    with _admin() as admin:
        names = [row[0] for row in admin.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", (PREFIX + "%",))]
    dropped = []
    for name in names:
        match = _NAME.match(name)
        if match and not _pid_alive(int(match.group(1))):
            with suppress(Exception):
                drop_database(name)
                dropped.append(name)
    return dropped


def _migrate(url: str) -> bool:
    """Open the app's database on `url` once (which migrates it); False when the PostgreSQL
    backend does not exist yet. Runs in its own thread, away from any running event loop."""
    try:
        from commerce_agent.db import backends
    except ImportError:
        return False
    failure: list[BaseException] = []

    async def open_and_close() -> None:
        database = backends.database_for(url)
        await database.open()
        await database.close()

    def run() -> None:
        try:
            asyncio.run(open_and_close())
        except BaseException as error:  # re-raised in the caller's thread
            failure.append(error)

    thread = threading.Thread(target=run, name="migrate-pg-template")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return True


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str]:
    """A database migrated once per session, for per-test clones; its name."""
    require_postgres()
    drop_leftovers()
    name = create_database()
    try:
        migrated = _migrate(url_for(name))
    except BaseException:
        drop_database(name)
        raise
    if not migrated:
        drop_database(name)
        yield "template0"
        return
    try:
        yield name
    finally:
        drop_database(name)


@pytest.fixture
def postgres_url(postgres_template: str) -> Iterator[str]:
    """The URL of a fresh, migrated PostgreSQL database of this test's own."""
    with fresh_database(postgres_template) as url:
        yield url
