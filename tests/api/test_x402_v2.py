"""x402 version 2 proofs refused: one test per failure mode, each with the v1 error codes and
nothing created. Payloads are made by the official SDK, then spoiled where the case needs."""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from eth_account import Account
from starlette.applications import Starlette
from x402.http.utils import decode_payment_required_header

from tests.support.helpers import assert_error
from tests.support.x402 import encoded, mug_order, order_count, payment_required, sdk_client

pytestmark = pytest.mark.both_backends

Spoil = Callable[[dict[str, Any]], None]


async def sdk_signed(client: httpx.AsyncClient, headers: dict[str, str], order: dict[str, Any],
                     **requirement: Any) -> dict[str, Any]:
    """The SDK's v2 payload for this order, signed for the offer with `requirement` changed."""
    response = await payment_required(client, headers, order)
    required = decode_payment_required_header(response.headers["payment-required"])
    for name, value in requirement.items():
        setattr(required.accepts[0], name, value)
    payload = await sdk_client(Account.create()).create_payment_payload(required)
    return payload.model_dump(by_alias=True, exclude_none=True)


def _set(path: str, value: Any) -> Spoil:
    def spoil(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for name in parents:
            document = document[name]
        document[last] = value
    return spoil


def _drop(name: str) -> Spoil:
    return lambda document: document.pop(name) and None


def _forge_signature(document: dict[str, Any]) -> None:
    signature = document["payload"]["signature"]
    document["payload"]["signature"] = signature[:10] + ("0" if signature[10] != "0" else "1") \
        + signature[11:]


async def _refused(client: httpx.AsyncClient, app: Starlette, headers: dict[str, str],
                   order: dict[str, Any], proof: dict[str, str], code: str,
                   reason: str) -> dict[str, Any]:
    response = await client.post("/orders", json=order, headers={**headers, **proof})
    body = assert_error(response, 400, code)
    assert body["details"][0]["reason"] == reason, body
    assert await order_count(app) == 0
    return body


@pytest.mark.parametrize(("spoil", "code", "reason", "says"), [
    (_set("x402Version", 3), "payment_failed", "unsupported_version", "version 2"),
    (_drop("accepted"), "payment_failed", "malformed", "accepted"),
    (_set("payload", "0xdeadbeef"), "payment_failed", "malformed", "payload"),
    (_set("accepted.network", "eip155:8453"), "payment_method_unsupported", "unsupported",
     "eip155:84532"),
    (_set("accepted.network", "base-sepolia"), "payment_method_unsupported", "unsupported",
     "In x402 version 2 'base-sepolia' is 'eip155:84532'"),
    (_set("accepted.scheme", "fiat_intent"), "payment_method_unsupported", "unsupported",
     "X-PAYMENT"),
    (_set("accepted.asset", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
     "payment_method_unsupported", "unsupported_asset", "USDC"),
    (_forge_signature, "payment_failed", "bad_signature", "signature"),
    (_set("payload.authorization.value", "999999999"), "payment_failed", "bad_signature",
     "signature"),
    (_set("payload.authorization.nonce", "0x1234"), "payment_failed", "malformed", "nonce"),
], ids=["version-3", "no-accepted", "payload-not-an-object", "other-chain", "v1-network-name",
        "fiat-in-v2", "other-asset", "forged-signature", "value-raised-after-signing",
        "short-nonce"])
async def test_spoiled_v2_payloads(client: httpx.AsyncClient, app: Starlette,
                                   alice: dict[str, str], spoil: Spoil, code: str, reason: str,
                                   says: str) -> None:
    order = await mug_order(client, alice)
    document = await sdk_signed(client, alice, order)
    spoiled = copy.deepcopy(document)
    spoil(spoiled)
    body = await _refused(client, app, alice, order, {"PAYMENT-SIGNATURE": encoded(spoiled)},
                          code, reason)
    assert says in body["message"]


@pytest.mark.parametrize(("requirement", "reason"), [
    ({"amount": "1"}, "insufficient_value"),
    ({"max_timeout_seconds": -60}, "expired"),
    ({"pay_to": "0x000000000000000000000000000000000000dEaD"}, "wrong_recipient"),
], ids=["underpaid", "expired", "someone-else-paid"])
async def test_authorizations_that_do_not_pay_this_order(
        client: httpx.AsyncClient, app: Starlette, alice: dict[str, str],
        requirement: dict[str, Any], reason: str) -> None:
    order = await mug_order(client, alice)
    document = await sdk_signed(client, alice, order, **requirement)
    await _refused(client, app, alice, order, {"PAYMENT-SIGNATURE": encoded(document)},
                   "payment_failed", reason)


UNREADABLE = {
    "not base64": ("%%%", "malformed"),
    "not JSON": (base64.b64encode(b"not json").decode(), "malformed"),
    "version not an integer": (base64.b64encode(b'{"x402Version": "2"}').decode(), "malformed"),
    "not an object": (base64.b64encode(b"[2]").decode(), "malformed"),
    "too large": ("A" * 9000, "too_large"),
    "nested too deep": (base64.b64encode(b'{"x402Version": 2, "payload": ' + b"[" * 2000
                                         + b"]" * 2000 + b"}").decode(), "malformed"),
}


async def test_unreadable_proof_headers(client: httpx.AsyncClient, app: Starlette,
                                            alice: dict[str, str]) -> None:
    order = await mug_order(client, alice)
    for case, (header, reason) in UNREADABLE.items():
        for field in ("PAYMENT-SIGNATURE", "X-PAYMENT"):
            body = await _refused(client, app, alice, order, {field: header},
                                  "payment_failed", reason)
            assert body["details"][0]["field"] == field, case


async def test_both_proof_headers_at_once(client: httpx.AsyncClient, app: Starlette,
                                          alice: dict[str, str]) -> None:
    order = await mug_order(client, alice)
    proof = encoded(await sdk_signed(client, alice, order))
    body = await _refused(client, app, alice, order,
                          {"PAYMENT-SIGNATURE": proof, "X-PAYMENT": proof},
                          "payment_failed", "conflicting_headers")
    assert "not both" in body["message"]


async def test_v1_payload_in_payment_signature_pays_with_a_v1_receipt(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    """Either header is read by the version its JSON states."""
    order = await mug_order(client, alice)
    document = await sdk_signed(client, alice, order)
    v1 = encoded({"x402Version": 1, "scheme": "exact", "network": "base-sepolia",
                  "payload": document["payload"]})
    placed = await client.post("/orders", json=order, headers={**alice, "PAYMENT-SIGNATURE": v1})
    assert placed.status_code == 201, placed.text
    assert "x-payment-response" in placed.headers and "payment-response" not in placed.headers
