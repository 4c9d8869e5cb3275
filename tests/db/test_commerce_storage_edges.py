"""The Commerce API's storage at its edges, on both backends: empty inputs answer empty without
a query that SQL would refuse (`IN ()`), stock taken only while enough is on hand (and always
for an item whose stock is not counted), what a shopper bought or reviewed, when the next
fulfilment step is due, and events read per order."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.storage import catalog, lifecycle, mail, order_events
from tests.support.lifecycle_support import complete, mug_order, stock

pytestmark = pytest.mark.both_backends

MUG = "item_limited_glaze_mug"  # 10 in stock
EBOOK = "item_glazing_guide_ebook"  # stock not counted


async def test_empty_inputs_answer_empty(app: Starlette) -> None:
    db = app.state.db
    assert await catalog.purchased_item_ids(db, "user_alice", []) == set()
    assert await catalog.reviewed_item_ids(db, "user_alice", []) == set()
    assert await order_events.after_each(db, {}, 10) == []
    assert await mail.count_for_stores(db, [], 10) == 0
    assert await mail.for_stores(db, [], 10) == []


async def test_stock_is_taken_only_while_enough_is_on_hand(app: Starlette) -> None:
    async with app.state.db.transaction() as tx:
        assert await catalog.decrement_stock(tx, MUG, "", 4)
        assert not await catalog.decrement_stock(tx, MUG, "", 7)  # 6 left
        assert await catalog.decrement_stock(tx, MUG, "", 6)
        assert not await catalog.decrement_stock(tx, MUG, "", 1)
        # Not counted: always there, and no row appears.
        assert await catalog.decrement_stock(tx, EBOOK, "", 10**6)
        assert await catalog.decrement_stock(tx, "item_that_does_not_exist", "", 1)
    assert await stock(app, MUG) == 0
    row = await app.state.db.fetch_one(
        "SELECT COUNT(*) AS n FROM stock WHERE item_id = :i", {"i": EBOOK}
    )
    assert row["n"] == 0


async def test_a_refused_take_changes_nothing_and_a_rollback_gives_it_back(app: Starlette) -> None:
    class Abort(Exception):
        pass

    with pytest.raises(Abort):
        async with app.state.db.transaction() as tx:
            assert await catalog.decrement_stock(tx, MUG, "", 10)
            raise Abort
    assert await stock(app, MUG) == 10
    async with app.state.db.transaction() as tx:
        assert not await catalog.decrement_stock(tx, MUG, "", 11)
    assert await stock(app, MUG) == 10


async def test_what_a_shopper_bought_and_reviewed(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    db = app.state.db
    asked = [MUG, EBOOK, "item_classic_mug"]
    assert await catalog.purchased_item_ids(db, "user_alice", asked) == set()
    placed = await mug_order(client, alice)
    assert await catalog.purchased_item_ids(db, "user_alice", asked) == {MUG}
    assert await catalog.purchased_item_ids(db, "user_bob", asked) == set()
    await complete(app, placed["id"])
    review = await client.post(
        f"/items/{MUG}/reviews", headers=alice, json={"rating": 4, "comment": "Lovely glaze"}
    )
    assert review.status_code in (200, 201), review.text
    assert await catalog.reviewed_item_ids(db, "user_alice", asked) == {MUG}
    assert await catalog.reviewed_item_ids(db, "user_bob", asked) == set()
    # A cancelled order is no purchase.
    cancelled = await mug_order(client, alice)
    assert (
        await client.post(f"/orders/{cancelled['id']}/cancel", headers=alice)
    ).status_code == 200
    assert await catalog.purchased_item_ids(db, "user_alice", [MUG]) == {MUG}


async def test_the_next_due_step_is_the_earliest_timed_one(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    db = app.state.db
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM fulfillment_jobs")
    assert await lifecycle.next_due(db) is None
    first = (await mug_order(client, alice))["id"]
    second = (await mug_order(client, alice))["id"]
    later, sooner = clock.later_iso(3600), clock.later_iso(60)
    async with db.transaction() as tx:
        await lifecycle.schedule(tx, first, 1, later)
        await lifecycle.schedule(tx, second, 1, None)  # untimed: due now, not "next"
    assert await lifecycle.next_due(db) == later
    async with db.transaction() as tx:
        await lifecycle.schedule(tx, second, 2, sooner)
    assert await lifecycle.next_due(db) == sooner
    due = await lifecycle.due_jobs(db, clock.later_iso(120), 10)
    assert [row["order_id"] for row in due] == [second]
    async with db.transaction() as tx:
        await lifecycle.unschedule(tx, second)
        await lifecycle.unschedule(tx, first)
    assert await lifecycle.next_due(db) is None


async def test_events_are_read_per_order_after_each_ones_position(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    db = app.state.db
    first = (await mug_order(client, alice))["id"]
    second = (await mug_order(client, alice))["id"]
    await complete(app, first)
    first_latest = await order_events.latest_seq(db, first)
    second_latest = await order_events.latest_seq(db, second)
    assert first_latest > 2 and second_latest >= 1
    rows = await order_events.after_each(db, {first: 1, second: second_latest}, 100)
    assert [(row["order_id"], row["seq"]) for row in rows] == [
        (first, seq) for seq in range(2, first_latest + 1)
    ]
    assert rows[-1]["status"] == "completed"
    # The limit cuts the answer; the rest is read from where it stopped.
    cut = await order_events.after_each(db, {first: 0}, 2)
    assert [row["seq"] for row in cut] == [1, 2]
    assert await order_events.after_each(db, {"ord_unknown": 0}, 10) == []
    assert await order_events.latest_seq(db, "ord_unknown") == 0
