"""db/postgres.py under the things that go wrong in production, and the one interface it
shares with SQLite: a connection lost in the middle of a write (nothing kept, the next write
works), reader connections lost between reads (replaced unseen), a serialization failure (a
WriteConflict that `retry_conflicts` runs again to success), a write cancelled at its COMMIT
(the connection goes back clean), statements deferred to the COMMIT and their checks, topics
and rows. The same statements give the same answers on SQLite and PostgreSQL.

Each test has a migrated, empty database of its own on 127.0.0.1:5432 (tests/support/pg.py)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest

from commerce_agent.db import (
    Database,
    DatabaseUnavailable,
    IntegrityError,
    Transaction,
    WriteConflict,
    database_for,
    retry_conflicts,
)
from commerce_agent.db.backends import exists
from commerce_agent.db.dialect import json_text
from commerce_agent.db.placeholders import named_list


@pytest.fixture
async def db(empty_postgres_url: str) -> AsyncIterator[Database]:
    database = database_for(empty_postgres_url)
    await database.open()
    try:
        yield database
    finally:
        await database.close()


def _admin(url: str) -> psycopg.Connection[Any]:
    return psycopg.connect(url, autocommit=True)


async def _store(tx: Transaction, store_id: str, position: int = 0) -> None:
    await tx.execute("INSERT INTO stores (id, position, currency, doc) "
                     "VALUES (:id, :position, 'USD', '{\"name\": \"Shop\"}')",
                     {"id": store_id, "position": position})


async def _ids(db: Database) -> list[str]:
    return [row["id"] for row in await db.fetch_all("SELECT id FROM stores ORDER BY id")]


# --- connections lost ---------------------------------------------------------------------


async def test_a_connection_lost_mid_write_keeps_nothing_and_the_next_write_works(
        db: Database, empty_postgres_url: str) -> None:
    with pytest.raises(DatabaseUnavailable) as lost:
        async with db.transaction() as tx:
            await _store(tx, "s_lost")
            row = await tx.fetch_one("SELECT pg_backend_pid() AS pid")
            assert row is not None
            with _admin(empty_postgres_url) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (row["pid"],))
            await _store(tx, "s_after")
    assert not isinstance(lost.value, WriteConflict)  # not worth running again at once
    assert isinstance(lost.value.__cause__, psycopg.OperationalError)
    async with db.transaction() as tx:
        await _store(tx, "s_next")
    assert await _ids(db) == ["s_next"]


async def test_readers_lost_between_reads_are_replaced_without_an_error(
        db: Database, empty_postgres_url: str) -> None:
    async with db.transaction() as tx:
        await _store(tx, "s1")
    assert await _ids(db) == ["s1"]
    with _admin(empty_postgres_url) as admin:  # a restart, as the readers see it
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                      "datname = current_database() AND pid <> pg_backend_pid() "
                      "AND query NOT LIKE 'LISTEN %'")
    for _ in range(3):
        assert await _ids(db) == ["s1"]
    await db.ping(2.0)


# --- conflicts ------------------------------------------------------------------------------


async def test_a_serialization_failure_is_a_write_conflict_that_a_retry_gets_past(
        db: Database) -> None:
    async with db.transaction() as tx:
        await _store(tx, "s_a", 1)
        await _store(tx, "s_b", 1)
    second_read, first_committed = asyncio.Event(), asyncio.Event()
    conflicts: list[WriteConflict] = []
    runs = 0

    async def move(store_id: str) -> None:
        """Write one row from the sum of both (write skew, which SERIALIZABLE refuses)."""
        async with db.transaction() as tx:
            await tx.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
            total = await tx.fetch_one("SELECT SUM(position) AS total FROM stores")
            assert total is not None
            if store_id == "s_b" and runs == 1:  # the first run reads before the other writes
                second_read.set()
                await first_committed.wait()
            await tx.execute("UPDATE stores SET position = :total WHERE id = :id",
                             {"total": total["total"] + 1, "id": store_id})

    async def second() -> None:
        nonlocal runs
        runs += 1
        try:
            await move("s_b")
        except WriteConflict as conflict:
            conflicts.append(conflict)
            raise

    async def first() -> None:
        await second_read.wait()
        await move("s_a")
        first_committed.set()

    await asyncio.gather(retry_conflicts(second), first())
    assert runs == 2 and len(conflicts) == 1
    assert conflicts[0].__cause__ is not None
    assert getattr(conflicts[0].__cause__, "sqlstate", "") == "40001"
    rows = await db.fetch_all("SELECT id, position FROM stores ORDER BY id")
    # The first read 1 + 1; the second's run again read the first's 3 + 1.
    assert [(row["id"], row["position"]) for row in rows] == [("s_a", 3), ("s_b", 5)]


async def test_retry_conflicts_gives_up_after_its_attempts(db: Database) -> None:
    attempts = 0

    async def always_loses() -> None:
        nonlocal attempts
        attempts += 1
        async with db.transaction() as tx:
            await tx.execute("SELECT 1")
            raise WriteConflict("lost again")

    with pytest.raises(WriteConflict):
        await retry_conflicts(always_loses, attempts=3)
    assert attempts == 3


# --- the write protocol -----------------------------------------------------------------------


async def test_a_write_cancelled_at_its_commit_leaves_a_clean_connection(
        db: Database) -> None:
    for n in range(5):  # cancelled at each point it can be, the pool stays usable
        async def write(n: int = n) -> None:
            async with db.transaction() as tx:
                await _store(tx, f"s_c{n}")
                tx.notify("catalog")

        task = asyncio.create_task(write())
        for _ in range(n):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    for n in range(8):  # more writes than the pool has connections: none is left mid-write
        async with db.transaction() as tx:
            await _store(tx, f"s_after{n}")
    ids = await _ids(db)
    assert [i for i in ids if i.startswith("s_after")] == [f"s_after{n}" for n in range(8)]


async def test_deferred_statements_run_in_order_and_a_failed_check_keeps_nothing(
        db: Database) -> None:
    counts: list[int] = []
    async with db.transaction() as tx:
        await tx.defer("INSERT INTO stores (id, position, currency, doc) "
                       "VALUES ('s1', 0, 'USD', '{}')")
        await tx.defer("UPDATE stores SET position = 7 WHERE id = 's1'", check=counts.append)
        await tx.defer("UPDATE stores SET position = 9 WHERE id = 'none'", check=counts.append)
        rows = await tx.fetch_all("SELECT position FROM stores")  # sees what was deferred
        assert [row["position"] for row in rows] == [7]
    assert counts == [1, 0]

    def refuse(count: int) -> None:
        if count == 0:
            raise ValueError("nothing to update")

    with pytest.raises(ValueError, match="nothing to update"):
        async with db.transaction() as tx:
            await _store(tx, "s2")
            await tx.defer("UPDATE stores SET position = 1 WHERE id = 'none'", check=refuse)
    assert await _ids(db) == ["s1"]


async def test_deferred_statements_alone_are_committed_with_their_topics(db: Database) -> None:
    waiter = db.signal("stores")
    waiter.clear()
    async with db.transaction() as tx:
        await tx.defer("INSERT INTO stores (id, position, currency, doc) "
                       "VALUES (:id, 0, 'USD', '{\"note\": \"100% cotton\"}')", {"id": "s%"})
        tx.notify("stores")
        tx.notify("stores")  # once is enough
        assert not waiter.is_set()  # not before the COMMIT
    assert waiter.is_set()
    row = await db.fetch_one("SELECT id, doc FROM stores")
    assert row is not None and (row["id"], row["doc"]) == ("s%", '{"note": "100% cotton"}')


async def test_a_deferred_constraint_violation_is_an_integrity_error(db: Database) -> None:
    async with db.transaction() as tx:
        await _store(tx, "s1")
    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await _store(tx, "s2")
            await tx.defer("INSERT INTO stores (id, position, currency, doc) "
                           "VALUES ('s1', 0, 'USD', '{}')")
    assert await _ids(db) == ["s1"]


@pytest.mark.parametrize("topic", ["", "a b", "x'; DROP TABLE stores; --", "t" * 201, "é"])
async def test_a_topic_that_could_not_be_sent_in_notify_is_refused(db: Database,
                                                                    topic: str) -> None:
    async with db.transaction() as tx:
        with pytest.raises(ValueError, match="not a notification topic"):
            tx.notify(topic)
    assert await _ids(db) == []


async def test_fetch_each_reads_after_whatever_was_deferred(db: Database) -> None:
    async with db.transaction() as tx:
        assert await tx.fetch_each([]) == []
        await tx.defer("INSERT INTO stores (id, position, currency, doc) "
                       "VALUES ('s1', 3, 'USD', '{}')")
        found = await tx.fetch_each([("SELECT id FROM stores", None),
                                     ("SELECT position FROM stores WHERE id = :id",
                                      {"id": "s1"}),
                                     ("SELECT id FROM stores WHERE id = 'none'", None)])
    assert [[tuple(row) for row in rows] for rows in found] == [[("s1",)], [(3,)], []]


async def test_execute_many_after_deferred_statements(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.defer("INSERT INTO stores (id, position, currency, doc) "
                       "VALUES ('s0', 0, 'USD', '{}')")
        await tx.execute_many("INSERT INTO stores (id, position, currency, doc) "
                              "VALUES (:id, :position, 'USD', '{}')",
                              [{"id": f"s{n}", "position": n} for n in range(1, 4)])
        await tx.execute_many("INSERT INTO stores (id, position, currency, doc) "
                              "VALUES (:id, 0, 'USD', '{}')", [])
    assert await _ids(db) == ["s0", "s1", "s2", "s3"]


async def test_a_write_that_ran_nothing_commits_nothing_and_signals_nobody(
        db: Database) -> None:
    waiter = db.signal("quiet")
    waiter.clear()
    async with db.transaction():
        pass
    assert not waiter.is_set()


# --- rows -----------------------------------------------------------------------------------


async def test_rows_read_by_name_and_index_and_a_repeated_name_reads_the_first(
        db: Database) -> None:
    row = await db.fetch_one("SELECT 1 AS a, 'two' AS b, NULL AS c, 4 AS a")
    assert row is not None
    assert (row["a"], row["b"], row["c"], row[3], row[-1]) == (1, "two", None, 4, 4)
    assert row.keys() == ["a", "b", "c"] and len(row) == 4 and list(row) == [1, "two", None, 4]
    with pytest.raises(KeyError):
        row["missing"]
    assert await db.fetch_one("SELECT 1 AS a WHERE false") is None


# --- exists ---------------------------------------------------------------------------------


def test_exists_is_a_migrated_database_that_answers(empty_postgres_url: str,
                                                    postgres_template: str) -> None:
    assert exists(empty_postgres_url)
    base = empty_postgres_url.rsplit("/", 1)[0]
    assert not exists(f"{base}/postgres")  # answers, never migrated
    assert not exists(f"{base}/ca_test_no_such_database")
    assert not exists("postgresql://postgres@127.0.0.1:1/none")  # nothing listens


# --- the same answers on both backends --------------------------------------------------------

SETUP: list[tuple[str, dict[str, Any] | None]] = [
    ("INSERT INTO stores (id, position, currency, doc) VALUES (:id, :p, :c, :doc)",
     {"id": "s1", "p": 2, "c": "USD", "doc": '{"name": "Hearth", "info": {"city": "Oslo"}}'}),
    ("INSERT INTO stores (id, position, currency, doc) VALUES (:id, :p, :c, :doc)",
     {"id": "s2", "p": 1, "c": "EUR", "doc": '{"name": "Kiln 100%"}'}),
    ("INSERT INTO catalogs (id, store_id, position, doc) VALUES ('c1', 's1', 0, '{}')", None),
    ("INSERT INTO items (id, catalog_id, store_id, position, name, price, doc) "
     "VALUES ('i1', 'c1', 's1', 0, 'Mug', '9.50', '{}')", None),
    ("INSERT INTO items (id, catalog_id, store_id, position, name, price, doc) "
     "VALUES ('i2', 'c1', 's1', 1, 'mug large', '12.00', '{}')", None),
    ("INSERT INTO stock (item_id, variant_id, quantity) VALUES ('i1', '', 5)", None),
    ("INSERT INTO stock (item_id, quantity) VALUES ('i2', 0)", None),
]
IDS, ID_PARAMS = named_list("id", ["s1", "s2", "s3"])
QUERIES: list[tuple[str, dict[str, Any] | None]] = [
    ("SELECT id, position, currency FROM stores ORDER BY position", None),
    (f"SELECT id FROM stores WHERE id IN ({IDS}) ORDER BY id", ID_PARAMS),  # noqa: S608
    ("SELECT COUNT(*) AS n, SUM(quantity) AS total, MAX(quantity) AS most FROM stock", None),
    ("SELECT COUNT(*) AS n, SUM(quantity) AS total FROM stock WHERE quantity > 100", None),
    ("SELECT name FROM items WHERE LOWER(name) LIKE :pattern ORDER BY name",
     {"pattern": "mug%"}),
    ("SELECT id || ':' || currency AS label, LENGTH(id) AS size FROM stores ORDER BY id", None),
    ("SELECT COALESCE(MAX(position), -1) + 1 AS next FROM items WHERE catalog_id = 'c1'", None),
    ("SELECT COALESCE(MAX(position), -1) + 1 AS next FROM items WHERE catalog_id = 'none'",
     None),
    ("SELECT i.id, s.quantity FROM items i LEFT JOIN stock s ON s.item_id = i.id "
     "AND s.variant_id = '' ORDER BY i.position", None),
    ("SELECT 7 / 2 AS quotient, 7 % 2 AS remainder, -7 / 2 AS negative", None),
    ("SELECT CASE WHEN quantity > 0 THEN 'in' ELSE 'out' END AS state FROM stock "
     "ORDER BY item_id", None),
    # An escaped % needs its ESCAPE written out: PostgreSQL's default is \, SQLite has none.
    ("SELECT id FROM stores WHERE doc LIKE :literal ESCAPE '\\'", {"literal": "%100\\%%"}),
    ("SELECT id FROM stores ORDER BY position LIMIT :limit OFFSET :offset",
     {"limit": 1, "offset": 1}),
    ("SELECT currency, COUNT(*) AS n FROM stores GROUP BY currency ORDER BY currency", None),
    ("SELECT id FROM stores WHERE id = :missing", {"missing": None}),
    ("SELECT SUBSTR(name, 1, 3) AS short, UPPER(name) AS loud FROM items ORDER BY id", None),
    ("SELECT id FROM stores WHERE EXISTS (SELECT 1 FROM items WHERE items.store_id = "
     "stores.id)", None),
]
WRITES: list[tuple[str, dict[str, Any] | None]] = [
    ("UPDATE stock SET quantity = quantity - :n WHERE item_id = 'i1' AND quantity >= :n",
     {"n": 2}),
    ("UPDATE stock SET quantity = quantity - :n WHERE item_id = 'i1' AND quantity >= :n",
     {"n": 9}),
    ("INSERT INTO promotions (store_id, code, doc) VALUES ('s1', 'TEN', '{}') "
     "ON CONFLICT DO NOTHING", None),
    ("INSERT INTO promotions (store_id, code, doc) VALUES ('s1', 'TEN', '{\"x\": 1}') "
     "ON CONFLICT DO NOTHING", None),
    ("INSERT INTO promotions (store_id, code, doc) VALUES ('s1', 'TEN', '{\"x\": 2}') "
     "ON CONFLICT (store_id, code) DO UPDATE SET doc = excluded.doc", None),
    ("DELETE FROM stock WHERE item_id = 'none'", None),
    ("UPDATE stores SET position = position + 10", None),
]


async def _answers(db: Database) -> dict[str, Any]:
    counts = []
    async with db.transaction() as tx:
        for sql, params in SETUP:
            await tx.execute(sql, params)
        for sql, params in WRITES:
            counts.append(await tx.execute(sql, params))
        inside = [[tuple(row) for row in await tx.fetch_all(sql, params)]
                  for sql, params in QUERIES]
    outside = [[tuple(row) for row in await db.fetch_all(sql, params)]
               for sql, params in QUERIES]
    keyed = [dict(zip(row.keys(), row, strict=False))
             for row in await db.fetch_all("SELECT * FROM promotions")]
    city_path = json_text(db.dialect, "doc", "info", "city")
    absent_path = json_text(db.dialect, "doc", "nothing")
    city = await db.fetch_one(f"SELECT {city_path} AS city, {absent_path} AS absent "  # noqa: S608
                              "FROM stores WHERE id = 's1'")
    assert city is not None
    return {"counts": counts, "inside": inside, "outside": outside, "keyed": keyed,
            "json": tuple(city)}


async def test_the_same_statements_give_the_same_answers_on_both_backends(
        empty_postgres_url: str, tmp_path: os.PathLike[str]) -> None:
    found = {}
    for target in (os.path.join(tmp_path, "same.db"), empty_postgres_url):
        database = database_for(target)
        await database.open()
        try:
            found[database.dialect] = await _answers(database)
        finally:
            await database.close()
    sqlite, postgres = found["sqlite"], found["postgresql"]
    assert sqlite["counts"] == postgres["counts"] == [1, 0, 1, 0, 1, 0, 2]
    for number, (mine, theirs) in enumerate(zip(sqlite["inside"], postgres["inside"],
                                                strict=True)):
        assert mine == theirs, QUERIES[number][0]
    assert sqlite["outside"] == sqlite["inside"] and postgres["outside"] == postgres["inside"]
    assert sqlite["keyed"] == postgres["keyed"] == [
        {"store_id": "s1", "code": "TEN", "doc": '{"x": 2}'}]
    assert sqlite["json"] == postgres["json"] == ("Oslo", None)


async def test_both_backends_refuse_the_same_constraint_violations(
        empty_postgres_url: str, tmp_path: os.PathLike[str]) -> None:
    refusals = {
        "duplicate key": "INSERT INTO stores (id, position, currency, doc) "
                         "VALUES ('s1', 0, 'USD', '{}')",
        "check": "UPDATE stock SET quantity = -1 WHERE item_id = 'i1'",
        "not null": "INSERT INTO stores (id, position, currency, doc) "
                    "VALUES ('s9', 0, 'USD', NULL)",
    }
    for target in (os.path.join(tmp_path, "refuse.db"), empty_postgres_url):
        database = database_for(target)
        await database.open()
        try:
            async with database.transaction() as tx:
                for sql, params in SETUP:
                    await tx.execute(sql, params)
            for kind, sql in refusals.items():
                with pytest.raises(IntegrityError):
                    async with database.transaction() as tx:
                        await tx.execute("UPDATE stores SET position = 99")
                        await tx.execute(sql)
                rows = await database.fetch_all("SELECT position FROM stores ORDER BY id")
                assert [row["position"] for row in rows] == [2, 1], (database.dialect, kind)
            for way in ("defer", "fetch_one", "fetch_all", "execute_many"):
                with pytest.raises(IntegrityError):
                    async with database.transaction() as tx:
                        await tx.execute("UPDATE stores SET position = 99")
                        await _duplicate(tx, way)
                rows = await database.fetch_all("SELECT position FROM stores ORDER BY id")
                assert [row["position"] for row in rows] == [2, 1], (database.dialect, way)
        finally:
            await database.close()


async def _duplicate(tx: Transaction, way: str) -> None:
    """Insert store s1 again, through the transaction method `way`."""
    insert = ("INSERT INTO stores (id, position, currency, doc) "
              "VALUES (:id, 0, 'USD', '{}')")
    if way == "defer":
        await tx.defer(insert, {"id": "s1"})
        await tx.fetch_all("SELECT 1")  # where PostgreSQL sends what was deferred
    elif way == "fetch_one":
        await tx.fetch_one(insert + " RETURNING id", {"id": "s1"})
    elif way == "fetch_all":
        await tx.fetch_all(insert + " RETURNING id", {"id": "s1"})
    else:
        await tx.execute_many(insert, [{"id": "s5"}, {"id": "s1"}])
