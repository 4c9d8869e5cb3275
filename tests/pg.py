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


class Clones:
    """Fresh databases cloned from one template. A clone takes a few hundred milliseconds
    (PostgreSQL copies the template and syncs it), so a thread keeps `ahead` of them made
    before they are asked for, and another drops the ones given back: a test waits for
    neither while the tests before it run."""

    def __init__(self, template: str, ahead: int = 2) -> None:
        self.template = template
        self._ahead = ahead
        self._maker = ThreadPoolExecutor(1, thread_name_prefix=f"clone-{template}")
        self._dropper = ThreadPoolExecutor(1, thread_name_prefix=f"drop-{template}")
        self._made: deque[Future[str]] = deque()
        self.names: list[str] = []  # every clone made, for the record

    def _create(self) -> str:
        name = create_database(self.template)
        self.names.append(name)
        return name

    def _make(self) -> None:
        self._made.append(self._maker.submit(self._create))

    def take(self) -> str:
        """A fresh database's name; give it back when done."""
        while len(self._made) <= self._ahead:
            self._make()
        return self._made.popleft().result()

    def give_back(self, name: str) -> None:
        self._dropper.submit(drop_database, name)

    @contextmanager
    def database(self) -> Iterator[str]:
        """A fresh database for the block, dropped after it; its URL."""
        name = self.take()
        try:
            yield url_for(name)
        finally:
            self.give_back(name)

    def close(self) -> None:
        """Drop what was made ahead and not used; wait for every drop."""
        while self._made:
            made = self._made.popleft()
            with suppress(Exception):
                self.give_back(made.result())
        self._maker.shutdown()
        self._dropper.shutdown()


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
        for seeded in (False, True):
            # The seeded template starts from the migrated one: the migrations run once.
            name = create_database(made[0] if made else "template0")
            made.append(name)
            _prepare(url_for(name), seeded=seeded)
            clones.append(Clones(name))
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
