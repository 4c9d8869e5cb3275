"""A database that goes away never makes the API answer 500 or hang: on a PostgreSQL cluster
the test owns, stopped (a crash) and then frozen (SIGSTOP), every request that needs the
database is answered 503 service_unavailable with Retry-After within a bounded time, `GET
/health` says so, `GET /health/live` does not; and within 5 s of the database's return reads
and writes work again. On SQLite, a write that finds the file locked by another process past
the busy timeout is answered 503 the same way."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from typing import Any

import httpx

from commerce_agent.db.base import DATABASE_TIMEOUT_SECONDS, RETRY_AFTER_SECONDS
from commerce_agent.db.postgres_limits import CLIENT_GRACE_SECONDS
from tests.support.live import LiveServer, start_live_server, user_token
from tests.support.pg import require_postgres
from tests.support.pg_cluster import Cluster, own_cluster

# Every request is answered within this, whatever the database does: one statement's bound,
# the wait for a pooled connection, and slack for a loaded machine.
ANSWER_WITHIN = DATABASE_TIMEOUT_SECONDS + CLIENT_GRACE_SECONDS + 4.0
RECOVERY_WITHIN = 5.0


async def timed(client: httpx.AsyncClient, method: str, path: str,
                **options: Any) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = await client.request(method, path, **options)
    return response, time.monotonic() - started


def assert_unavailable(response: httpx.Response, elapsed: float) -> None:
    assert response.status_code == 503, (response.request.url, response.text)
    assert response.json()["code"] == "service_unavailable"
    assert response.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert elapsed < ANSWER_WITHIN, (response.request.url, elapsed)


async def outage_answers(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    """Reads, writes and the readiness check while the database cannot answer: all 503 in
    bounded time; liveness still 200."""
    calls = [("GET", "/orders", {"headers": alice}),
             ("GET", "/user/profile", {"headers": alice}),
             ("POST", "/carts", {"headers": alice, "json": {"storeId": "store_ceramics"}}),
             ("GET", "/health", {})] * 2
    answers = await asyncio.gather(*(timed(client, method, path, **options)
                                     for method, path, options in calls))
    for response, elapsed in answers:
        assert_unavailable(response, elapsed)
    live, elapsed = await timed(client, "GET", "/health/live")
    assert live.status_code == 200 and elapsed < 1.0


async def recovered_within(client: httpx.AsyncClient, alice: dict[str, str],
                           since: float) -> float:
    """Seconds from `since` until a read, a write and the readiness check all succeed."""
    deadline = since + RECOVERY_WITHIN + 10
    while time.monotonic() < deadline:
        orders = await client.get("/orders", headers=alice)
        assert orders.status_code in (200, 503), orders.text
        if orders.status_code == 200:
            break
        await asyncio.sleep(0.1)
    took = time.monotonic() - since
    cart = await client.post("/carts", headers=alice, json={"storeId": "store_ceramics"})
    assert cart.status_code == 201, cart.text
    health = await client.get("/health")
    assert health.status_code == 200 and health.json() == {"status": "ok", "database": "ok"}
    return took


def create_database(cluster: Cluster) -> str:
    import psycopg

    with psycopg.connect(cluster.url(), autocommit=True) as connection:
        connection.execute("CREATE DATABASE shop")
    return cluster.url("shop")


async def test_a_stopped_then_frozen_postgresql_gives_503_then_recovers_within_5_s() -> None:
    require_postgres()  # psycopg and the postgres extra
    with own_cluster() as cluster:
        url = await asyncio.to_thread(create_database, cluster)
        server: LiveServer = await asyncio.to_thread(start_live_server, url, ["--no-simulate"])
        try:
            alice = {"Authorization": f"Bearer {await asyncio.to_thread(user_token, url)}"}
            async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
                assert (await client.get("/health")).status_code == 200
                assert (await client.get("/orders", headers=alice)).status_code == 200

                await asyncio.to_thread(cluster.stop)
                await outage_answers(client, alice)
                await asyncio.to_thread(cluster.start)
                took = await recovered_within(client, alice, time.monotonic())
                assert took < RECOVERY_WITHIN, f"reads came back {took:.1f} s after restart"

                cluster.freeze()
                try:
                    await outage_answers(client, alice)
                finally:
                    cluster.thaw()
                took = await recovered_within(client, alice, time.monotonic())
                assert took < RECOVERY_WITHIN, f"reads came back {took:.1f} s after thaw"
            assert "Exception in ASGI application" not in server.output()
        finally:
            server.stop()


def test_a_write_waiting_on_a_sqlite_lock_held_elsewhere_gets_503_in_bounded_time(
        tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "busy.db")
    server = start_live_server(path)
    try:
        alice = {"Authorization": f"Bearer {user_token(path)}"}
        other = sqlite3.connect(path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            with httpx.Client(base_url=server.url, timeout=60) as client:
                started = time.monotonic()
                refused = client.post("/carts", headers=alice,
                                      json={"storeId": "store_ceramics"})
                elapsed = time.monotonic() - started
                assert_unavailable(refused, elapsed)
                assert elapsed >= DATABASE_TIMEOUT_SECONDS - 0.5  # it did wait for the lock
                read = client.get("/orders", headers=alice)  # readers are not blocked (WAL)
                assert read.status_code == 200
                other.execute("ROLLBACK")
                created = client.post("/carts", headers=alice,
                                      json={"storeId": "store_ceramics"})
                assert created.status_code == 201, created.text
        finally:
            other.close()
    finally:
        server.stop()
