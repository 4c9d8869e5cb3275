"""A promotion's `perUserLimit`: a customer's orders in the store (not cancelled) may use the
code that many times. The promotion service refuses it at the cart and at the order, so every
front end (API, Buy Now, agent tools) gets the same `per_user_limit_reached`."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.errors import CommerceError
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.agent_support import run
from tests.support.helpers import LIMITED_MUG, US_ADDRESS, add_item, new_cart, pay_and_order

pytestmark = pytest.mark.both_backends
CODE = "ONCEONLY"


@pytest.fixture
async def owner(app: Starlette, client: httpx.AsyncClient) -> dict[str, str]:
    headers = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    put = await client.put(f"/admin/stores/{CERAMICS}/promotions/{CODE}", headers=headers,
                           json={"type": "percentage", "value": "10", "perUserLimit": 1})
    assert put.status_code == 201, put.text
    assert put.json()["perUserLimit"] == 1
    return headers


async def _apply(client: httpx.AsyncClient, headers: dict[str, str]) -> httpx.Response:
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], LIMITED_MUG, 1)
    return await client.post(f"/carts/{cart['id']}/promotions", headers=headers,
                             json={"type": "promo_code", "value": CODE})


def _reason(response: httpx.Response) -> str:
    assert response.status_code == 400, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == "promotion_invalid"
    return str(body["details"][0]["reason"])


async def _order_with_code(client: httpx.AsyncClient, headers: dict[str, str]) -> httpx.Response:
    applied = await _apply(client, headers)
    assert applied.status_code == 200, applied.text
    return await pay_and_order(client, headers, {"cartId": applied.json()["id"],
                                                 "deliveryAddress": US_ADDRESS})


async def test_a_code_is_used_once_per_customer_until_the_order_is_cancelled(
        client: httpx.AsyncClient, owner: dict[str, str], alice: dict[str, str],
        bob: dict[str, str]) -> None:
    waiting = await _apply(client, alice)  # applied to a second cart before the first order
    first = await _order_with_code(client, alice)
    assert first.status_code == 201, first.text
    assert _reason(await _apply(client, alice)) == "per_user_limit_reached"
    late = await pay_and_order(client, alice, {"cartId": waiting.json()["id"],
                                               "deliveryAddress": US_ADDRESS})
    assert _reason(late) == "per_user_limit_reached"  # the order checks again
    direct = await client.post("/orders", headers=alice, json={
        "items": [{"itemId": LIMITED_MUG, "quantity": 1}], "promotionCode": CODE,
        "deliveryAddress": US_ADDRESS})
    assert _reason(direct) == "per_user_limit_reached"
    assert (await _order_with_code(client, bob)).status_code == 201  # another customer
    cancelled = await client.post(f"/orders/{first.json()['id']}/cancel", headers=alice)
    assert cancelled.status_code == 200, cancelled.text
    assert (await _apply(client, alice)).status_code == 200


async def test_the_agent_tool_gets_the_same_refusal(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    assert (await _order_with_code(client, alice)).status_code == 201
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    with pytest.raises(CommerceError) as refused:
        await run(app, "apply_promotion", {"cartId": cart["id"], "code": CODE.lower()})
    assert refused.value.details[0]["reason"] == "per_user_limit_reached"


async def test_a_bad_limit_names_its_field(client: httpx.AsyncClient,
                                           owner: dict[str, str]) -> None:
    for bad in (0, -1, "two", 1.5):
        response = await client.put(f"/admin/stores/{CERAMICS}/promotions/BAD", headers=owner,
                                    json={"type": "percentage", "value": "5",
                                          "perUserLimit": bad})
        assert response.status_code == 400, (bad, response.text)
