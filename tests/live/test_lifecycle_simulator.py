"""The fulfillment simulator: orders reach completed on their own, across restarts and with
several processes sharing one database file."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette

from commerce_agent.cli import main
from commerce_agent.commerce.services.fulfillment import plans as fulfillment
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.db import Database, database_for
from commerce_agent.settings import Settings
from tests.support.app import MEDIA, running
from tests.support.helpers import US_ADDRESS, buy
from tests.support.lifecycle_support import (
    EventLog,
    digital_order,
    get_order,
    kitchen_order,
    mug_order,
    record_events,
)
from tests.support.live import start_live_server

pytestmark = pytest.mark.both_backends

HARD_TIMEOUT = 30.0


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> EventLog:
    return record_events(monkeypatch)


async def wait_for(client: httpx.AsyncClient, headers: dict[str, str], order_id: str,
                   status: str) -> dict[str, Any]:
    """Poll GET /orders/{id} until `status`, within the hard timeout."""
    async with asyncio.timeout(HARD_TIMEOUT):
        while True:
            order = await get_order(client, headers, order_id)
            if order["status"] == status:
                return order
            await asyncio.sleep(0.02)


async def test_orders_complete_on_their_own(settings: Settings, events: EventLog) -> None:
    async with running(settings, simulate=True, simulate_speed=5000.0) as (_, client, alice):
        placed = [await mug_order(client, alice), await digital_order(client, alice),
                  await kitchen_order(client, alice)]
        for order in placed:
            final = await wait_for(client, alice, order["id"], "completed")
            events.assert_chained(order["id"], final)
            steps = fulfillment.plan(final)
            assert len(events.for_order(order["id"])) == 1 + len(steps)
        shipped = await get_order(client, alice, placed[0]["id"])
        assert shipped["metadata"]["dev.commerce.order.shipment_tracking"][0]["status"] == \
            "delivered"
        assert "dev.commerce.order.digital_access" in \
            (await get_order(client, alice, placed[1]["id"]))["metadata"]


async def test_simulator_survives_a_restart(settings: Settings, events: EventLog) -> None:
    async with running(settings, simulate=False) as (app, client, alice):
        order = await mug_order(client, alice)
        await asyncio.sleep(0.1)
        assert (await get_order(client, alice, order["id"]))["status"] == "confirmed"
    async with running(settings, simulate=True, simulate_speed=300.0) as (_, client, alice):
        await wait_for(client, alice, order["id"], "processing")
    async with running(settings, simulate=False) as (_, client, alice):
        midway = await get_order(client, alice, order["id"])
        assert midway["status"] in ("processing", "in_transit")
    async with running(settings, simulate=True, simulate_speed=5000.0) as (_, client, alice):
        final = await wait_for(client, alice, order["id"], "completed")
    events.assert_chained(order["id"], final)
    assert len(events.for_order(order["id"])) == 1 + len(fulfillment.plan(final))


async def test_two_processes_share_the_work(app: Starlette, client: httpx.AsyncClient,
                                            alice: dict[str, str], settings: Settings,
                                            events: EventLog) -> None:
    orders = [await mug_order(client, alice) for _ in range(3)]
    others = [database_for(settings.db_path, synchronous="NORMAL") for _ in range(2)]
    for database in others:
        await database.open()
    try:
        async def work(database: Database) -> None:
            while True:
                await simulator.tick(database, 1_000_000.0, "http://test")
                await asyncio.sleep(0)
                rows = await database.fetch_all("SELECT status FROM orders")
                if all(row["status"] == "completed" for row in rows):
                    return

        async with asyncio.timeout(HARD_TIMEOUT):
            await asyncio.gather(*(work(database) for database in others))
    finally:
        for database in others:
            await database.close()
    for order in orders:
        final = await get_order(client, alice, order["id"])
        assert final["status"] == "completed"
        events.assert_chained(order["id"], final)
        assert len(events.for_order(order["id"])) == 1 + len(fulfillment.plan(final))


async def test_serve_runs_the_simulator(make_db: Callable[[str], str]) -> None:
    db_path = make_db("served.db")
    runner = CliRunner()
    seeded = await asyncio.to_thread(runner.invoke, main, ["seed", "--db", db_path])
    assert seeded.exit_code == 0, seeded.output
    minted = await asyncio.to_thread(runner.invoke, main, [
        "token", "create", "--user", "alice@example.com", "--db", db_path])
    assert minted.exit_code == 0, minted.output
    alice = {"Authorization": f"Bearer {minted.output.strip()}"}
    server = await asyncio.to_thread(start_live_server, db_path,
                                     ["--simulate", "--simulate-speed", "5000"])
    try:
        async with httpx.AsyncClient(base_url=server.url, headers={"Accept": MEDIA},
                                     timeout=10.0) as client:
            order = await buy(client, alice, address=US_ADDRESS)
            final = await wait_for(client, alice, order["id"], "completed")
            assert final["metadata"]["dev.commerce.order.detailed_status"][
                "progressPercentage"] == 100
    finally:
        await asyncio.to_thread(server.stop)
