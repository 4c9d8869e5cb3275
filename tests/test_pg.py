"""The PostgreSQL test helper: a fresh database per test, dropped afterwards; the skip rule."""

from __future__ import annotations

import pytest

from tests import pg


def _databases() -> set[str]:
    with pg._admin() as admin:
        return {row[0] for row in admin.execute("SELECT datname FROM pg_database")}


def test_each_test_gets_its_own_database_and_it_is_dropped_after() -> None:
    pg.require_postgres()
    with pg.fresh_database() as first, pg.fresh_database() as second:
        assert first != second
        names = {first.rsplit("/", 1)[1], second.rsplit("/", 1)[1]}
        assert names <= _databases()
        assert all(name.startswith(pg.PREFIX) for name in names)
    assert not names & _databases()


def test_the_fixture_gives_a_database_that_accepts_connections(postgres_url: str) -> None:
    import psycopg
    with psycopg.connect(postgres_url) as connection:
        assert connection.execute("SELECT current_database()").fetchone() == (
            postgres_url.rsplit("/", 1)[1],)


def test_unreachable_server_skips_or_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg, "unavailable_reason", lambda: "PostgreSQL is not reachable")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not reachable"):
        pg.require_postgres()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true and PostgreSQL is not reachable"):
        pg.require_postgres()


def test_leftovers_of_dead_runs_are_dropped() -> None:
    pg.require_postgres()
    dead = f"{pg.PREFIX}999999999_abcdef"  # no such process id
    pg.create_database(name=dead)
    assert dead in pg.drop_leftovers()
    assert dead not in _databases()


@pytest.mark.both_backends
def test_both_backends_marker_gives_each_backend_its_target(backend: str, db_target: str) -> None:
    if backend == "postgres":
        assert db_target.startswith("postgresql://")
    else:
        assert db_target.endswith("commerce.db")
