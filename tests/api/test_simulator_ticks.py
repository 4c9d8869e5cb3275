"""One tick of the fulfillment simulator: a step that cannot run is tried again later (scaled
by the speed) without holding back the other orders, a cancelled or hand-finished order loses
its job, a step not yet due waits, and how often the loop looks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.commerce.services.fulfillment.plans import Context
from commerce_agent.commerce.storage import lifecycle as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError
from tests.support.lifecycle_support import complete, mug_order

pytestmark = pytest.mark.both_backends

FAST = 100000.0


async def make_due(app: Starlette, order_id: str) -> None:
    async with app.state.db.transaction() as tx:
        job = await storage.job(tx, order_id)
        assert job is not None
        await storage.schedule(tx, order_id, int(job["step"]), clock.now_iso())


async def status(app: Starlette, order_id: str) -> str:
    row = await storage.order_by_id(app.state.db, order_id)
    assert row is not None
    return str(row["status"])


async def test_a_step_that_cannot_run_is_retried_later_and_others_still_move(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    stuck = await mug_order(client, alice)
    moving = await mug_order(client, alice)
    for order in (stuck, moving):
        await make_due(app, order["id"])
    real = simulator.run_step

    async def refuse_one(tx: Transaction, order_id: str, ctx: Any, *, force: bool = False
                         ) -> dict[str, Any] | None:
        if order_id == stuck["id"]:
            raise CommerceError(409, "conflict", "held by a test")
        return await real(tx, order_id, ctx, force=force)

    monkeypatch.setattr(simulator, "run_step", refuse_one)
    speed = 2.0
    before = clock.now()
    moved = await simulator.tick(app.state.db, speed, "http://test")
    assert moved == 1
    assert await status(app, moving["id"]) == "processing"
    assert await status(app, stuck["id"]) == "confirmed"
    job = await storage.job(app.state.db, stuck["id"])
    assert job is not None and job["due_at"] is not None
    retry_at = clock.parse(str(job["due_at"]))
    wait = timedelta(seconds=simulator.RETRY_SECONDS / speed)
    assert before + wait - timedelta(seconds=1) <= retry_at <= clock.now() + wait
    # Not due again before then: the next tick leaves it alone.
    assert await simulator.tick(app.state.db, speed, "http://test") == 0


async def test_a_cancelled_order_loses_its_job_on_the_next_tick(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    cancelled = await client.post(f"/orders/{placed['id']}/cancel", headers=alice,
                                  json={"reason": "changed my mind"})
    assert cancelled.status_code == 200, cancelled.text
    if await storage.job(app.state.db, placed["id"]) is not None:
        await make_due(app, placed["id"])
        assert await simulator.tick(app.state.db, FAST, "http://test") == 0
    assert await storage.job(app.state.db, placed["id"]) is None
    assert await status(app, placed["id"]) == "cancelled"


async def test_a_finished_order_is_never_moved_again(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    await complete(app, placed["id"])
    async with app.state.db.transaction() as tx:  # a job left behind, as after a crash
        await storage.schedule(tx, placed["id"], 0, clock.now_iso())
    assert await simulator.tick(app.state.db, FAST, "http://test") == 0
    assert await storage.job(app.state.db, placed["id"]) is None
    assert await status(app, placed["id"]) == "completed"


async def test_a_step_not_yet_due_waits(app: Starlette, client: httpx.AsyncClient,
                                        alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    later = clock.iso(clock.now() + timedelta(hours=1))
    async with app.state.db.transaction() as tx:
        await storage.schedule(tx, placed["id"], 0, later)
    assert await simulator.tick(app.state.db, FAST, "http://test") == 0
    assert await status(app, placed["id"]) == "confirmed"
    job = await storage.job(app.state.db, placed["id"])
    assert job is not None and job["due_at"] == later


async def test_a_forced_step_runs_before_it_is_due(app: Starlette, client: httpx.AsyncClient,
                                                   alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    async with app.state.db.transaction() as tx:
        await storage.schedule(tx, placed["id"], 0, clock.iso(clock.now() + timedelta(days=1)))
        after = await simulator.run_step(tx, placed["id"],
                                         Context(clock.now(), 1.0, "http://test"),
                                         force=True)
    assert after is not None and after["status"] == "processing"


@pytest.mark.parametrize(("speed", "interval"), [
    (1.0, 1.0), (5.0, 1.0), (10.0, 0.5), (100.0, 0.05), (1000.0, 0.02), (1e9, 0.02)])
def test_the_loop_looks_more_often_the_faster_it_runs(speed: float, interval: float) -> None:
    assert simulator.poll_interval(speed) == pytest.approx(interval)
