"""Settling x402 `exact` payments on chain through a facilitator (`--x402-facilitator`).

The facilitator is spoken to with the official x402 SDK's HTTP client, always in x402
version 2 (CAIP-2 network), whichever version the shopper's proof came in. For one proof:

1. the local check (`exact.verify_exact`) has run, before any of this, all but the validity
   window, which is checked after 3;
2. a proof already spent on an order is passed on untouched: the order's transaction refuses
   it (`already_used`), or an Idempotency-Key replays the order it paid;
3. an authorization recorded as settled is not settled again: its transaction is reused (an
   order whose own transaction failed after the settlement is placed by the retry);
4. the facilitator verifies (its chain reads: balance, nonce unused, a simulated transfer),
   unless an earlier settle of this authorization was interrupted (then 6 is asked again);
5. the (payer, nonce) is claimed `settling` in a short transaction of its own;
6. the facilitator settles; the answer is recorded (`settled` with the hash) in another;
7. the order's transaction spends the proof and records the hash on the order.

No facilitator call runs inside a database transaction (docs/decisions.md, "x402
settlement"). An authorization can move money once at most whatever happens here: the token
contract marks its nonce used on chain, so a retried settle cannot charge twice.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.payments import chain, exact, x402
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.db import Database
from commerce_agent.errors import CommerceError

TIMEOUT_SECONDS = 30.0  # one verify or settle call; a settle waits for the receipt
RETRY_AFTER_SECONDS = 5
_log = logging.getLogger(__name__)

# The SDK's invalid/error reasons (x402.mechanisms.evm.constants) → ours (docs/payments.md).
_REASONS = {
    "invalid_exact_evm_nonce_already_used": "already_used",
    "invalid_exact_evm_insufficient_balance": "insufficient_funds",
    "insufficient_funds": "insufficient_funds",
    "invalid_exact_evm_payload_authorization_valid_before": "expired",
    "invalid_exact_evm_payload_authorization_valid_after": "expired",
    "invalid_exact_evm_signature": "bad_signature",
    "invalid_exact_evm_payload_signature": "bad_signature",
    "invalid_exact_evm_recipient_mismatch": "wrong_recipient",
}
_NONCE_USED = {"invalid_exact_evm_nonce_already_used", "transaction_failed"}
PENDING = "settlement_pending"


class SettlementUnavailable(RuntimeError):
    """`--x402-facilitator` without the x402 extra: the server does not start."""


class Facilitator:
    """The SDK's async HTTP facilitator client, for one facilitator URL."""

    def __init__(self, url: str, *, timeout: float = TIMEOUT_SECONDS) -> None:
        try:
            from x402.http.facilitator_client import FacilitatorConfig, HTTPFacilitatorClient
        except ImportError:
            raise SettlementUnavailable(
                f"--x402-facilitator needs the x402 extra: {exact.EXTRA_HINT}.") from None
        self.url = url.rstrip("/")
        self._client = HTTPFacilitatorClient(FacilitatorConfig(url=self.url, timeout=timeout))

    async def verify(self, payload: dict[str, Any], requirements: dict[str, Any]) -> Any:
        from x402.schemas import PaymentPayload, PaymentRequirements

        return await self._client.verify(PaymentPayload.model_validate(payload),
                                         PaymentRequirements.model_validate(requirements))

    async def settle(self, payload: dict[str, Any], requirements: dict[str, Any]) -> Any:
        from x402.schemas import PaymentPayload, PaymentRequirements

        return await self._client.settle(PaymentPayload.model_validate(payload),
                                         PaymentRequirements.model_validate(requirements))

    async def close(self) -> None:
        await self._client.aclose()


def build(url: str) -> Facilitator | None:
    """The facilitator `--x402-facilitator` names (None: unset); SettlementUnavailable says
    what is missing."""
    if not url:
        return None
    if not url.startswith(("http://", "https://")):
        raise SettlementUnavailable(f"--x402-facilitator must be an http(s) URL, not {url!r}.")
    if not exact.exact_available():
        raise SettlementUnavailable(
            f"--x402-facilitator needs the x402 extra: {exact.EXTRA_HINT}.")
    return Facilitator(url)


_active: list[Facilitator | None] = [None]


def install(facilitator: Facilitator | None) -> None:
    _active[0] = facilitator


def active() -> Facilitator | None:
    return _active[0]


def unavailable(message: str = "The x402 facilitator cannot be reached right now; nothing "
                "was charged twice and no order was lost. Send the same payment again "
                "shortly.") -> CommerceError:
    return CommerceError(503, "payment_provider_unavailable", message,
                         headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def _refused(reason: str | None, message: str | None, stage: str) -> CommerceError:
    ours = _REASONS.get(reason or "", "facilitator_refused")
    text = {"already_used": "This authorization has already been used on chain.",
            "insufficient_funds": "The payer's balance does not cover the authorization.",
            "expired": "The authorization is outside its validity window.",
            "bad_signature": "The facilitator did not accept the signature.",
            "wrong_recipient": "The authorization pays someone else than this store."}.get(
                ours, f"The facilitator refused to {stage} the payment ({reason}).")
    detail: dict[str, Any] = {"type": "business_logic", "reason": ours}
    if reason:
        detail["value"] = reason
    if message:
        _log.info("x402 facilitator refused to %s: %s (%s)", stage, reason, message[:300])
    return CommerceError(400, "payment_failed", text, details=[detail])


def _unknown(payer: str, nonce: str) -> CommerceError:
    return CommerceError(
        400, "payment_failed",
        "An earlier attempt to settle this authorization ended without an answer, and the "
        "chain now reports it used. The store has it on record and checks it on chain; "
        "sign a new authorization only if the store asks you to.",
        details=[{"type": "business_logic", "reason": "settlement_unknown",
                  "value": f"{payer}:{nonce}"}])


def documents(proof: x402.PaymentProof, transfer: exact.VerifiedTransfer, pay_to: str,
              resource: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The version 2 payment payload and requirements the facilitator verifies and settles.
    The amount is the authorization's own (`exact` settles exactly what was signed; this
    server has already checked it covers the order)."""
    asset = chain.active()
    requirements = {"scheme": x402.EXACT_SCHEME, "network": asset.caip2,
                    "asset": asset.address, "amount": str(transfer.value), "payTo": pay_to,
                    "maxTimeoutSeconds": x402.MAX_TIMEOUT_SECONDS,
                    "extra": {"name": asset.name, "version": asset.version}}
    payload = {"x402Version": 2, "accepted": requirements, "payload": proof.payload,
               "resource": {"url": resource}}
    return payload, requirements


async def _call(stage: str, call: Any) -> Any:
    """One facilitator call; any failure to get an answer is an outage (503)."""
    try:
        return await call
    except Exception as exc:  # httpx errors, non-200 answers (ValueError), bad JSON
        _log.warning("x402 facilitator %s failed: %s", stage, str(exc)[:300])
        raise unavailable() from None


async def paid_an_order(db: Database, transfer: exact.VerifiedTransfer) -> bool:
    """Whether this authorization already paid an order: the order's transaction refuses it
    again, or an Idempotency-Key replays that order."""
    return await storage.order_paid_by(db, x402.EXACT_SCHEME,
                                       f"{transfer.payer}:{transfer.nonce}") is not None


async def settle(db: Database, proof: x402.PaymentProof, transfer: exact.VerifiedTransfer,
                 *, pay_to: str, resource: str) -> exact.VerifiedTransfer:
    """Settle a locally checked `exact` proof through the installed facilitator; the transfer
    comes back with the chain's transaction hash (`settled`). 400 when refused, 503 when the
    facilitator cannot be reached (the request wrote nothing the retry cannot finish)."""
    facilitator = active()
    if facilitator is None:
        return transfer
    if await paid_an_order(db, transfer):
        return transfer
    payer, nonce = transfer.payer.lower(), transfer.nonce
    row = await storage.settlement(db, payer, nonce)
    if row is not None and row["status"] == "settled":
        return dataclasses.replace(transfer, transaction=str(row["transaction_hash"]),
                                   settled=True)
    if row is not None and row["status"] == "unknown":
        raise _unknown(payer, nonce)
    # Only now the validity window: an authorization settled earlier places its order even
    # after it expired (the money moved while it was valid).
    transfer.check_window(int(clock.now().timestamp()))
    was_interrupted = row is not None and row["status"] in ("settling", "interrupted")
    payload, requirements = documents(proof, transfer, pay_to, resource)
    if not was_interrupted:  # an interrupted settle is asked again: the facilitator may
        # hold its broadcast transaction (settlement_pending) and answer with its receipt
        verified = await _call("verify", facilitator.verify(payload, requirements))
        if not verified.is_valid:
            raise _refused(verified.invalid_reason, verified.invalid_message, "verify")
    asset = chain.active()
    async with db.transaction() as tx:
        claimed = await storage.claim_settlement(tx, {
            "payer": payer, "nonce": nonce, "network": asset.caip2, "asset": asset.address,
            "amount": str(transfer.value), "at": clock.now_iso()},
            stale_before=clock.later_iso(-2 * TIMEOUT_SECONDS))
    if not claimed:
        raise unavailable("This authorization is being settled by another request right "
                          "now; send the same payment again shortly.")
    try:
        result = await _call("settle", facilitator.settle(payload, requirements))
    except CommerceError:
        await _finish(db, payer, nonce, "interrupted", None, "no answer")
        raise
    if result.success:
        await _finish(db, payer, nonce, "settled", result.transaction, None)
        return dataclasses.replace(transfer, transaction=result.transaction, settled=True)
    if result.error_reason == PENDING:  # broadcast, receipt not yet seen: settle again later
        await _finish(db, payer, nonce, "interrupted", result.transaction or None, PENDING)
        raise unavailable("The payment was sent to the chain and is not confirmed yet; send "
                          "the same payment again shortly (it is not charged twice).")
    if was_interrupted and result.error_reason in _NONCE_USED:
        await _finish(db, payer, nonce, "unknown", result.transaction or None,
                      result.error_reason)
        raise _unknown(payer, nonce)
    await _finish(db, payer, nonce, "failed", result.transaction or None, result.error_reason)
    raise _refused(result.error_reason, result.error_message, "settle")


async def _finish(db: Database, payer: str, nonce: str, status: str, transaction: str | None,
                  reason: str | None) -> None:
    async with db.transaction() as tx:
        await storage.finish_settlement(tx, payer, nonce, status=status,
                                        transaction_hash=transaction, reason=reason,
                                        at=clock.now_iso())
