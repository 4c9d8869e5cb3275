"""Settling an x402 `exact` authorization through a facilitator, state by state, on the real
database (commerce/payments/settlement.py). The facilitator is the one part that is not ours,
so it is a scripted stand-in here: it answers verify and settle as told, or fails to answer.
(The same flows against a real chain and the x402 SDK's facilitator run in
tests/live/test_x402_settlement.py; these run in the fast subset and reach the branches a live
chain cannot be made to take on demand: a lost answer, a pending receipt, a stale claim.)

What must hold whatever the facilitator does: an authorization is sent to settle at most once
at a time, a settled one is never settled again, an unanswered one is asked again (not
verified again), and every outcome is a 400 with a reason or a 503 with Retry-After."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.payments import chain, exact, settlement, x402
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.db import Database
from commerce_agent.errors import CommerceError

pytestmark = pytest.mark.both_backends

PAYER = "0xAbCdEf0000000000000000000000000000000001"
PAY_TO = "0x2222222222222222222222222222222222222222"
RESOURCE = "http://test/orders"
HASH = "0x" + "ab" * 32


@dataclass
class Facilitator:
    """Answers verify and settle from two scripts (an Exception is raised: no answer)."""

    verifies: list[Any] = field(default_factory=list)
    settles: list[Any] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)

    async def _answer(
        self, stage: str, script: list[Any], payload: dict[str, Any], requirements: dict[str, Any]
    ) -> Any:
        self.calls.append((stage, payload, requirements))
        assert script, f"the facilitator was not expected to {stage}"
        answer = script.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def verify(self, payload: dict[str, Any], requirements: dict[str, Any]) -> Any:
        return await self._answer("verify", self.verifies, payload, requirements)

    async def settle(self, payload: dict[str, Any], requirements: dict[str, Any]) -> Any:
        return await self._answer("settle", self.settles, payload, requirements)

    def stages(self) -> list[str]:
        return [stage for stage, _, _ in self.calls]


def valid(is_valid: bool = True, reason: str | None = None) -> Any:
    return SimpleNamespace(
        is_valid=is_valid,
        invalid_reason=reason,
        invalid_message=f"{reason} (from the facilitator)" if reason else None,
    )


def settled(success: bool = True, transaction: str = HASH, reason: str | None = None) -> Any:
    return SimpleNamespace(
        success=success, transaction=transaction, error_reason=reason, error_message=reason
    )


@pytest.fixture
def facilitator(monkeypatch: pytest.MonkeyPatch) -> Iterator[Facilitator]:
    fake = Facilitator()
    monkeypatch.setattr(settlement, "_active", [fake])
    yield fake


_nonces = iter(range(1, 10**6))


def transfer(*, valid_for: int = 3600) -> exact.VerifiedTransfer:
    now = int(time.time())
    return exact.VerifiedTransfer(
        payer=PAYER,
        value=1_250_000,
        nonce=f"0x{next(_nonces):064x}",
        transaction="0xsignature",
        valid_after=now - 60,
        valid_before=now + valid_for,
    )


def proof() -> x402.PaymentProof:
    return x402.PaymentProof(
        x402Version=1,
        scheme=x402.EXACT_SCHEME,
        network="base-sepolia",
        payload={"signature": "0x01", "authorization": {"from": PAYER}},
    )


async def settle(db: Database, paid: exact.VerifiedTransfer) -> exact.VerifiedTransfer:
    return await settlement.settle(db, proof(), paid, pay_to=PAY_TO, resource=RESOURCE)


async def refused(db: Database, paid: exact.VerifiedTransfer) -> CommerceError:
    with pytest.raises(CommerceError) as caught:
        await settle(db, paid)
    return caught.value


def reason(error: CommerceError) -> str:
    return str(error.details[0]["reason"])


async def row(db: Database, paid: exact.VerifiedTransfer) -> Any:
    return await storage.settlement(db, PAYER.lower(), paid.nonce)


async def test_without_a_facilitator_the_transfer_is_left_unsettled(
    app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settlement, "_active", [None])
    paid = transfer()
    assert await settle(app.state.db, paid) is paid
    assert await row(app.state.db, paid) is None


async def test_a_verified_and_settled_authorization_carries_the_chain_hash(
    app: Starlette, facilitator: Facilitator
) -> None:
    facilitator.verifies.append(valid())
    facilitator.settles.append(settled())
    paid = transfer()
    done = await settle(app.state.db, paid)
    assert (done.transaction, done.settled) == (HASH, True)
    assert (done.payer, done.nonce, done.value) == (paid.payer, paid.nonce, paid.value)
    assert facilitator.stages() == ["verify", "settle"]
    stored = await row(app.state.db, paid)
    assert (stored["status"], stored["transaction_hash"], stored["amount"]) == (
        "settled",
        HASH,
        str(paid.value),
    )
    # What was sent: version 2, the chain's CAIP-2 id, exactly the signed amount, our payee.
    _, payload, requirements = facilitator.calls[1]
    asset = chain.active()
    assert payload["x402Version"] == 2 and payload["accepted"] == requirements
    assert payload["resource"] == {"url": RESOURCE}
    assert requirements["network"] == asset.caip2 and requirements["asset"] == asset.address
    assert (requirements["amount"], requirements["payTo"]) == (str(paid.value), PAY_TO)


async def test_a_settled_authorization_is_never_sent_again_even_once_expired(
    app: Starlette, facilitator: Facilitator
) -> None:
    facilitator.verifies.append(valid())
    facilitator.settles.append(settled())
    paid = transfer()
    await settle(app.state.db, paid)
    expired = exact.VerifiedTransfer(
        payer=paid.payer,
        value=paid.value,
        nonce=paid.nonce,
        transaction="0xsignature",
        valid_after=0,
        valid_before=1,
    )
    again = await settle(app.state.db, expired)  # the money moved while it was valid
    assert (again.transaction, again.settled) == (HASH, True)
    assert facilitator.stages() == ["verify", "settle"]


async def test_a_proof_that_already_paid_an_order_is_passed_on_untouched(
    app: Starlette, facilitator: Facilitator
) -> None:
    paid = transfer()
    async with app.state.db.transaction() as tx:
        await storage.spend(
            tx,
            x402.EXACT_SCHEME,
            f"{paid.payer}:{paid.nonce}",
            "ord_paid",
            clock.now_iso(),
            lambda count: None,
        )
    assert await settle(app.state.db, paid) is paid  # the order's transaction refuses it
    assert facilitator.calls == []


async def test_an_expired_authorization_is_refused_before_the_facilitator_is_asked(
    app: Starlette, facilitator: Facilitator
) -> None:
    paid = transfer(valid_for=-1)
    assert reason(await refused(app.state.db, paid)) == "expired"
    assert facilitator.calls == [] and await row(app.state.db, paid) is None


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [
        ("invalid_exact_evm_nonce_already_used", "already_used"),
        ("invalid_exact_evm_insufficient_balance", "insufficient_funds"),
        ("insufficient_funds", "insufficient_funds"),
        ("invalid_exact_evm_payload_authorization_valid_before", "expired"),
        ("invalid_exact_evm_signature", "bad_signature"),
        ("invalid_exact_evm_recipient_mismatch", "wrong_recipient"),
        ("something_new", "facilitator_refused"),
        (None, "facilitator_refused"),
    ],
)
async def test_a_verify_refusal_is_a_400_with_our_reason_and_claims_nothing(
    app: Starlette, facilitator: Facilitator, theirs: str | None, ours: str
) -> None:
    facilitator.verifies.append(valid(False, theirs))
    paid = transfer()
    error = await refused(app.state.db, paid)
    assert (error.status, error.code, reason(error)) == (400, "payment_failed", ours)
    assert error.details[0].get("value") == theirs
    if ours == "facilitator_refused":
        assert "verify" in error.message
    assert facilitator.stages() == ["verify"]
    assert await row(app.state.db, paid) is None  # never claimed: a new proof may be tried


async def test_no_answer_to_verify_is_a_503_that_claims_nothing(
    app: Starlette, facilitator: Facilitator
) -> None:
    facilitator.verifies.append(ConnectionError("facilitator down"))
    paid = transfer()
    error = await refused(app.state.db, paid)
    assert (error.status, error.code) == (503, "payment_provider_unavailable")
    assert error.headers == {"Retry-After": str(settlement.RETRY_AFTER_SECONDS)}
    assert await row(app.state.db, paid) is None


async def test_a_settle_without_an_answer_is_asked_again_without_a_second_verify(
    app: Starlette, facilitator: Facilitator
) -> None:
    facilitator.verifies.append(valid())
    facilitator.settles += [TimeoutError("no answer"), settled()]
    paid = transfer()
    error = await refused(app.state.db, paid)
    assert error.status == 503
    stored = await row(app.state.db, paid)
    assert (stored["status"], stored["reason"]) == ("interrupted", "no answer")
    done = await settle(app.state.db, paid)
    assert done.settled and done.transaction == HASH
    # The retry skips verify: the first settle may have broadcast (the nonce now reads used).
    assert facilitator.stages() == ["verify", "settle", "settle"]
    assert (await row(app.state.db, paid))["status"] == "settled"


async def test_a_pending_receipt_keeps_its_hash_and_the_retry_finishes(
    app: Starlette, facilitator: Facilitator
) -> None:
    facilitator.verifies.append(valid())
    facilitator.settles += [settled(False, HASH, settlement.PENDING), settled(True, HASH)]
    paid = transfer()
    error = await refused(app.state.db, paid)
    assert error.status == 503 and "not confirmed yet" in error.message
    stored = await row(app.state.db, paid)
    assert (stored["status"], stored["transaction_hash"], stored["reason"]) == (
        "interrupted",
        HASH,
        settlement.PENDING,
    )
    assert (await settle(app.state.db, paid)).settled
    assert facilitator.stages() == ["verify", "settle", "settle"]


@pytest.mark.parametrize("used", sorted(settlement._NONCE_USED))
async def test_an_interrupted_settle_the_chain_then_calls_used_is_kept_as_unknown(
    app: Starlette, facilitator: Facilitator, used: str
) -> None:
    """The lost answer may have been a success: never report it failed, never settle again."""
    facilitator.verifies.append(valid())
    facilitator.settles += [OSError("reset"), settled(False, "", used)]
    paid = transfer()
    assert (await refused(app.state.db, paid)).status == 503
    error = await refused(app.state.db, paid)
    assert (error.status, reason(error)) == (400, "settlement_unknown")
    assert error.details[0]["value"] == f"{PAYER.lower()}:{paid.nonce}"
    assert (await row(app.state.db, paid))["status"] == "unknown"
    again = await refused(app.state.db, paid)  # from the record: the facilitator is not asked
    assert reason(again) == "settlement_unknown"
    assert facilitator.stages() == ["verify", "settle", "settle"]


async def test_a_failed_settle_is_a_400_and_may_be_claimed_again(
    app: Starlette, facilitator: Facilitator
) -> None:
    facilitator.verifies += [valid(), valid()]
    facilitator.settles += [
        settled(False, "0xfailed", "invalid_exact_evm_insufficient_balance"),
        settled(),
    ]
    paid = transfer()
    error = await refused(app.state.db, paid)
    assert (error.status, reason(error)) == (400, "insufficient_funds")
    stored = await row(app.state.db, paid)
    assert (stored["status"], stored["transaction_hash"]) == ("failed", "0xfailed")
    assert stored["reason"] == "invalid_exact_evm_insufficient_balance"
    # Funded since: the same authorization verifies and settles now.
    assert (await settle(app.state.db, paid)).settled
    assert facilitator.stages() == ["verify", "settle", "verify", "settle"]


async def test_the_used_nonce_of_a_first_settle_is_a_plain_refusal(
    app: Starlette, facilitator: Facilitator
) -> None:
    """Not interrupted before: a used nonce means another payment spent it, not ours."""
    facilitator.verifies.append(valid())
    facilitator.settles.append(settled(False, "", "invalid_exact_evm_nonce_already_used"))
    paid = transfer()
    assert reason(await refused(app.state.db, paid)) == "already_used"
    assert (await row(app.state.db, paid))["status"] == "failed"


async def _claim(db: Database, paid: exact.VerifiedTransfer, at: str) -> bool:
    asset = chain.active()
    async with db.transaction() as tx:
        return await storage.claim_settlement(
            tx,
            {
                "payer": PAYER.lower(),
                "nonce": paid.nonce,
                "network": asset.caip2,
                "asset": asset.address,
                "amount": str(paid.value),
                "at": at,
            },
            stale_before=clock.later_iso(-2 * settlement.TIMEOUT_SECONDS),
        )


async def _finish(
    db: Database,
    paid: exact.VerifiedTransfer,
    status: str,
    transaction_hash: str | None,
    reason: str | None,
) -> None:
    async with db.transaction() as tx:
        await storage.finish_settlement(
            tx,
            PAYER.lower(),
            paid.nonce,
            status=status,
            transaction_hash=transaction_hash,
            reason=reason,
            at=clock.now_iso(),
        )


async def _last_touched(db: Database, paid: exact.VerifiedTransfer, at: str) -> None:
    """Backdates the claim, as if its request had last written at `at`."""
    async with db.transaction() as tx:
        await tx.execute(
            "UPDATE x402_settlements SET updated_at = :at WHERE nonce = :nonce",
            {"at": at, "nonce": paid.nonce},
        )


async def test_one_settle_at_a_time_and_a_stale_claim_is_taken_over(
    app: Starlette, facilitator: Facilitator
) -> None:
    paid = transfer()
    # Another request claimed it a moment ago and is still waiting for the facilitator.
    assert await _claim(app.state.db, paid, clock.now_iso())
    busy = await refused(app.state.db, paid)
    assert busy.status == 503 and "another request" in busy.message
    assert busy.headers == {"Retry-After": str(settlement.RETRY_AFTER_SECONDS)}
    # `settling` counts as interrupted (the in-flight settle may have broadcast): no verify.
    assert facilitator.calls == []
    # That request died long ago: its claim is stale and this one takes over.
    await _last_touched(app.state.db, paid, clock.later_iso(-10 * settlement.TIMEOUT_SECONDS))
    facilitator.settles.append(settled())
    assert (await settle(app.state.db, paid)).settled
    assert facilitator.stages() == ["settle"]


async def test_a_settled_or_fresh_claim_cannot_be_claimed_again(app: Starlette) -> None:
    paid = transfer()
    assert await _claim(app.state.db, paid, clock.now_iso())
    assert not await _claim(app.state.db, paid, clock.now_iso())
    await _finish(app.state.db, paid, "settled", HASH, None)
    await _last_touched(app.state.db, paid, "2000-01-01T00:00:00.000Z")
    assert not await _claim(app.state.db, paid, clock.now_iso())  # settled: never again
    # finish_settlement keeps a known hash when the next answer has none.
    await _finish(app.state.db, paid, "interrupted", None, "x")
    assert (await row(app.state.db, paid))["transaction_hash"] == HASH


def test_build_refuses_what_is_not_an_http_url() -> None:
    assert settlement.build("") is None
    for url in ("ftp://facilitator.example", "facilitator.example", "file:///etc/passwd"):
        with pytest.raises(settlement.SettlementUnavailable, match="http"):
            settlement.build(url)
