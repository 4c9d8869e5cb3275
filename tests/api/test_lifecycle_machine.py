"""The order state machine: every move allowed and refused, one place, every change reported."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette

from commerce_agent.cli import main
from commerce_agent.commerce.orders import lifecycle, model, rules
from commerce_agent.errors import CommerceError
from commerce_agent.settings import Settings
from tests.support.lifecycle_support import (
    EventLog,
    advance,
    digital_order,
    edit_doc,
    get_order,
    mug_order,
    record_events,
)

pytestmark = pytest.mark.both_backends

STATUSES = model.STATUSES
ALLOWED_SHIPPING = {("pending", "confirmed"), ("pending", "cancelled"),
                    ("confirmed", "processing"), ("confirmed", "cancelled"),
                    ("processing", "in_transit"), ("in_transit", "completed")}
ALLOWED_NOT_SHIPPING = ALLOWED_SHIPPING | {("confirmed", "completed")}

PHYSICAL = {"id": "o", "items": [{"fulfillmentType": "physical"}]}
HYBRID = {"id": "o", "items": [{"fulfillmentType": "hybrid", "fulfillmentComponents": [
    {"type": "digital"}, {"type": "physical"}]}]}
DIGITAL = {"id": "o", "items": [{"fulfillmentType": "digital"}]}
PICKUP = {"id": "o", "items": [{"fulfillmentType": "pickup"}]}
PICKED_UP_PHYSICAL = {"id": "o", "items": [{"fulfillmentType": "physical"}], "metadata": {
    model.FULFILLMENT_INTENT: {"fulfillmentType": "pickup"}}}


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> EventLog:
    return record_events(monkeypatch)


@pytest.mark.parametrize("doc,allowed", [(PHYSICAL, ALLOWED_SHIPPING),
                                         (HYBRID, ALLOWED_SHIPPING),
                                         (DIGITAL, ALLOWED_NOT_SHIPPING),
                                         (PICKUP, ALLOWED_NOT_SHIPPING),
                                         (PICKED_UP_PHYSICAL, ALLOWED_NOT_SHIPPING)])
def test_every_pair_of_statuses(doc: dict[str, Any], allowed: set[tuple[str, str]]) -> None:
    for current in STATUSES:
        for target in STATUSES:
            order = {**doc, "status": current}
            assert rules.can_move(order, target) == ((current, target) in allowed), \
                (current, target)
            if (current, target) not in allowed:
                with pytest.raises(CommerceError) as refused:
                    lifecycle.check_move(order, target)
                assert refused.value.status == 409
                assert refused.value.code == "invalid_transition"
                assert refused.value.params == {"from": current, "to": target}


async def test_a_shipped_order_walks_the_whole_chain(app: Starlette, client: httpx.AsyncClient,
                                                     alice: dict[str, str],
                                                     events: EventLog) -> None:
    placed = await mug_order(client, alice)
    assert placed["status"] == "confirmed"
    # (the merchant may name a later status: the order walks its plan there, move by move)
    refused = {"confirmed": ["pending", "confirmed"],
               "processing": ["pending", "confirmed", "cancelled", "processing"],
               "in_transit": ["pending", "confirmed", "processing", "cancelled", "in_transit"]}
    for current, following in (("confirmed", "processing"), ("processing", "in_transit"),
                               ("in_transit", "completed")):
        for target in refused[current]:
            with pytest.raises(CommerceError) as error:
                await advance(app, placed["id"], target)
            assert error.value.code in ("invalid_transition", "cancellation_window_expired")
            assert (await get_order(client, alice, placed["id"]))["status"] == current
        moved = await advance(app, placed["id"])
        assert moved["status"] == following
    for target in STATUSES:
        with pytest.raises(CommerceError):
            await advance(app, placed["id"], target)
    final = await get_order(client, alice, placed["id"])
    assert final["status"] == "completed" and final["completedAt"]
    events.assert_chained(placed["id"], final)
    assert [after["status"] for _, after in events.for_order(placed["id"])][-1] == "completed"


async def test_digital_orders_may_complete_from_confirmed(app: Starlette,
                                                         client: httpx.AsyncClient,
                                                         alice: dict[str, str]) -> None:
    placed = await digital_order(client, alice)
    done = await advance(app, placed["id"], "completed")
    assert done["status"] == "completed"
    with pytest.raises(CommerceError) as error:
        await advance(app, placed["id"], "processing")
    assert error.value.code == "invalid_transition"


async def test_physical_orders_may_not_skip(app: Starlette, client: httpx.AsyncClient,
                                            alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    async with app.state.db.transaction() as tx:
        with pytest.raises(CommerceError) as error:
            await lifecycle.change_order(tx, placed["id"], to="completed")
    assert error.value.status == 409 and error.value.code == "invalid_transition"
    assert error.value.params == {"from": "confirmed", "to": "completed"}


async def test_pending_order_is_confirmed_then_scheduled(app: Starlette,
                                                         client: httpx.AsyncClient,
                                                         alice: dict[str, str],
                                                         events: EventLog) -> None:
    placed = await mug_order(client, alice)
    await edit_doc(app, placed["id"], lambda doc: doc.update(status="pending"))
    async with app.state.db.transaction() as tx:
        await tx.execute("DELETE FROM fulfillment_jobs WHERE order_id = :id",
                         {"id": placed["id"]})
    with pytest.raises(CommerceError):
        await advance(app, placed["id"], "processing")
    confirmed = await advance(app, placed["id"])
    assert confirmed["status"] == "confirmed"
    job = await app.state.db.fetch_one(
        "SELECT step, due_at FROM fulfillment_jobs WHERE order_id = :id", {"id": placed["id"]})
    assert job is not None and job["step"] == 0 and job["due_at"] is None
    before, after = events.for_order(placed["id"])[-1]
    assert before is not None and before["status"] == "pending"
    assert after["status"] == "confirmed"


async def test_terminal_orders_leave_the_simulator(app: Starlette, client: httpx.AsyncClient,
                                                   alice: dict[str, str]) -> None:
    placed = await digital_order(client, alice)
    query = "SELECT COUNT(*) AS n FROM fulfillment_jobs WHERE order_id = :id"
    assert (await app.state.db.fetch_one(query, {"id": placed["id"]}))["n"] == 1
    await advance(app, placed["id"])
    assert (await app.state.db.fetch_one(query, {"id": placed["id"]}))["n"] == 0


async def test_unknown_order(app: Starlette) -> None:
    with pytest.raises(CommerceError) as error:
        await advance(app, "ord_missing")
    assert error.value.status == 404 and error.value.code == "order_not_found"


async def _cli(*args: str) -> Any:
    runner = CliRunner()
    return await asyncio.to_thread(runner.invoke, main, list(args))


async def test_cli_lists_and_advances(app: Starlette, client: httpx.AsyncClient,
                                      alice: dict[str, str], settings: Settings) -> None:
    placed = await mug_order(client, alice)
    db = ["--db", settings.db_path]
    listed = await _cli("orders", "list", *db)
    assert listed.exit_code == 0 and placed["id"] in listed.output
    only_done = await _cli("orders", "list", "--status", "completed", *db)
    assert placed["id"] not in only_done.output
    moved = await _cli("orders", "advance", placed["id"], *db)
    assert moved.exit_code == 0, moved.output
    assert "confirmed -> processing" in moved.output
    jumped = await _cli("orders", "advance", placed["id"], "--to", "in_transit", *db)
    assert jumped.exit_code == 0 and "processing -> in_transit" in jumped.output
    order = await get_order(client, alice, placed["id"])
    assert order["status"] == "in_transit"
    assert order["metadata"]["dev.commerce.order.shipment_tracking"][0]["trackingNumber"]
    refused = await _cli("orders", "advance", placed["id"], "--to", "confirmed", *db)
    assert refused.exit_code == 1 and "invalid_transition" in refused.output
    missing = await _cli("orders", "advance", "ord_nope", *db)
    assert missing.exit_code == 1 and "order_not_found" in missing.output
    bad = await _cli("orders", "advance", placed["id"], "--to", "shipped", *db)
    assert bad.exit_code == 2
    done = await _cli("orders", "advance", placed["id"], *db)
    assert "in_transit -> completed" in done.output
    again = await _cli("orders", "advance", placed["id"], *db)
    assert again.exit_code == 1 and "invalid_transition" in again.output


async def test_cli_cancel_goes_through_cancellation(app: Starlette, client: httpx.AsyncClient,
                                                    alice: dict[str, str],
                                                    settings: Settings) -> None:
    placed = await mug_order(client, alice)
    result = await _cli("orders", "advance", placed["id"], "--to", "cancelled",
                        "--db", settings.db_path)
    assert result.exit_code == 0, result.output
    order = await get_order(client, alice, placed["id"])
    assert order["status"] == "cancelled"
    assert order["cancellation"]["cancelledBy"] == "merchant"
    assert order["metadata"]["dev.commerce.order.refunds"][0]["amount"] == order["total"]
