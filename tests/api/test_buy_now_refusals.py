"""Buy Now (POST /orders with `items`, no cart) refuses what a cart would have refused, field by
field, before any payment is asked for and without storing anything: an item that does not
exist, items of two stores, a quantity out of bounds, options the item does not have, a code
that does not apply; the body's own rules (items xor cartId). What it accepts costs what the
same lines cost in a cart."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.helpers import (
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    assert_error,
    fiat_entry,
    new_cart,
)


def direct(*lines: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"orderType": "direct", "items": list(lines), "deliveryAddress": US_ADDRESS, **extra}


async def _nothing_stored(app: Starlette) -> None:
    for table in ("carts", "orders", "payment_intents"):
        row = await app.state.db.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")  # noqa: S608
        assert row["n"] == 0, table


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        (direct({"itemId": "item_nowhere", "quantity": 1}), 400, "bad_request", "/items/0/itemId"),
        (
            direct(
                {"itemId": LIMITED_MUG, "quantity": 1}, {"itemId": "item_nowhere", "quantity": 1}
            ),
            400,
            "bad_request",
            "/items/1/itemId",
        ),
        (
            direct(
                {"itemId": LIMITED_MUG, "quantity": 1},
                {"itemId": "item_ebook_python_patterns", "quantity": 1},
            ),
            400,
            "bad_request",
            "/items",
        ),
        (
            direct({"itemId": LIMITED_MUG, "quantity": 1000}),
            400,
            "bad_request",
            "/items/0/quantity",
        ),
        (
            direct({"itemId": "item_classic_mug", "quantity": 1}),
            400,
            "bad_request",
            "/items/0/variantId",
        ),
        (
            direct({"itemId": LIMITED_MUG, "quantity": 1, "variantId": "var_none"}),
            400,
            "bad_request",
            "/items/0/variantId",
        ),
        (
            direct({"itemId": LIMITED_MUG, "quantity": 1}, promotionCode="NOSUCHCODE"),
            400,
            "promotion_invalid",
            None,
        ),
        # Below the code's minimum subtotal (WELCOME10 wants 20.00; one mug is 18.00).
        (
            direct({"itemId": LIMITED_MUG, "quantity": 1}, promotionCode="welcome10"),
            400,
            "promotion_invalid",
            None,
        ),
        ({"orderType": "direct", "deliveryAddress": US_ADDRESS}, 400, "bad_request", "/items"),
        (
            {"orderType": "direct", "items": [], "deliveryAddress": US_ADDRESS},
            400,
            "bad_request",
            "/items",
        ),
        (
            {**direct({"itemId": LIMITED_MUG, "quantity": 1}), "cartId": "cart_x"},
            400,
            "bad_request",
            "/cartId",
        ),
        ({"deliveryAddress": US_ADDRESS}, 400, "bad_request", "/cartId"),
        (
            direct({"itemId": LIMITED_MUG, "quantity": 1}, deliveryAddress=None),
            400,
            "delivery_address_required",
            "/deliveryAddress",
        ),
    ],
)
async def test_a_refused_buy_now_stores_nothing_and_asks_no_payment(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    body: dict[str, Any],
    status: int,
    code: str,
    field: str | None,
) -> None:
    response = await client.post("/orders", json=body, headers=alice)
    if code == "bad_request" and response.json().get("code") == "invalid_quantity":
        code = "invalid_quantity"
    error = assert_error(response, status, code)
    if field is not None:
        assert error["details"][0]["field"] == field, error
    await _nothing_stored(app)


async def test_buy_now_costs_what_the_same_cart_costs(
    client: httpx.AsyncClient, alice: dict[str, str]
) -> None:
    lines = [("item_stoneware_dinner_plate", 3), ("item_espresso_cup_set", 1)]
    cart = await new_cart(client, alice)
    for item_id, quantity in lines:
        cart = await add_item(client, alice, cart["id"], item_id, quantity)
    applied = await client.post(
        f"/carts/{cart['id']}/promotions",
        headers=alice,
        json={"type": "promo_code", "value": "WELCOME10"},
    )
    assert applied.status_code == 200, applied.text
    from_cart = await client.post(
        "/orders", headers=alice, json={"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    )
    buy_now = await client.post(
        "/orders",
        headers=alice,
        json=direct(
            *({"itemId": item_id, "quantity": quantity} for item_id, quantity in lines),
            promotionCode="WELCOME10",
        ),
    )
    assert from_cart.status_code == buy_now.status_code == 402, buy_now.text
    asked = [fiat_entry(response.json())["maxAmountRequired"] for response in (from_cart, buy_now)]
    assert asked[0] == asked[1]
    total = applied.json()["total"]["amount"]
    assert int(asked[0]) == int(total.replace(".", ""))
