"""Shared fixtures: the app on a fresh SQLite file seeded from sample_data/, an in-process
client over ASGITransport, demo users with tokens, and a live uvicorn for streaming tests."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import settings
from starlette.applications import Starlette

from commerce_agent.app import create_app
from commerce_agent.commerce.payments import exact
from commerce_agent.db.targets import is_postgres
from commerce_agent.settings import Settings
from tests.support.app import MEDIA, token_for
from tests.support.commerce_world import world
from tests.support.live import LiveServer, start_live_server
from tests.support.long_lived import freeze
from tests.support.openai_fake import openai_api, openai_fake
from tests.support.pg import (
    Templates,
    empty_postgres_url,
    postgres_template,
    postgres_templates,
    postgres_url,
)
from tests.support.seeded import build_template, copy_seeded
from tests.support.work_units import Plugin as WorkUnits

# Fixtures, found here by pytest.
__all__ = ["empty_postgres_url", "openai_api", "openai_fake", "postgres_template",
           "postgres_templates", "postgres_url", "world"]


# Tests import eth_account directly too; import it the server's way first, so its py_ecc
# dependency cannot leave the recursion limit raised for the rest of the run.
exact.exact_available()


# Property tests check what is read, never how fast: speed is measured in bench/. Hypothesis's
# default 200 ms deadline failed a first, cold call on a loaded two-core machine.
settings.register_profile("commerce-agent", deadline=None)
settings.load_profile("commerce-agent")

BACKENDS = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist, how the tests are shared between workers (tests/support/work_units.py).
    What the imports built lives as long as the run (tests/support/long_lived.py)."""
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(WorkUnits(), "work-units")
    freeze()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores this run may use. A quarter of the whole
    run's CPU time went unused on two cores: live tests wait on their servers, streams and
    retry timers, and a third worker runs meanwhile."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_collection_finish(session: pytest.Session) -> None:
    """The modules and the collected tests live as long as the run: no full collection of the
    garbage collector walks them again (tests/support/long_lived.py)."""
    freeze()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`@pytest.mark.both_backends` (on a test or a module): run on SQLite and on PostgreSQL.
    `@pytest.mark.sqlite_only` on a test inside such a module keeps it on SQLite."""
    definition = metafunc.definition
    if ("backend" in metafunc.fixturenames and definition.get_closest_marker("both_backends")
            and not definition.get_closest_marker("sqlite_only")):
        metafunc.parametrize("backend", BACKENDS, indirect=True, ids=BACKENDS)


# Layers the fast subset leaves out (`pytest -m "not live and not browser and not postgres and
# not conversations"`): a test is `live` when it starts servers or subprocesses, `browser` when
# it drives chromium, `postgres` when it runs on PostgreSQL, `conversations` when it plays whole
# shopper conversations through the agent (thousands of them: minutes on their own). Marked here
# from what each test uses and where it lives (everything under tests/live/ is live, under
# tests/browser/ browser), so no test module has to remember to mark itself.
LIVE_FIXTURES = frozenset({"live_server", "live_db", "servers"})
LIVE_MODULES = ("tests.live", "tests.support.live", "tests.support.multiprocess",
                "tests.support.pg_cluster", "subprocess")
BROWSER_MODULES = ("tests.browser", "tests.support.browser", "playwright")
POSTGRES_FIXTURES = frozenset({"postgres_url", "empty_postgres_url", "postgres_template",
                               "postgres_templates"})
CONVERSATION_MODULES = frozenset({"tests.e2e.test_agent_conversations",
                                  "tests.e2e.test_agent_heldout"})


def _imports(module: Any) -> set[str]:
    names = set()
    for value in vars(module).values():
        origin = getattr(value, "__module__", None) or getattr(value, "__name__", None)
        if isinstance(origin, str):
            names.add(origin)
    return names


def _uses(imported: set[str], prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".")
               for name in imported for prefix in prefixes)


def _names_postgres(params: dict[str, Any]) -> bool:
    """A parameter that puts the test on PostgreSQL: the `backend` of a both-backends test, or
    a case such as ("sqlite", "postgres") (a journal kind on a backend) whose fixture asks for
    a PostgreSQL database only once it runs."""
    return any(value == "postgres" or isinstance(value, tuple) and "postgres" in value
               for value in params.values())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    imports_of: dict[str, set[str]] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is None:
            continue
        imported = imports_of.setdefault(module.__name__, _imports(module) | {module.__name__})
        fixtures = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        if _uses(imported, BROWSER_MODULES):
            item.add_marker(pytest.mark.browser)
        if fixtures & LIVE_FIXTURES or _uses(imported, LIVE_MODULES) \
                or module.__name__.endswith("_live"):
            item.add_marker(pytest.mark.live)
        if _names_postgres(params) or fixtures & POSTGRES_FIXTURES \
                or _uses(imported, ("tests.support.pg", "psycopg")):
            item.add_marker(pytest.mark.postgres)
        if module.__name__ in CONVERSATION_MODULES:
            item.add_marker(pytest.mark.conversations)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The storage backend this test runs on: "sqlite" unless parametrized."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def db_target(backend: str, tmp_path: os.PathLike[str], request: pytest.FixtureRequest) -> str:
    """What `--db` and `Settings.db_path` take: a fresh SQLite file, or a fresh PostgreSQL URL."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return os.path.join(tmp_path, "commerce.db")


@pytest.fixture
def make_db(backend: str, tmp_path: os.PathLike[str], request: pytest.FixtureRequest
            ) -> Iterator[Callable[[str], str]]:
    """`make_db("name.db")`: a database of that name for this test on its backend — a file in
    tmp_path, or a fresh PostgreSQL database (dropped after the test). The same name gives the
    same database, so two openers can share one."""
    made: dict[str, str] = {}
    with ExitStack() as stack:
        def make(name: str) -> str:
            if name not in made:
                if backend == "postgres":
                    templates: Templates = request.getfixturevalue("postgres_templates")
                    made[name] = stack.enter_context(templates.migrated.database())
                else:
                    made[name] = os.path.join(tmp_path, name)
            return made[name]
        yield make


@pytest.fixture
def settings(db_target: str) -> Settings:
    return Settings(db_path=db_target, base_url="http://test",
                    simulate=False, sqlite_synchronous="NORMAL")


@pytest.fixture(scope="session")
def seeded_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated and seeded SQLite file, built once per session (tests/support/seeded.py)."""
    return build_template(tmp_path_factory.mktemp("seeded"))


@pytest.fixture
async def app(settings: Settings, seeded_sqlite: Path) -> AsyncIterator[Starlette]:
    if not is_postgres(settings.db_path):
        copy_seeded(seeded_sqlite, settings.db_path)  # unless the test made the file already
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test",
                                 headers={"Accept": MEDIA}) as http:
        yield http


@pytest.fixture
async def alice(app: Starlette) -> dict[str, str]:
    """Authorization headers for the demo user Alice."""
    return {"Authorization": f"Bearer {await token_for(app, 'user_alice')}"}


@pytest.fixture
async def bob(app: Starlette) -> dict[str, str]:
    return {"Authorization": f"Bearer {await token_for(app, 'user_bob')}"}


@pytest.fixture
def live_db(backend: str, tmp_path: os.PathLike[str],
            request: pytest.FixtureRequest) -> Iterator[str]:
    """Another fresh database for a live server, on the test's backend (not the settings one);
    a SQLite one is the session's seeded file, copied (the server's start-up seeds nothing)."""
    if backend == "postgres":
        templates: Templates = request.getfixturevalue("postgres_templates")
        with templates.migrated.database() as url:
            yield url
    else:
        path = os.path.join(tmp_path, "live.db")
        copy_seeded(request.getfixturevalue("seeded_sqlite"), path)
        yield path


@pytest.fixture
def live_server(live_db: str) -> Iterator[LiveServer]:
    """A real `commerce-agent serve` subprocess on a free port (simulator off)."""
    server = start_live_server(live_db)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def servers() -> Iterator[list[LiveServer]]:
    """Live servers a test starts (append them); each is stopped at the end."""
    started: list[LiveServer] = []
    yield started
    for server in started:
        server.stop()


