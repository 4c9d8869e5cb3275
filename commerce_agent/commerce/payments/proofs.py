"""Which x402 version a request pays with, and the receipt headers that answer it.

A proof arrives in X-PAYMENT (version 1) or PAYMENT-SIGNATURE (version 2). Either header is
read by the version its JSON states, so a version 2 payload in X-PAYMENT (as some clients
send) is accepted, and so is a version 1 payload in PAYMENT-SIGNATURE. The receipt follows the
version: X-PAYMENT-RESPONSE for 1, PAYMENT-RESPONSE for 2.
"""

from __future__ import annotations

import msgspec

from commerce_agent.commerce.payments import x402, x402_v2
from commerce_agent.json_input import MalformedJson, check


class _Version(msgspec.Struct):
    x402Version: int


_version = msgspec.json.Decoder(_Version)


def read_proof(x_payment: str | None, payment_signature: str | None
               ) -> x402.PaymentProof | None:
    """The proof a request carries, decoded and checked against what is offered; None when
    it carries none."""
    if x_payment is not None and payment_signature is not None:
        raise x402.refused("Send the payment proof in one header: PAYMENT-SIGNATURE "
                           "(x402 version 2) or X-PAYMENT (version 1), not both.",
                           "conflicting_headers", x402_v2.HEADER)
    field, header = (("X-PAYMENT", x_payment) if x_payment is not None
                     else (x402_v2.HEADER, payment_signature))
    if header is None:
        return None
    raw = x402.decode_base64(header, field)
    try:
        check(raw)
        version = _version.decode(raw).x402Version
    except (MalformedJson, msgspec.DecodeError, RecursionError):
        raise x402.refused(f"{field} must be base64 of a JSON x402 payment payload with an "
                           "integer x402Version.", "malformed", field) from None
    if version == x402.X402_VERSION:
        return x402.decode_v1(raw, field)
    if version == x402_v2.X402_VERSION:
        return x402_v2.decode(raw, field)
    raise x402.refused(f"x402Version {version} is not supported: version 1 (X-PAYMENT) and "
                       f"version 2 (PAYMENT-SIGNATURE) are.", "unsupported_version", field)


def receipt_headers(proof: x402.PaymentProof, *, transaction: str, payer: str,
                    amount: int, settled: bool = True) -> dict[str, str]:
    """The settlement receipt in the header of the proof's version (`amount` in the units of
    the proof's asset, reported by version 2 only; `settled` false when nothing settled)."""
    if proof.x402Version == x402_v2.X402_VERSION:
        return {"PAYMENT-RESPONSE": x402_v2.encode_payment_response(
            transaction, proof.network, payer, amount, settled)}
    return {"X-PAYMENT-RESPONSE": x402.encode_payment_response(
        True, transaction, proof.network, payer, settled)}
