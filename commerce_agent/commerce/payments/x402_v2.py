"""x402 version 2 on the wire: the PAYMENT-REQUIRED header, the PAYMENT-SIGNATURE proof and the
PAYMENT-RESPONSE receipt.

Version 2 moves the 402 into a header, names networks in CAIP-2 (`eip155:84532` for what v1
calls `base-sepolia`) and says `amount` where v1 said `maxAmountRequired`. The header is
derived from the v1 body's EVM entries, so both versions offer the same amounts, and a v2
proof is read into the v1 `PaymentProof` shape, so both are verified by the same code.

Only `exact` is offered in v2: v2 networks must be CAIP-2 chain ids and the sandbox card
provider (`fiat_intent`) is no chain, so it stays in the v1 body.
"""

from __future__ import annotations

import base64
from typing import Any

import msgspec

from commerce_agent.commerce.payments import chain, x402
from commerce_agent.errors import CommerceError

X402_VERSION = 2
HEADER = "PAYMENT-SIGNATURE"


def caip2() -> dict[str, str]:
    """v1 network names → CAIP-2 ids; only the network offered in the v1 body is listed."""
    asset = chain.active()
    return {asset.network: asset.caip2}


def networks() -> dict[str, str]:
    return {x402.EXACT_SCHEME: chain.active().caip2}


class Requirement(msgspec.Struct):
    """`accepted`: the entry of PAYMENT-REQUIRED the client chose, echoed back."""

    scheme: str
    network: str
    asset: str
    amount: str
    payTo: str
    maxTimeoutSeconds: int
    extra: dict[str, Any] = {}


class PaymentPayload(msgspec.Struct):
    """The decoded PAYMENT-SIGNATURE header. Unknown fields are let through: v2 grows by
    extensions, which this server neither needs nor refuses."""

    x402Version: int
    payload: dict[str, Any]
    accepted: Requirement
    resource: dict[str, Any] | None = None
    extensions: dict[str, Any] | None = None


_payload = msgspec.json.Decoder(PaymentPayload)


def _offered() -> str:
    return ", ".join(f"{scheme} on {network}" for scheme, network in networks().items())


def payment_required(body: dict[str, Any]) -> dict[str, Any] | None:
    """The v2 form of a v1 402 body; None when none of its entries exists in v2."""
    names = caip2()
    accepts = [{"scheme": entry["scheme"], "network": names[entry["network"]],
                "amount": entry["maxAmountRequired"], "asset": entry["asset"],
                "payTo": entry["payTo"], "maxTimeoutSeconds": entry["maxTimeoutSeconds"],
                "extra": {key: entry["extra"][key] for key in ("name", "version", "displayName")
                          if key in entry["extra"]}}
               for entry in body["accepts"] if entry["network"] in names]
    if not accepts:
        return None
    first = body["accepts"][0]
    return {"x402Version": X402_VERSION, "error": body["error"],
            "resource": {"url": first["resource"], "description": first["description"],
                         "mimeType": first["mimeType"]},
            "accepts": accepts}


def encode(document: dict[str, Any]) -> str:
    """Standard base64 of compact JSON, as every x402 header is."""
    return base64.b64encode(msgspec.json.encode(document)).decode()


def decode(raw: bytes, field: str = HEADER) -> x402.PaymentProof:
    """A version 2 payment payload `{x402Version: 2, accepted, payload, resource?}`."""
    try:
        proof = _payload.decode(raw)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise x402.refused(f"{field} must be base64 of a JSON x402 version 2 payment payload "
                           f"{{x402Version, accepted, payload, resource}}: {exc}.",
                           "malformed", field) from None
    accepted = proof.accepted
    names, asset = caip2(), chain.active()
    if networks().get(accepted.scheme) != accepted.network:
        hint = ""
        if accepted.scheme == x402.FIAT_SCHEME:
            hint = (f" The sandbox card scheme is x402 version 1 only: send "
                    f"{{x402Version: 1, scheme: {x402.FIAT_SCHEME!r}, network: "
                    f"{x402.FIAT_NETWORK!r}, payload}} in X-PAYMENT.")
        elif accepted.network in names:
            hint = f" In x402 version 2 {accepted.network!r} is {names[accepted.network]!r}."
        raise x402.unsupported(accepted.scheme, accepted.network, _offered(), field, hint)
    if accepted.asset.lower() != asset.address.lower():
        raise CommerceError(
            400, "payment_method_unsupported",
            f"Only {asset.name} ({asset.address}) is accepted on {accepted.network}, "
            f"not {accepted.asset!r}.",
            details=[{"type": "validation", "field": field, "reason": "unsupported_asset",
                      "value": accepted.asset}])
    return x402.PaymentProof(x402Version=X402_VERSION, scheme=accepted.scheme,
                             network=accepted.network, payload=proof.payload)


def encode_payment_response(transaction: str, network: str, payer: str, amount: int,
                            settled: bool = True) -> str:
    """The PAYMENT-RESPONSE header: base64 JSON of the settlement result (`settled` false:
    checked locally, nothing settled on chain)."""
    return encode({"success": True, "transaction": transaction, "network": network,
                   "payer": payer, "amount": str(amount), "settled": settled})
