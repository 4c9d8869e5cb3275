"""Stock under contention: 50 buyers, 10 mugs, exactly 10 orders."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from tests.support.app import token_for
from tests.support.helpers import (
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    confirm_fiat,
    new_cart,
    payment_header,
)

pytestmark = pytest.mark.both_backends


async def _ready_to_pay(client: httpx.AsyncClient, headers: dict[str, str]
                        ) -> tuple[dict[str, Any], dict[str, str]]:
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], LIMITED_MUG, 1)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    requirements = (await client.post("/orders", json=body, headers=headers)).json()
    intent = (await confirm_fiat(client, requirements)).json()["paymentIntentId"]
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    return body, {**headers, "X-PAYMENT": proof}


async def test_fifty_paid_orders_for_ten_units(client: httpx.AsyncClient, app: Any) -> None:
    users = ["user_alice", "user_bob", "user_carol"]
    prepared = []
    for index in range(50):
        headers = {"Authorization": f"Bearer {await token_for(app, users[index % 3])}"}
        prepared.append(await _ready_to_pay(client, headers))
    responses = await asyncio.gather(*(client.post("/orders", json=body, headers=headers)
                                       for body, headers in prepared))
    statuses = sorted(response.status_code for response in responses)
    assert statuses.count(201) == 10, statuses
    assert all(response.json()["code"] in {"insufficient_stock", "order_items_unavailable"}
               for response in responses if response.status_code != 201)
    stock = await app.state.db.fetch_one(
        "SELECT quantity FROM stock WHERE item_id = :i AND variant_id = ''", {"i": LIMITED_MUG})
    assert stock["quantity"] == 0
    orders = await app.state.db.fetch_one("SELECT COUNT(*) AS n FROM orders")
    assert orders["n"] == 10
    spent = await app.state.db.fetch_one(
        "SELECT COUNT(*) AS n FROM payment_intents WHERE status = 'consumed'")
    assert spent["n"] == 10


async def test_one_rollback_never_discards_another_write(app: Any) -> None:
    """Two concurrent transactions: the failing one must not take the other's write with it."""
    db = app.state.db

    async def good() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                             "VALUES ('r1', 'i', 'u', 5, 'now')")
            await asyncio.sleep(0.01)

    async def bad() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO reviews (id, item_id, owner_id, rating, created_at) "
                             "VALUES ('r2', 'i', 'u2', 5, 'now')")
            raise RuntimeError("boom")

    results = await asyncio.gather(good(), bad(), return_exceptions=True)
    assert isinstance(results[1], RuntimeError)
    rows = await db.fetch_all("SELECT id FROM reviews ORDER BY id")
    assert [row["id"] for row in rows] == ["r1"]
