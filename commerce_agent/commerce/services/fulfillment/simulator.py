"""The fulfillment simulator: moves paid orders through their plan on its own.

Its whole state is in the database (table fulfillment_jobs: steps done, next due time), so it
survives restarts and several processes can share one file: each step runs in one
`BEGIN IMMEDIATE` transaction that re-reads the job, so a step due in two processes at once
runs only in the first. A job whose due time is NULL has not been timed yet; whichever
simulator sees it first times it at its own speed. The merchant command `orders advance` uses
the same steps without waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.background import running
from commerce_agent.commerce.orders import cancellation, lifecycle
from commerce_agent.commerce.orders.model import CANCELLED, PENDING, TERMINAL
from commerce_agent.commerce.services.fulfillment import plans as fulfillment
from commerce_agent.commerce.services.fulfillment.plans import Context, Step
from commerce_agent.commerce.storage import lifecycle as storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError

log = logging.getLogger(__name__)
BATCH = 100
RETRY_SECONDS = 60.0


def _locate(doc: dict[str, Any], done: int) -> tuple[int, Step] | None:
    """(index, step) of the order's next step: the plan's, or (-1, a bare forward move) for an
    order that is off its plan (moved by hand)."""
    steps = fulfillment.plan(doc)
    expected = fulfillment.statuses_before(steps)
    if done < len(steps) and expected[done] == doc["status"]:
        return done, steps[done]
    index = next((i for i, status in enumerate(expected) if status == doc["status"]), None)
    if index is not None:
        return index, steps[index]
    fallback = fulfillment.fallback_step(doc)
    return (-1, fallback) if fallback is not None else None


async def run_step(tx: Transaction, order_id: str, ctx: Context, *, force: bool = False
                   ) -> dict[str, Any] | None:
    """Run the order's next step if due (always with `force`); the new document, or None."""
    # The order first: its row lock makes a step run by one process at a time, and the job
    # read after it is the one the last step left.
    _, doc = await lifecycle.load(tx, order_id)
    job = await storage.job(tx, order_id)
    if doc["status"] in TERMINAL or (doc["status"] == PENDING and not force):
        await storage.unschedule(tx, order_id)
        return None
    found = _locate(doc, int(job["step"]) if job else 0)
    if found is None:
        await storage.unschedule(tx, order_id)
        return None
    index, step = found
    now = clock.iso(ctx.now)
    if not force:
        due = job["due_at"] if job else None
        if due is None:
            due = max(ctx.later(step.delay), step.not_before or "")
            await storage.schedule(tx, order_id, index, due)
        if due > now:
            return None
    after = await lifecycle.change_order(tx, order_id, lambda order: step.apply(order, ctx),
                                         to=step.status)
    if after["status"] not in TERMINAL:
        await storage.schedule(tx, order_id, index + 1 if index >= 0 else 0, None)
    return after


async def tick(db: Database, speed: float, base_url: str) -> int:
    """Run every due step once; returns how many orders moved."""
    moved = 0
    for job in await storage.due_jobs(db, clock.now_iso(), BATCH):
        order_id = str(job["order_id"])
        ctx = Context(clock.now(), speed, base_url)
        try:
            async with db.transaction() as tx:
                if await run_step(tx, order_id, ctx) is not None:
                    moved += 1
        except CommerceError as exc:
            log.warning("simulator: order %s cannot move (%s); retrying later", order_id,
                        exc.message)
            async with db.transaction() as tx:
                retry = clock.iso(clock.now() + timedelta(seconds=RETRY_SECONDS / speed))
                await storage.schedule(tx, order_id, int(job["step"]), retry)
    return moved


def poll_interval(speed: float) -> float:
    """How often to look for due steps: the shortest plan delay, scaled, within bounds."""
    return min(1.0, max(0.02, 5.0 / speed))


async def _loop(db: Database, speed: float, base_url: str) -> None:
    interval = poll_interval(speed)
    while True:
        try:
            await tick(db, speed, base_url)
        except Exception:  # a broken step must not stop the simulator for every other order
            log.exception("simulator tick failed")
        await asyncio.sleep(interval)


@asynccontextmanager
async def simulator_worker(app: Starlette) -> AsyncIterator[None]:
    """Background worker for create_app(workers=[...]): runs while the app runs."""
    settings = app.state.settings
    async with running(_loop(app.state.db, settings.simulate_speed,
                             settings.base_url.rstrip("/"))):
        yield


async def advance(tx: Transaction, order_id: str, base_url: str, to: str | None = None
                  ) -> dict[str, Any]:
    """The merchant's move: to the next status, running the plan's steps on the way, or to
    `to` (along the plan when it passes there, else directly if the state machine allows)."""
    _, doc = await lifecycle.load(tx, order_id)
    if to == CANCELLED:
        return await cancellation.cancel(tx, order_id, owner_id=None,
                                         reason="Cancelled by the merchant", by="merchant")
    if to is not None and to not in _ahead(doc):
        return await lifecycle.change_order(tx, order_id, to=to)
    start = doc["status"]
    for _ in range(50):
        after = await run_step(tx, order_id, Context(clock.now(), 1.0, base_url), force=True)
        if after is None:
            break
        doc = after
        if doc["status"] == (to or doc["status"]) and doc["status"] != start:
            return doc
    raise CommerceError(409, "invalid_transition",
                        f"A {start} order has nowhere further to go.", params={"from": start})


def _ahead(doc: dict[str, Any]) -> set[str]:
    """Statuses the order's plan still leads through from where the order is."""
    steps = fulfillment.plan(doc)
    expected = fulfillment.statuses_before(steps)
    if doc["status"] not in expected:
        return set()
    start = expected.index(doc["status"])
    return {step.status for step in steps[start:] if step.status}
