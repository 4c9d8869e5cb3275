"""The PostgreSQL test helper: a fresh database per test, dropped afterwards; the skip rule."""

from __future__ import annotations

import pytest

from tests.support import pg


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


def _count(url: str, table: str) -> int:
    import psycopg
    from psycopg import sql
    with psycopg.connect(url) as connection:
        row = connection.execute(sql.SQL("SELECT COUNT(*) FROM {}").format(
            sql.Identifier(table))).fetchone()
    assert row is not None
    return int(row[0])


def test_postgres_url_is_a_migrated_and_seeded_database_of_its_own(postgres_url: str) -> None:
    assert _count(postgres_url, "schema_migrations") > 0
    assert _count(postgres_url, "stores") > 0 and _count(postgres_url, "users") > 0


def test_empty_postgres_url_is_migrated_without_rows(empty_postgres_url: str,
                                                     postgres_url: str) -> None:
    assert empty_postgres_url != postgres_url
    assert _count(empty_postgres_url, "schema_migrations") > 0
    assert _count(empty_postgres_url, "stores") == 0


NEXT_EVENT_ID = "SELECT nextval(pg_get_serial_sequence('order_events', 'id'))"


def _execute(url: str, statement: str) -> None:
    import psycopg
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(statement)


def _one(url: str, query: str) -> object:
    import psycopg
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(query).fetchone()
    assert row is not None
    return row[0]


def test_a_database_given_back_is_reset_to_the_template_and_reused(
        postgres_templates: pg.Templates) -> None:
    seeded = postgres_templates.seeded
    clones = pg.Clones(seeded.template, seeded.contents, ahead=0)
    try:
        with clones.database() as used:
            import psycopg
            left_open = psycopg.connect(used, autocommit=True)  # as by a server still running
            stores = _count(used, "stores")
            _execute(used, "INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                           "VALUES ('r', 'i', 'u', 5, 'now')")
            _execute(used, "DELETE FROM stock")
            for _ in range(3):
                _execute(used, NEXT_EVENT_ID)
        with clones.database() as again:
            assert again == used  # reused, not cloned again
            with pytest.raises(psycopg.OperationalError):  # ended by the reset
                left_open.execute("SELECT 1")
            left_open.close()
            assert _count(again, "reviews") == 0 and _count(again, "stores") == stores
            assert _count(again, "stock") > 0 and _one(again, NEXT_EVENT_ID) == 1
            _execute(again, "CREATE TABLE made_by_a_test (a INT)")
        with clones.database() as third:
            assert third != used  # its tables changed: a new clone instead
            assert _count(third, "items") > 0
    finally:
        clones.close()
    assert len(clones.names) == 2 and not set(clones.names) & _databases()


def test_databases_are_made_ahead_and_all_dropped_at_close(
        postgres_templates: pg.Templates) -> None:
    migrated = postgres_templates.migrated
    clones = pg.Clones(migrated.template, migrated.contents, ahead=1)
    try:
        with clones.database() as first, clones.database() as second:
            assert first != second
            assert {first.rsplit("/", 1)[1], second.rsplit("/", 1)[1]} <= _databases()
    finally:
        clones.close()
    assert len(clones.names) == 3  # the two used and one made ahead: all gone
    assert not set(clones.names) & _databases()


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


@pytest.mark.both_backends
@pytest.mark.sqlite_only
def test_sqlite_only_keeps_a_test_of_a_both_backends_module_on_sqlite(backend: str) -> None:
    assert backend == "sqlite"
