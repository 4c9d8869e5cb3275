"""Setting up on-chain settlement and what its answers become, without a facilitator: which
`--x402-facilitator` values start the server, the facilitator's refusal reasons in this
server's words, an outage as a 503 to retry, and the version 2 documents a facilitator is
sent (the amount is what was signed)."""

from __future__ import annotations

import asyncio

import pytest

from commerce_agent.commerce.payments import chain, exact, settlement
from commerce_agent.commerce.payments.x402 import PaymentProof
from commerce_agent.errors import CommerceError


def test_no_facilitator_means_no_settlement() -> None:
    assert settlement.build("") is None


@pytest.mark.parametrize("url", ["ftp://facilitator.example", "facilitator.example",
                                 "ws://facilitator.example"])
def test_only_an_http_url_names_a_facilitator(url: str) -> None:
    with pytest.raises(settlement.SettlementUnavailable, match="must be an http"):
        settlement.build(url)


def test_without_the_extra_the_server_does_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "exact_available", lambda: False)
    with pytest.raises(settlement.SettlementUnavailable, match="needs the x402 extra"):
        settlement.build("https://facilitator.example")


def test_a_facilitator_url_is_kept_without_its_trailing_slash() -> None:
    if not exact.exact_available():
        pytest.skip("the x402 extra is not installed")
    made = settlement.build("https://facilitator.example/x402/")
    assert made is not None and made.url == "https://facilitator.example/x402"
    asyncio.run(made.close())


def test_install_and_active_hold_one_facilitator() -> None:
    before = settlement.active()
    try:
        settlement.install(None)
        assert settlement.active() is None
    finally:
        settlement.install(before)


@pytest.mark.parametrize(("reason", "ours", "said"), [
    ("invalid_exact_evm_nonce_already_used", "already_used", "already been used on chain"),
    ("invalid_exact_evm_insufficient_balance", "insufficient_funds", "balance does not cover"),
    ("insufficient_funds", "insufficient_funds", "balance does not cover"),
    ("invalid_exact_evm_payload_authorization_valid_before", "expired", "validity window"),
    ("invalid_exact_evm_payload_authorization_valid_after", "expired", "validity window"),
    ("invalid_exact_evm_signature", "bad_signature", "did not accept the signature"),
    ("invalid_exact_evm_payload_signature", "bad_signature", "did not accept the signature"),
    ("invalid_exact_evm_recipient_mismatch", "wrong_recipient", "pays someone else"),
])
def test_refusals_are_told_in_this_servers_words(reason: str, ours: str, said: str) -> None:
    refused = settlement._refused(reason, "the facilitator's own words", "settle")
    assert refused.status == 400 and refused.code == "payment_failed"
    assert refused.details == [{"type": "business_logic", "reason": ours, "value": reason}]
    assert said in refused.message


def test_an_unknown_refusal_names_the_stage_and_the_reason() -> None:
    refused = settlement._refused("chain_congested", None, "verify")
    assert refused.details[0]["reason"] == "facilitator_refused"
    assert refused.message == "The facilitator refused to verify the payment (chain_congested)."
    bare = settlement._refused(None, None, "settle")
    assert bare.details == [{"type": "business_logic", "reason": "facilitator_refused"}]


def test_an_outage_is_a_503_to_retry() -> None:
    down = settlement.unavailable()
    assert down.status == 503 and down.code == "payment_provider_unavailable"
    assert down.headers == {"Retry-After": str(settlement.RETRY_AFTER_SECONDS)}
    assert "nothing was charged twice" in down.message


def test_a_failed_call_is_an_outage_whatever_failed() -> None:
    async def broken() -> None:
        raise ValueError("HTTP 502 from the facilitator")

    with pytest.raises(CommerceError) as down:
        asyncio.run(settlement._call("settle", broken()))
    assert down.value.status == 503


def test_the_documents_carry_what_was_signed() -> None:
    proof = PaymentProof(x402Version=1, scheme="exact", network="base-sepolia",
                         payload={"signature": "0x" + "11" * 65, "authorization": {}})
    transfer = exact.VerifiedTransfer(payer="0xabc", value=1_500_000, nonce="0x" + "ab" * 32,
                                      transaction="0x" + "00" * 32)
    pay_to = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    payload, requirements = settlement.documents(proof, transfer, pay_to,
                                                 "https://shop.example/orders")
    asset = chain.active()
    assert requirements["amount"] == "1500000" and requirements["payTo"] == pay_to
    assert requirements["network"] == asset.caip2 and requirements["asset"] == asset.address
    assert requirements["scheme"] == "exact"
    assert requirements["extra"] == {"name": asset.name, "version": asset.version}
    assert payload["x402Version"] == 2 and payload["accepted"] is requirements
    assert payload["payload"] is proof.payload
    assert payload["resource"] == {"url": "https://shop.example/orders"}
