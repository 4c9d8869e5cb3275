"""The built-in sandbox card provider behind the `fiat_intent` scheme, in the manner of Stripe's
test mode: a 402 creates a payment intent with a client secret; the client confirms it with a
test card at the confirm URL; the order spends the succeeded intent exactly once.

Intents: requires_confirmation → succeeded → consumed. A declined card leaves the intent
confirmable with another card. Only the client secret's SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from decimal import Decimal

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError
from commerce_agent.ids import new_id

SUCCEEDS = "4242424242424242"
DECLINES = "4000000000000002"
TEST_CARDS = (SUCCEEDS, DECLINES)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _failed(message: str, reason: str) -> CommerceError:
    return CommerceError(400, "payment_failed", message,
                         details=[{"type": "business_logic", "reason": reason}])


async def create_intent(tx: Transaction, *, owner_id: str, amount: Decimal, currency: str,
                        resource: str) -> tuple[str, str]:
    """A new intent for `amount`; returns (intent id, client secret)."""
    intent_id = new_id("pi")
    secret = f"{intent_id}_secret_{secrets.token_urlsafe(24)}"
    await storage.insert_intent(tx, {
        "id": intent_id, "secret_hash": _hash(secret), "owner": owner_id,
        "amount": money.money(amount, currency)["amount"], "currency": currency,
        "resource": resource, "status": "requires_confirmation", "at": clock.now_iso()})
    return intent_id, secret


async def confirm_intent(tx: Transaction, intent_id: str, client_secret: str, card: str) -> str:
    """Charge the test card; returns the intent id once it has succeeded."""
    row = await storage.intent(tx, intent_id)
    if (row is None or row["provider"] != "sandbox"
            or not hmac.compare_digest(row["client_secret_hash"], _hash(client_secret))):
        # Same answer for an unknown intent and a wrong secret: secrets are not guessable.
        raise CommerceError(404, "payment_intent_not_found",
                            f"No payment intent {intent_id!r} with this client secret.",
                            params={"id": intent_id})
    if row["status"] == "succeeded":
        return intent_id  # confirming twice is harmless, as with Stripe
    if row["status"] != "requires_confirmation":
        raise CommerceError(409, "payment_intent_unexpected_state",
                            f"This payment intent is {row['status']} and cannot be confirmed.",
                            params={"status": row["status"]})
    if card == DECLINES:
        raise _failed("The card was declined (sandbox test card 4000000000000002).",
                      "card_declined")
    if card != SUCCEEDS:
        raise _failed("The sandbox takes test cards only: 4242424242424242 succeeds, "
                      "4000000000000002 is declined.", "not_a_test_card")
    await storage.set_intent_status(tx, intent_id, "succeeded", was="requires_confirmation",
                                    at=clock.now_iso())
    return intent_id


async def consume_intent(tx: Transaction, *, owner_id: str, intent_id: str, amount: Decimal,
                         currency: str) -> None:
    """Spend a succeeded intent on an order of exactly its amount, for its owner only."""
    expected = money.money(amount, currency)
    if intent_id and await storage.consume(tx, intent_id, owner_id, expected["amount"],
                                           currency, clock.now_iso(), "sandbox"):
        return
    # Not spendable: read it to say why.
    row = await storage.intent(tx, intent_id) if intent_id else None
    if row is None or row["owner_id"] != owner_id or row["provider"] != "sandbox":
        raise _failed("The payment intent is unknown.", "unknown_intent")
    if row["status"] == "requires_confirmation":
        raise _failed("The payment intent has not been paid: confirm it with a card first.",
                      "not_confirmed")
    if row["status"] != "succeeded":
        raise _failed("This payment intent has already paid for an order.", "already_used")
    raise _failed(f"The payment intent covers {row['amount']} {row['currency']}, but the "
                  f"order totals {expected['amount']} {currency}.", "amount_mismatch")
