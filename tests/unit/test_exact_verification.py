"""`verify_exact` on authorizations signed here with a throwaway key: a good one names its
payer, value and nonce; every refusal says why (malformed, someone else paid, outside its
window, too little, a signature by another key or no signature at all)."""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account
from eth_account.messages import encode_typed_data

from commerce_agent.commerce.payments import exact
from commerce_agent.commerce.payments.x402 import PaymentProof
from commerce_agent.errors import CommerceError

PAY_TO = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
PAYER = Account.from_key("0x" + "11" * 32)
STRANGER = Account.from_key("0x" + "22" * 32)
NOW = 1_800_000_000


def authorization(**fields: Any) -> dict[str, str]:
    found = {"from": PAYER.address, "to": PAY_TO, "value": "1500000",
             "validAfter": str(NOW - 60), "validBefore": str(NOW + 600),
             "nonce": "0x" + "ab" * 32}
    found.update(fields)
    return found


def signed(auth: dict[str, str], signer: Any = PAYER) -> str:
    message = encode_typed_data(full_message=exact.typed_data(auth))
    signature = str(signer.sign_message(message).signature.hex())
    return signature if signature.startswith("0x") else "0x" + signature


def proof(auth: dict[str, str] | None = None, signature: str | None = None,
          **payload: Any) -> PaymentProof:
    auth = auth or authorization()
    body = {"signature": signature or signed(auth), "authorization": auth, **payload}
    return PaymentProof(x402Version=1, scheme="exact", network="base-sepolia", payload=body)


def refusal(found: PaymentProof, *, min_value: int = 0, now: int | None = NOW,
            pay_to: str = PAY_TO) -> str:
    with pytest.raises(CommerceError) as refused:
        exact.verify_exact(found, pay_to=pay_to, min_value=min_value, now=now)
    assert refused.value.status == 400 and refused.value.code == "payment_failed"
    return str(refused.value.details[0]["reason"])


@pytest.fixture(autouse=True)
def _needs_the_extra() -> None:
    if not exact.exact_available():
        pytest.skip("the x402 extra is not installed")


def test_a_good_authorization_names_payer_value_and_nonce() -> None:
    made = exact.verify_exact(proof(), pay_to=PAY_TO, min_value=1_000_000, now=NOW)
    assert made.payer.lower() == PAYER.address.lower()
    assert made.value == 1_500_000 and made.nonce == "0x" + "ab" * 32
    assert (made.valid_after, made.valid_before) == (NOW - 60, NOW + 600)
    assert made.transaction.startswith("0x") and len(made.transaction) == 66
    assert not made.settled


def test_the_recipient_is_compared_without_case() -> None:
    made = exact.verify_exact(proof(), pay_to=PAY_TO.lower(), min_value=0, now=NOW)
    assert made.value == 1_500_000


def test_paying_someone_else_is_refused() -> None:
    assert refusal(proof(), pay_to=STRANGER.address) == "wrong_recipient"


@pytest.mark.parametrize("now", [NOW - 61, NOW + 600, NOW + 10_000])
def test_outside_the_window_is_expired(now: int) -> None:
    assert refusal(proof(), now=now) == "expired"


def test_the_window_may_be_left_to_the_caller() -> None:
    made = exact.verify_exact(proof(), pay_to=PAY_TO, min_value=0, now=None)
    made.check_window(NOW)
    with pytest.raises(CommerceError) as late:
        made.check_window(NOW + 600)
    assert late.value.details[0]["reason"] == "expired"
    with pytest.raises(CommerceError):
        made.check_window(NOW - 61)


def test_too_little_is_refused_with_what_was_needed() -> None:
    with pytest.raises(CommerceError) as refused:
        exact.verify_exact(proof(), pay_to=PAY_TO, min_value=1_500_001, now=NOW)
    assert refused.value.details[0]["reason"] == "insufficient_value"
    assert "1500000 units; 1500001 needed" in refused.value.message


def test_a_signature_by_another_key_is_refused() -> None:
    auth = authorization()
    assert refusal(proof(auth, signed(auth, STRANGER))) == "bad_signature"


def test_a_changed_value_breaks_the_signature() -> None:
    auth = authorization()
    signature = signed(auth)
    assert refusal(proof(authorization(value="9500000"), signature)) == "bad_signature"


def test_a_signature_that_is_no_signature_is_refused() -> None:
    assert refusal(proof(signature="0x" + "00" * 65)) == "bad_signature"


@pytest.mark.parametrize("auth", [
    authorization(nonce="0x" + "ab" * 31),  # 31 bytes
    authorization(value="1.5"),
    authorization(value="-1"),
    authorization(to="0x1234"),
    authorization(**{"from": "alice"}),
])
def test_badly_formed_fields_are_malformed(auth: dict[str, str]) -> None:
    assert refusal(proof(auth, "0x" + "11" * 65)) == "malformed"


def test_a_short_signature_is_malformed() -> None:
    assert refusal(proof(signature="0x" + "11" * 64)) == "malformed"


def test_an_unknown_or_missing_field_is_malformed() -> None:
    assert refusal(proof(extra="field")) == "malformed"
    auth = authorization()
    del auth["nonce"]
    assert refusal(proof(auth, "0x" + "11" * 65)) == "malformed"


def test_the_typed_data_is_the_tokens_transfer_with_authorization() -> None:
    data = exact.typed_data(authorization())
    assert data["primaryType"] == "TransferWithAuthorization"
    assert data["message"]["value"] == 1_500_000
    assert data["message"]["nonce"] == bytes.fromhex("ab" * 32)
    assert data["domain"]["chainId"] == 84532  # base-sepolia, the default network
