"""Paying orders with the official x402 SDK's client: the 402 challenge, the encoded payment
header, and counting orders."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
from eth_account.signers.local import LocalAccount
from starlette.applications import Starlette
from x402 import x402Client
from x402.mechanisms.evm.exact import register_exact_evm_client

from tests.support.helpers import LIMITED_MUG, US_ADDRESS, add_item, new_cart


def sdk_client(wallet: LocalAccount) -> x402Client:
    """The SDK's client with its EVM `exact` scheme registered (v2 on eip155:*, v1 on the
    legacy names); its default $1 spend cap is raised to cover a mug."""
    client = x402Client()
    register_exact_evm_client(client, wallet)
    client.set_spend_controls({"max_amount_per_payment": "$500"})
    return client



async def mug_order(client: httpx.AsyncClient, headers: dict[str, str], quantity: int = 1
                    ) -> dict[str, Any]:
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], LIMITED_MUG, quantity)
    return {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}



async def payment_required(client: httpx.AsyncClient, headers: dict[str, str],
                           order: dict[str, Any]) -> httpx.Response:
    response = await client.post("/orders", json=order, headers=headers)
    assert response.status_code == 402, response.text
    return response



def encoded(document: dict[str, Any]) -> str:
    return base64.b64encode(json.dumps(document).encode()).decode()



async def order_count(app: Starlette) -> int:
    row = await app.state.db.fetch_one("SELECT COUNT(*) AS n FROM orders")
    return int(row["n"])
