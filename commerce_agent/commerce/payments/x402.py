"""x402 v1 on the wire: the 402 body, the X-PAYMENT proof and the X-PAYMENT-RESPONSE receipt.

Both schemes share this module; what each checks is in `sandbox` (fiat_intent) and `exact`.
Version 2 (headers, CAIP-2 networks) is derived from this in `x402_v2`; `proofs` reads either.
"""

from __future__ import annotations

import base64
import binascii
from decimal import Decimal
from typing import Any

import msgspec

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.payments import chain, providers
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError

X402_VERSION = 1
FIAT_SCHEME, FIAT_NETWORK = "fiat_intent", "sandbox"
EXACT_SCHEME = "exact"
# The default `exact` asset (--x402-network base-sepolia): USDC on Base Sepolia. Code paths
# read the configured one from `chain.active()`; these names are the default's, for tests.
EXACT_NETWORK, BASE_SEPOLIA_CHAIN_ID, USDC_ADDRESS = chain.KNOWN[chain.DEFAULT_NETWORK][:3]
USDC_DECIMALS = chain.USDC_DECIMALS
FIAT_PAY_TO = "acct_sandbox_merchant"
MAX_TIMEOUT_SECONDS = 900
MAX_HEADER_BYTES = 8 * 1024


class PaymentProof(msgspec.Struct, forbid_unknown_fields=True):
    """The decoded X-PAYMENT header: `{x402Version, scheme, network, payload}`. A version 2
    proof is read into the same shape (its network in CAIP-2), so both verify alike."""

    x402Version: int
    scheme: str
    network: str
    payload: dict[str, Any]


_proof = msgspec.json.Decoder(PaymentProof)


def refused(message: str, reason: str, field: str = "X-PAYMENT") -> CommerceError:
    return CommerceError(400, "payment_failed", message,
                         details=[{"type": "validation", "field": field, "reason": reason}])


def unsupported(scheme: str, network: str, offered: str, field: str,
                hint: str = "") -> CommerceError:
    return CommerceError(
        400, "payment_method_unsupported",
        f"The {scheme!r} scheme on {network!r} is not accepted here; offered: {offered}.{hint}",
        details=[{"type": "validation", "field": field, "reason": "unsupported",
                  "value": f"{scheme}/{network}"}])


def decode_base64(header: str, field: str) -> bytes:
    """Standard base64, size-limited; anything else is refused before a transaction starts."""
    if len(header) > MAX_HEADER_BYTES:
        raise refused(f"The {field} header is too large.", "too_large", field)
    try:
        return base64.b64decode(header.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise refused(f"{field} must be standard base64 of a JSON payment payload.",
                      "malformed", field) from None


def decode_v1(raw: bytes, field: str = "X-PAYMENT") -> PaymentProof:
    """A version 1 payment payload `{x402Version: 1, scheme, network, payload}`."""
    try:
        proof = _proof.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        raise refused(f"{field} must be base64 of a JSON payment payload "
                      "{x402Version, scheme, network, payload}.", "malformed", field) from None
    networks = {FIAT_SCHEME: providers.active().name, EXACT_SCHEME: chain.active().network}
    if networks.get(proof.scheme) != proof.network:
        offered = ", ".join(f"{scheme} on {network}" for scheme, network in networks.items())
        raise unsupported(proof.scheme, proof.network, offered, field)
    return proof


def usdc_units(amount: Decimal) -> int:
    """A USD amount in base units of the `exact` asset (USDC: 6 decimals)."""
    return int(money.quantize(amount, "USD").scaleb(chain.active().decimals))


def _entry(scheme: str, network: str, amount: str, asset: str, pay_to: str, resource: str,
           description: str, extra: dict[str, Any]) -> dict[str, Any]:
    return {"scheme": scheme, "network": network, "maxAmountRequired": amount, "asset": asset,
            "payTo": pay_to, "resource": resource, "description": description,
            "mimeType": "application/commerce+json", "maxTimeoutSeconds": MAX_TIMEOUT_SECONDS,
            "extra": extra}


def payment_requirements(*, amount: Decimal, currency: str, resource: str, description: str,
                         fiat: dict[str, Any], exact: dict[str, Any] | None) -> dict[str, Any]:
    """The 402 body: the card intent, and USDC `exact` when offered (`exact["settled"]`: a
    facilitator settles it on chain; otherwise the signature is only checked here)."""
    provider = providers.active()
    if "paymentUrl" in fiat:  # a real provider: the shopper pays on its card form
        fiat_extra = {
            **fiat, "displayName": f"Card ({provider.name})", "provider": provider.name,
            "publishableKey": getattr(provider, "publishable_key", ""),
            "inputAction": {"type": "link", "href": fiat["paymentUrl"], "method": "GET"}}
        pay_to = f"acct_{provider.name}_merchant"
    else:
        fiat_extra = {
            **fiat, "displayName": "Card (commerce-agent sandbox)", "provider": "sandbox",
            "publishableKey": "pk_test_commerce_agent",
            "inputAction": {"type": "card", "href": fiat["confirmUrl"], "method": "POST",
                            "fields": ["clientSecret", "card"]}}
        pay_to = FIAT_PAY_TO
    accepts = [_entry(FIAT_SCHEME, provider.name, str(money.to_minor(amount, currency)),
                      currency, pay_to, resource, description, fiat_extra)]
    if exact is not None:
        asset = chain.active()
        how = ("settled on chain" if exact.get("settled")
               else "signature checked locally, not settled")
        accepts.append(_entry(
            EXACT_SCHEME, asset.network, str(usdc_units(amount)), asset.address,
            exact["payTo"], resource, description,
            {"name": asset.name, "version": asset.version, "chainId": asset.chain_id,
             "displayName": f"{asset.label} ({how})"}))
    return {"x402Version": X402_VERSION, "error": "Payment is required to place this order.",
            "accepts": accepts}


def encode_payment_response(success: bool, transaction: str, network: str, payer: str,
                            settled: bool = True) -> str:
    """The X-PAYMENT-RESPONSE header: base64 JSON settlement receipt. `settled` is false when
    nothing settled on chain (`exact` checked locally: `transaction` is then no chain's)."""
    receipt = {"success": success, "transaction": transaction, "network": network,
               "payer": payer, "settled": settled}
    return base64.b64encode(msgspec.json.encode(receipt)).decode()


async def spend_proof(tx: Transaction, *, scheme: str, proof: str, order_id: str) -> None:
    """Mark a proof spent in the order's transaction: a proof never pays twice (the write is
    refused when its row was there already; on PostgreSQL the statement travels with the
    order's next one)."""
    def spent(inserted: int) -> None:
        if inserted != 1:
            raise CommerceError(400, "payment_failed",
                                "This payment proof has already been used.",
                                details=[{"type": "business_logic", "reason": "already_used"}])

    await storage.spend(tx, scheme, proof, order_id, clock.now_iso(), spent)
