"""The x402 `exact` scheme: an EIP-3009 TransferWithAuthorization signed with EIP-712, checked
locally with eth-account (the `x402` extra), for the token the settings name (`chain`).
Without a facilitator nothing settles on chain: a valid authorization is the payment, once
per (payer, nonce). With one (`settlement`), this check runs first and the facilitator's
verify and settle follow.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import sys
import time
from dataclasses import dataclass
from typing import Any

import msgspec

from commerce_agent.commerce.payments import chain, x402
from commerce_agent.errors import CommerceError

EXTRA_HINT = "pip install 'commerce-agent[x402]'"
_ADDRESS = r"^0x[0-9a-fA-F]{40}$"
_UINT = r"^[0-9]{1,78}$"


class Authorization(msgspec.Struct, forbid_unknown_fields=True, rename={"sender": "from"}):
    sender: str
    to: str
    value: str
    validAfter: str
    validBefore: str
    nonce: str


class ExactPayload(msgspec.Struct, forbid_unknown_fields=True):
    signature: str
    authorization: Authorization


@dataclass(frozen=True)
class VerifiedTransfer:
    payer: str
    value: int
    nonce: str
    # keccak of the signature (a reference: nothing is mined) until a facilitator settles
    # it; then the chain's transaction hash, and `settled`.
    transaction: str
    settled: bool = False
    valid_after: int = 0
    valid_before: int = 0

    def check_window(self, now: int) -> None:
        """400 `expired` unless `now` is inside [validAfter, validBefore)."""
        if not self.valid_after <= now < self.valid_before:
            raise _failed("The authorization is outside its validity window.", "expired")


def _import_eth_account() -> None:
    """Import eth-account, undoing what its py_ecc dependency does on import: raising the
    interpreter's recursion limit to 100,000, which lets a deeply nested JSON body overflow
    the C stack (a segfault) instead of raising RecursionError."""
    limit = sys.getrecursionlimit()
    try:
        import eth_account  # noqa: F401
    finally:
        sys.setrecursionlimit(limit)


def exact_available() -> bool:
    try:
        _import_eth_account()
    except ImportError:
        return False
    return True


def _failed(message: str, reason: str) -> CommerceError:
    return CommerceError(400, "payment_failed", message,
                         details=[{"type": "business_logic", "reason": reason}])


def typed_data(authorization: dict[str, Any]) -> dict[str, Any]:
    """The EIP-712 message the token's transferWithAuthorization verifies."""
    asset = chain.active()
    return {
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"},
                             {"name": "version", "type": "string"},
                             {"name": "chainId", "type": "uint256"},
                             {"name": "verifyingContract", "type": "address"}],
            "TransferWithAuthorization": [
                {"name": "from", "type": "address"}, {"name": "to", "type": "address"},
                {"name": "value", "type": "uint256"}, {"name": "validAfter", "type": "uint256"},
                {"name": "validBefore", "type": "uint256"}, {"name": "nonce", "type": "bytes32"}],
        },
        "primaryType": "TransferWithAuthorization",
        "domain": {"name": asset.name, "version": asset.version, "chainId": asset.chain_id,
                   "verifyingContract": asset.address},
        "message": {"from": authorization["from"], "to": authorization["to"],
                    "value": int(authorization["value"]),
                    "validAfter": int(authorization["validAfter"]),
                    "validBefore": int(authorization["validBefore"]),
                    "nonce": bytes.fromhex(authorization["nonce"].removeprefix("0x"))},
    }


def _payload(proof: x402.PaymentProof) -> ExactPayload:
    try:
        payload = msgspec.convert(proof.payload, ExactPayload)
    except msgspec.ValidationError as exc:
        raise _failed(f"The exact payload is malformed: {exc}.", "malformed") from None
    auth = payload.authorization
    if not (re.match(_ADDRESS, auth.sender) and re.match(_ADDRESS, auth.to)
            and all(re.match(_UINT, v) for v in (auth.value, auth.validAfter, auth.validBefore))
            and re.match(r"^0x[0-9a-fA-F]{64}$", auth.nonce)
            and re.match(r"^0x[0-9a-fA-F]{130}$", payload.signature)):
        raise _failed("The exact authorization has badly formed fields (addresses, uint256 "
                      "decimals, a 32-byte nonce and a 65-byte signature in hex).", "malformed")
    return payload


def verify_exact(proof: x402.PaymentProof, *, pay_to: str, min_value: int, now: int | None
                 ) -> VerifiedTransfer:
    """Recover the signer and check recipient, value and validity window (`now` None: the
    caller checks the window itself, `VerifiedTransfer.check_window`); the nonce is spent
    later, inside the order transaction."""
    if not exact_available():
        raise CommerceError(400, "payment_method_unsupported",
                            f"The exact scheme needs the x402 extra: {EXTRA_HINT}.")
    from eth_account import Account
    from eth_account.messages import encode_typed_data
    from eth_utils.crypto import keccak

    payload = _payload(proof)
    auth = payload.authorization
    if auth.to.lower() != pay_to.lower():
        raise _failed("The authorization pays someone else than this store's payTo.",
                      "wrong_recipient")
    window = (int(auth.validAfter), int(auth.validBefore))
    if now is not None and not window[0] <= now < window[1]:
        raise _failed("The authorization is outside its validity window.", "expired")
    value = int(auth.value)
    if value < min_value:
        raise _failed(f"The authorization covers {value} units; {min_value} needed.",
                      "insufficient_value")
    message = typed_data(msgspec.to_builtins(auth))
    try:
        signer = Account.recover_message(encode_typed_data(full_message=message),
                                         signature=payload.signature)
    except Exception:  # eth-account raises several types for a signature that is no signature
        raise _failed("The signature could not be recovered.", "bad_signature") from None
    if signer.lower() != auth.sender.lower():
        raise _failed("The signature was not made by the authorization's `from`.",
                      "bad_signature")
    transaction = "0x" + keccak(hexstr=payload.signature).hex().removeprefix("0x")
    return VerifiedTransfer(payer=signer, value=value, nonce=auth.nonce.lower(),
                            transaction=transaction, valid_after=window[0],
                            valid_before=window[1])


def sign_exact_payment(private_key: str, requirement: dict[str, Any], *,
                       valid_for: int | None = None) -> str:
    """The X-PAYMENT header a wallet sends for one `exact` entry of a 402 (for clients/tests)."""
    _import_eth_account()
    from eth_account import Account
    from eth_account.messages import encode_typed_data

    account = Account.from_key(private_key)
    now = int(time.time())
    authorization = {
        "from": account.address, "to": requirement["payTo"],
        "value": str(requirement["maxAmountRequired"]), "validAfter": str(now - 60),
        "validBefore": str(now + (valid_for or int(requirement["maxTimeoutSeconds"]))),
        "nonce": "0x" + secrets.token_hex(32)}
    signed = account.sign_message(encode_typed_data(full_message=typed_data(authorization)))
    signature = signed.signature.hex()
    payload = {"x402Version": x402.X402_VERSION, "scheme": x402.EXACT_SCHEME,
               "network": requirement["network"],
               "payload": {"signature": signature if signature.startswith("0x")
                           else "0x" + signature, "authorization": authorization}}
    return base64.b64encode(json.dumps(payload).encode()).decode()
