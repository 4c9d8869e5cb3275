"""Fresh PostgreSQL databases for tests, on the server at 127.0.0.1:5432 (user postgres, trust).

Each test gets a database of its own, uniquely named, dropped afterwards (`WITH (FORCE)`, so a
connection a test left open cannot keep it alive). Creating one is a copy of a template: once
per session the migrations run into one template database (and the sample data into a second),
and every test's database is `CREATE DATABASE … TEMPLATE` one of them, made ahead on a thread —
much faster than migrating and seeding per test.

When psycopg is not installed or the server does not answer, PostgreSQL tests are skipped with
the reason; with CI=true they fail instead, so CI never passes by skipping them.

Admin statements use psycopg's synchronous API: CREATE/DROP DATABASE cannot run inside a
transaction, and the admin connection must not share the test's event loop.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
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


def _prepare(url: str, *, seeded: bool) -> None:
    """Open the app's database on `url` once, which migrates it, and seed the sample data when
    `seeded`. In a thread of its own, away from any running event loop."""
    from commerce_agent.db import database_for
    from commerce_agent.seed import seed

    async def open_and_close() -> None:
        database = database_for(url)
        await database.open()
        try:
            if seeded:
                await seed(database)
        finally:
            await database.close()

    with ThreadPoolExecutor(1, thread_name_prefix="prepare-pg-template") as thread:
        thread.submit(asyncio.run, open_and_close()).result()


SNAPSHOT = "ca_test_snapshot"  # the schema in each template that keeps a copy of its rows


@dataclass(frozen=True)
class Contents:
    """What a template holds, to put a used clone back to it: its tables (with the columns a
    copy writes), those with rows, and its sequences' positions."""

    tables: tuple[str, ...]
    columns: dict[str, str]
    filled: tuple[str, ...]
    sequences: dict[str, int | None]


def _tables(connection: Any) -> tuple[str, ...]:
    return tuple(row[0] for row in connection.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"))


def take_snapshot(name: str) -> Contents:
    """Copy the template's rows into its SNAPSHOT schema (clones carry it along)."""
    import psycopg
    from psycopg import sql
    with psycopg.connect(url_for(name), autocommit=True) as connection:
        tables = _tables(connection)
        connection.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(SNAPSHOT)))
        columns, filled = {}, []
        for table in tables:
            names = [row[0] for row in connection.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                "'public' AND table_name = %s AND is_generated = 'NEVER' "
                "ORDER BY ordinal_position", (table,))]
            columns[table] = ", ".join(f'"{column}"' for column in names)
            connection.execute(sql.SQL("CREATE TABLE {}.{} AS SELECT * FROM public.{}").format(
                sql.Identifier(SNAPSHOT), sql.Identifier(table), sql.Identifier(table)))
            if connection.execute(sql.SQL("SELECT EXISTS (SELECT FROM public.{})").format(
                    sql.Identifier(table))).fetchone()[0]:
                filled.append(table)
        sequences = {row[0]: row[1] for row in connection.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'")}
    return Contents(tables, columns, tuple(filled), sequences)


def reset_database(name: str, contents: Contents) -> bool:
    """Put a used clone back to its template's contents: refuse new connections, end every
    other one, empty every table and copy the snapshot's rows back (triggers and foreign keys
    off meanwhile), rewind the sequences, allow connections again. False, changing nothing,
    when its tables are no longer the template's (a test made or dropped one): then it must
    be dropped instead."""
    import psycopg
    from psycopg import sql
    database = sql.Identifier(name)
    with psycopg.connect(url_for(name), autocommit=True) as connection, _admin() as admin:
        # No one else may connect meanwhile (a server still running would reconnect and
        # write); a database cannot refuse connections from within, hence the admin one.
        admin.execute(sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS false").format(database))
        try:
            others = ("FROM pg_stat_activity WHERE datname = %s AND pid <> %s",
                      (name, connection.info.backend_pid))
            admin.execute(f"SELECT pg_terminate_backend(pid) {others[0]}", others[1])
            for _ in range(100):  # terminating is asynchronous: wait until they are gone
                if not admin.execute(f"SELECT 1 {others[0]}", others[1]).fetchone():
                    break
                time.sleep(0.05)
            if _tables(connection) != contents.tables:
                return False
            _refill(connection, contents)
        finally:
            admin.execute(sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS true").format(database))
    return True


def _refill(connection: Any, contents: Contents) -> None:
    """Empty every table and copy the snapshot's rows back, triggers and foreign keys off;
    rewind the sequences."""
    from psycopg import sql
    with connection.transaction():
        connection.execute("SET LOCAL session_replication_role = replica")
        # DELETE, not TRUNCATE: a few rows each, and TRUNCATE makes (and syncs) new files.
        for table in contents.tables:
            connection.execute(sql.SQL("DELETE FROM public.{}").format(
                sql.Identifier(table)))
        for table in contents.filled:
            columns = sql.SQL(contents.columns[table])
            connection.execute(sql.SQL(
                "INSERT INTO public.{} ({}) OVERRIDING SYSTEM VALUE SELECT {} FROM {}.{}"
            ).format(sql.Identifier(table), columns, columns, sql.Identifier(SNAPSHOT),
                     sql.Identifier(table)))
        for sequence, last in contents.sequences.items():
            if last is None:
                connection.execute(sql.SQL("ALTER SEQUENCE public.{} RESTART").format(
                    sql.Identifier(sequence)))
            else:
                connection.execute("SELECT setval(%s, %s, true)",
                                   (f'public."{sequence}"', last))


class Clones:
    """Databases with one template's contents, for tests, made on a thread of their own.

    Creating a clone is quick (tenths of a second), but dropping a database forces a
    checkpoint, which takes a second or more on a busy server: more than most tests. So a
    database given back is not dropped but reset to the template's contents (emptied and
    refilled from the snapshot the clone carries, tens of milliseconds) and handed to a later
    test; the thread does that while the next test runs, and keeps `ahead` databases ready.
    Only `close()` drops them — a few per session."""

    def __init__(self, template: str, contents: Contents, ahead: int = 1) -> None:
        self.template = template
        self.contents = contents
        self._ahead = ahead
        self._worker = ThreadPoolExecutor(1, thread_name_prefix=f"clones-{template}")
        self._coming: deque[Future[str]] = deque()  # clones and resets, in order
        self.names: list[str] = []  # every database made, for the record
        self._existing: set[str] = set()

    def _create(self) -> str:
        name = create_database(self.template)
        self.names.append(name)
        self._existing.add(name)
        return name

    def _drop(self, name: str) -> None:
        self._existing.discard(name)
        drop_database(name)

    def _renew(self, name: str) -> str:
        try:
            if reset_database(name, self.contents):
                return name
        except Exception:  # noqa: S110 - anything odd: a new clone is the safe answer
            pass
        self._drop(name)
        return self._create()

    def take(self) -> str:
        """The name of a database with exactly the template's contents; give it back after."""
        if not self._coming:
            self._coming.append(self._worker.submit(self._create))
        name = self._coming.popleft().result()
        while len(self._coming) < self._ahead:
            self._coming.append(self._worker.submit(self._create))
        return name

    def give_back(self, name: str) -> None:
        self._coming.append(self._worker.submit(self._renew, name))

    @contextmanager
    def database(self) -> Iterator[str]:
        """A database of the block's own, with the template's contents; its URL."""
        name = self.take()
        try:
            yield url_for(name)
        finally:
            self.give_back(name)

    def close(self) -> None:
        """Drop every database made (after the work under way)."""
        self._worker.shutdown()
        for name in list(self._existing):
            with suppress(Exception):
                self._drop(name)


@dataclass
class Templates:
    """The session's two templates: `migrated` (empty tables, like a new SQLite file) and
    `seeded` (also the sample stores and demo users, what the app writes at its start)."""

    migrated: Clones
    seeded: Clones


@pytest.fixture(scope="session")
def postgres_templates() -> Iterator[Templates]:
    require_postgres()
    drop_leftovers()
    made: list[str] = []
    clones: list[Clones] = []
    try:
        migrated = create_database()
        made.append(migrated)
        _prepare(url_for(migrated), seeded=False)
        seeded = create_database(migrated)  # the migrations run once
        made.append(seeded)
        _prepare(url_for(seeded), seeded=True)
        clones = [Clones(name, take_snapshot(name)) for name in made]
        yield Templates(*clones)
    finally:
        for factory in clones:
            factory.close()
        for name in made:
            drop_database(name)


@pytest.fixture(scope="session")
def postgres_template(postgres_templates: Templates) -> str:
    """The name of a migrated, empty database to clone (`CREATE DATABASE … TEMPLATE`)."""
    return postgres_templates.migrated.template


@pytest.fixture
def postgres_url(postgres_templates: Templates) -> Iterator[str]:
    """The URL of a fresh PostgreSQL database of this test's own, migrated and seeded with the
    sample data (what the app itself seeds on its first start)."""
    with postgres_templates.seeded.database() as url:
        yield url


@pytest.fixture
def empty_postgres_url(postgres_templates: Templates) -> Iterator[str]:
    """The URL of a fresh PostgreSQL database of this test's own: migrated, no rows."""
    with postgres_templates.migrated.database() as url:
        yield url
