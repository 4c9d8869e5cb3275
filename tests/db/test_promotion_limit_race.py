"""A promotion's `perUserLimit` holds under concurrent orders (both backends): a customer who
sends several paid orders with a once-only code at the same moment gets one order. On
PostgreSQL the writes run at once, each on its own connection, and the count of the
customer's uses is made under a lock of (customer, store, code) (storage/orders.py,
`promotion_uses`), so the second counts after the first committed."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.helpers import (
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    confirm_fiat,
    new_cart,
    payment_header,
)

pytestmark = pytest.mark.both_backends
CODE = "ONCEONLY"
ORDERS = 6


async def _paid_order_with_code(client: httpx.AsyncClient, headers: dict[str, str]
                                ) -> tuple[dict[str, Any], dict[str, str]]:
    """(body, headers with X-PAYMENT) of a mug order whose cart carries the code."""
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], LIMITED_MUG, 1)
    applied = await client.post(f"/carts/{cart['id']}/promotions", headers=headers,
                                json={"type": "promo_code", "value": CODE})
    assert applied.status_code == 200, applied.text
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    required = await client.post("/orders", json=body, headers=headers)
    assert required.status_code == 402, required.text
    intent = (await confirm_fiat(client, required.json())).json()["paymentIntentId"]
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    return body, {**headers, "X-PAYMENT": proof}


async def test_concurrent_orders_with_a_once_only_code_place_one(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        bob: dict[str, str]) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    put = await client.put(f"/admin/stores/{CERAMICS}/promotions/{CODE}", headers=owner,
                           json={"type": "percentage", "value": "10", "perUserLimit": 1})
    assert put.status_code == 201, put.text
    # Every cart takes the code (nothing is used yet), then the orders go at once.
    prepared = [await _paid_order_with_code(client, alice) for _ in range(ORDERS)]
    prepared.append(await _paid_order_with_code(client, bob))
    responses = await asyncio.gather(*(client.post("/orders", json=body, headers=headers)
                                       for body, headers in prepared))
    alices, bobs = responses[:ORDERS], responses[ORDERS:]
    assert Counter(response.status_code for response in alices) == {201: 1, 400: ORDERS - 1}
    assert {response.json()["details"][0]["reason"] for response in alices
            if response.status_code == 400} == {"per_user_limit_reached"}
    assert bobs[0].status_code == 201, bobs[0].text  # another customer does not count
    listed = await client.get("/orders", headers=alice)
    assert len(listed.json()["orders"]) == 1, listed.text
