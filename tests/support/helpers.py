"""Purchase helpers shared by tests: carts, the 402 → sandbox payment → 201 dance."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx

US_ADDRESS = {"address": "1 Main St, Springfield, US", "countryCode": "US"}
GOOD_CARD = "4242424242424242"
DECLINED_CARD = "4000000000000002"
CERAMICS = "store_ceramics"
LIMITED_MUG = "item_limited_glaze_mug"


def payment_header(scheme: str, network: str, payload: dict[str, Any]) -> str:
    proof = {"x402Version": 1, "scheme": scheme, "network": network, "payload": payload}
    return base64.b64encode(json.dumps(proof).encode()).decode()


def fiat_entry(requirements: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = next(a for a in requirements["accepts"]
                                 if a["scheme"] == "fiat_intent")
    return entry


async def new_cart(client: httpx.AsyncClient, headers: dict[str, str],
                   store_id: str = CERAMICS) -> dict[str, Any]:
    response = await client.post("/carts", json={"storeId": store_id}, headers=headers)
    assert response.status_code == 201, response.text
    cart: dict[str, Any] = response.json()
    return cart


async def add_item(client: httpx.AsyncClient, headers: dict[str, str], cart_id: str,
                   item_id: str, quantity: int = 1, **extra: Any) -> dict[str, Any]:
    response = await client.post(f"/carts/{cart_id}/items",
                                 json={"itemId": item_id, "quantity": quantity, **extra},
                                 headers=headers)
    assert response.status_code == 200, response.text
    cart: dict[str, Any] = response.json()
    return cart


async def confirm_fiat(client: httpx.AsyncClient, requirements: dict[str, Any],
                       card: str = GOOD_CARD) -> httpx.Response:
    entry = fiat_entry(requirements)
    return await client.post(entry["extra"]["confirmUrl"],
                             json={"clientSecret": entry["extra"]["clientSecret"], "card": card})


async def pay_and_order(client: httpx.AsyncClient, headers: dict[str, str],
                        body: dict[str, Any], *, idempotency_key: str | None = None
                        ) -> httpx.Response:
    """POST /orders, pay the 402 with the sandbox card, and POST again with X-PAYMENT."""
    extra = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
    first = await client.post("/orders", json=body, headers={**headers, **extra})
    if first.status_code != 402:
        return first
    confirmed = await confirm_fiat(client, first.json())
    assert confirmed.status_code == 200, confirmed.text
    proof = payment_header("fiat_intent", "sandbox",
                           {"paymentIntentId": confirmed.json()["paymentIntentId"]})
    return await client.post("/orders", json=body,
                             headers={**headers, **extra, "X-PAYMENT": proof})


async def buy(client: httpx.AsyncClient, headers: dict[str, str], item_id: str = LIMITED_MUG,
              quantity: int = 1, store_id: str = CERAMICS,
              address: dict[str, Any] | None = None) -> dict[str, Any]:
    """A whole purchase; returns the created order."""
    cart = await new_cart(client, headers, store_id)
    await add_item(client, headers, cart["id"], item_id, quantity)
    response = await pay_and_order(client, headers, {"cartId": cart["id"],
                                                      "deliveryAddress": address or US_ADDRESS})
    assert response.status_code == 201, response.text
    order: dict[str, Any] = response.json()
    return order


SHAPE = {"code", "message", "details", "userMessage", "nextActions", "type", "title", "status",
         "detail", "instance", "timestamp"}



def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/commerce+json")
    body: dict[str, Any] = response.json()
    assert SHAPE <= body.keys()
    assert body["code"] == code
    assert body["status"] == status
    assert body["userMessage"]["localizationKey"] == f"error.{code}"
    return body
