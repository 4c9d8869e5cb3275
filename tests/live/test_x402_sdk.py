"""POST /orders paid by the official x402 SDK's own client, in both protocol versions.

Version 2 (PAYMENT-REQUIRED / PAYMENT-SIGNATURE / PAYMENT-RESPONSE) through the SDK's
automatic httpx transport, version 1 (the 402 body / X-PAYMENT / X-PAYMENT-RESPONSE) through
the same SDK client, and one signed authorization never paying twice whichever version
carries it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from starlette.applications import Starlette
from x402.http import x402HTTPClient
from x402.http.clients import x402_httpx_transport, x402HttpxClient
from x402.http.utils import decode_payment_required_header, decode_payment_response_header
from x402.schemas import PaymentPayload, PaymentRequired
from x402.schemas.v1 import PaymentRequiredV1

from commerce_agent.commerce.payments import x402 as wire
from tests.support.app import MEDIA
from tests.support.helpers import add_item, assert_error, new_cart
from tests.support.live import LiveServer, user_token
from tests.support.x402 import encoded, mug_order, order_count, payment_required, sdk_client

BASE_SEPOLIA = "eip155:84532"


async def v2_payload(client: httpx.AsyncClient, headers: dict[str, str], order: dict[str, Any],
                     wallet: LocalAccount) -> PaymentPayload:
    """What the SDK signs for this order's PAYMENT-REQUIRED header."""
    required = (await payment_required(client, headers, order)).headers["payment-required"]
    payload = await sdk_client(wallet).create_payment_payload(
        decode_payment_required_header(required))
    assert isinstance(payload, PaymentPayload)
    return payload


def as_v1(payload: PaymentPayload) -> str:
    """The same signed authorization, presented as an x402 version 1 X-PAYMENT proof."""
    return encoded({"x402Version": 1, "scheme": "exact", "network": wire.EXACT_NETWORK,
                    "payload": payload.payload})


def as_v2(payload: PaymentPayload) -> str:
    return encoded(payload.model_dump(by_alias=True, exclude_none=True))


async def test_the_402_offers_v2_in_a_header_beside_the_v1_body(client: httpx.AsyncClient,
                                                                alice: dict[str, str]) -> None:
    order = await mug_order(client, alice, 2)
    response = await payment_required(client, alice, order)
    body = response.json()
    assert body["x402Version"] == 1
    assert {entry["scheme"] for entry in body["accepts"]} == {"fiat_intent", "exact"}
    v1_exact = next(entry for entry in body["accepts"] if entry["scheme"] == "exact")

    required = decode_payment_required_header(response.headers["payment-required"])
    assert isinstance(required, PaymentRequired) and required.x402_version == 2
    [offer] = required.accepts  # the sandbox card provider is no CAIP-2 network
    assert (offer.scheme, offer.network) == ("exact", BASE_SEPOLIA)
    # Two mugs and Standard Shipping (8.50).
    assert offer.amount == v1_exact["maxAmountRequired"] == "44500000"
    assert offer.asset == wire.USDC_ADDRESS and offer.pay_to == v1_exact["payTo"]
    assert offer.max_timeout_seconds == v1_exact["maxTimeoutSeconds"]
    assert (offer.extra["name"], offer.extra["version"]) == ("USDC", "2")
    assert required.resource is not None and required.resource.url == "http://test/orders"


async def test_no_v2_header_when_only_the_card_is_offered(client: httpx.AsyncClient,
                                                          alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice, "store_ebooks")  # EUR: no USDC offer
    await add_item(client, alice, cart["id"], "item_ebook_python_patterns")
    response = await payment_required(client, alice, {"cartId": cart["id"]})
    assert [entry["scheme"] for entry in response.json()["accepts"]] == ["fiat_intent"]
    assert "payment-required" not in response.headers


async def test_sdk_httpx_transport_pays_v2_end_to_end(app: Starlette,
                                                      alice: dict[str, str]) -> None:
    """The SDK's own automatic wrapper: it reads PAYMENT-REQUIRED, signs, retries with
    PAYMENT-SIGNATURE (and the same Idempotency-Key) and gets the order."""
    wallet = Account.create()
    transport = x402_httpx_transport(sdk_client(wallet), httpx.ASGITransport(app=app))
    headers = {**alice, "Accept": MEDIA, "Idempotency-Key": "sdk-v2-order"}
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as paying:
        order = await mug_order(paying, alice)
        placed = await paying.post("/orders", json=order, headers=headers)
    assert placed.status_code == 201, placed.text
    assert "x-payment-response" not in placed.headers
    receipt = decode_payment_response_header(placed.headers["payment-response"])
    assert receipt.success and receipt.network == BASE_SEPOLIA
    # A mug and Standard Shipping (8.50).
    assert receipt.payer == wallet.address and receipt.amount == "26500000"

    plain_transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=plain_transport, base_url="http://test",
                                 headers={"Accept": MEDIA}) as plain:
        stored = (await plain.get(placed.headers["location"], headers=alice)).json()
        replayed = await plain.post("/orders", json=order, headers=headers)
    assert stored["status"] == "confirmed" and stored["payment"]["scheme"] == "exact"
    assert stored["payment"]["payer"] == wallet.address
    assert stored["payment"]["network"] == BASE_SEPOLIA
    assert replayed.status_code == 201 and replayed.json()["id"] == stored["id"]
    assert replayed.headers["payment-response"] == placed.headers["payment-response"]
    assert await order_count(app) == 1


async def test_sdk_httpx_client_pays_a_live_server(live_server: LiveServer) -> None:
    """The SDK's x402HttpxClient, as a stranger would use it, over real HTTP."""
    wallet = Account.create()
    headers = {"Authorization": f"Bearer {user_token(live_server.db_path)}", "Accept": MEDIA}
    async with x402HttpxClient(sdk_client(wallet), base_url=live_server.url, headers=headers,
                               timeout=30) as paying:
        order = await mug_order(paying, {})
        placed = await paying.post("/orders", json=order)
        assert placed.status_code == 201, placed.text
        stored = (await paying.get(placed.headers["location"])).json()
    receipt = decode_payment_response_header(placed.headers["payment-response"])
    assert receipt.success and receipt.payer == wallet.address == stored["payment"]["payer"]
    assert stored["status"] == "confirmed"


async def test_sdk_client_pays_the_v1_body(client: httpx.AsyncClient, app: Starlette,
                                           alice: dict[str, str]) -> None:
    """A v1 client reads the body; the SDK signs it on `base-sepolia` and sends X-PAYMENT."""
    wallet = Account.create()
    order = await mug_order(client, alice)
    body = (await payment_required(client, alice, order)).json()
    sdk = sdk_client(wallet)
    payload = await sdk.create_payment_payload(PaymentRequiredV1.model_validate(body))
    assert payload.x402_version == 1
    proof = x402HTTPClient(sdk).encode_payment_signature_header(payload)
    assert list(proof) == ["X-PAYMENT"]
    placed = await client.post("/orders", json=order, headers={**alice, **proof})
    assert placed.status_code == 201, placed.text
    assert "payment-response" not in placed.headers
    receipt = decode_payment_response_header(placed.headers["x-payment-response"])
    assert receipt.success and receipt.network == wire.EXACT_NETWORK
    assert receipt.payer == wallet.address
    assert placed.json()["payment"]["network"] == wire.EXACT_NETWORK
    assert await order_count(app) == 1


async def test_a_v2_payload_in_x_payment_is_accepted(client: httpx.AsyncClient,
                                                     alice: dict[str, str]) -> None:
    wallet = Account.create()
    order = await mug_order(client, alice)
    payload = await v2_payload(client, alice, order, wallet)
    placed = await client.post("/orders", json=order,
                               headers={**alice, "X-PAYMENT": as_v2(payload)})
    assert placed.status_code == 201, placed.text
    receipt = decode_payment_response_header(placed.headers["payment-response"])
    assert receipt.payer == wallet.address and receipt.network == BASE_SEPOLIA


@pytest.mark.parametrize(("first", "second"), [
    (("PAYMENT-SIGNATURE", as_v2), ("X-PAYMENT", as_v1)),
    (("X-PAYMENT", as_v1), ("PAYMENT-SIGNATURE", as_v2)),
    (("PAYMENT-SIGNATURE", as_v2), ("X-PAYMENT", as_v2)),
], ids=["v2-then-v1", "v1-then-v2", "v2-then-v2-in-x-payment"])
async def test_one_authorization_pays_once_in_either_version(
        client: httpx.AsyncClient, app: Starlette, alice: dict[str, str],
        first: tuple[str, Any], second: tuple[str, Any]) -> None:
    order = await mug_order(client, alice)
    payload = await v2_payload(client, alice, order, Account.create())
    (first_header, first_form), (second_header, second_form) = first, second
    placed = await client.post("/orders", json=order,
                               headers={**alice, first_header: first_form(payload)})
    assert placed.status_code == 201, placed.text
    again = await mug_order(client, alice)
    replay = await client.post("/orders", json=again,
                               headers={**alice, second_header: second_form(payload)})
    assert_error(replay, 400, "payment_failed")
    assert replay.json()["details"][0]["reason"] == "already_used"
    assert await order_count(app) == 1


async def test_one_authorization_sent_twice_at_once_pays_once(client: httpx.AsyncClient,
                                                              app: Starlette,
                                                              alice: dict[str, str]) -> None:
    """The same authorization raced as v1 and v2 on two carts: one order, one refusal."""
    first, second = await mug_order(client, alice), await mug_order(client, alice)
    payload = await v2_payload(client, alice, first, Account.create())
    answers = await asyncio.gather(
        client.post("/orders", json=first, headers={**alice, "PAYMENT-SIGNATURE": as_v2(payload)}),
        client.post("/orders", json=second, headers={**alice, "X-PAYMENT": as_v1(payload)}))
    assert sorted(answer.status_code for answer in answers) == [201, 400]
    refused = next(answer for answer in answers if answer.status_code == 400)
    assert refused.json()["details"][0]["reason"] == "already_used"
    assert await order_count(app) == 1
