"""The card provider behind the x402 `fiat_intent` scheme, one interface for all of them: the
built-in sandbox (the default) and Stripe (`--payments stripe`).

A provider offers an intent in a 402, takes a paid intent for an order inside the order's
transaction, and refunds. The one active provider is installed when the app is built
(`install`); services ask `active()`, so every front end (Commerce API, web, agent, MCP,
admin) pays and refunds through the same one.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Protocol

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.payments import sandbox
from commerce_agent.commerce.payments.stripe_api import (
    Intent,
    StripeConfig,
    StripeGateway,
    StripeUnavailable,
    idempotency_key,
)
from commerce_agent.commerce.storage import payments as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError

PROVIDERS = ("sandbox", "stripe")

# Where the shopper pays a Stripe intent (the web app serves it; agents hand out the link).
PAYMENT_PAGE = "/shop/pay/{intent_id}"


class FiatProvider(Protocol):
    name: str  # also the `network` of its fiat_intent entries

    async def offer(self, tx: Transaction, *, owner_id: str, amount: Decimal, currency: str,
                    resource: str, base_url: str, key: str) -> dict[str, Any]:
        """A new (or, for the same key, the same) intent: the 402 entry's `extra`."""

    async def take(self, tx: Transaction, *, owner_id: str, intent_id: str, amount: Decimal,
                   currency: str) -> None:
        """Spend a paid intent on an order of exactly its amount, once; 400 otherwise."""

    async def refund(self, order: dict[str, Any], amount: Decimal, *, key: str
                     ) -> dict[str, Any]:
        """Return `amount` of the order's payment; the refund record's extra fields."""

    async def close(self) -> None:
        """Release connections (when the app stops)."""


def _failed(message: str, reason: str, **detail: Any) -> CommerceError:
    return CommerceError(400, "payment_failed", message,
                         details=[{"type": "business_logic", "reason": reason, **detail}])


class SandboxProvider:
    """Test cards confirmed at our own confirm URL; refunds are records on the order."""

    name = "sandbox"

    async def offer(self, tx: Transaction, *, owner_id: str, amount: Decimal, currency: str,
                    resource: str, base_url: str, key: str) -> dict[str, Any]:
        intent_id, secret = await sandbox.create_intent(
            tx, owner_id=owner_id, amount=amount, currency=currency, resource=resource)
        return {"paymentIntentId": intent_id, "clientSecret": secret,
                "confirmUrl": f"{base_url}/payments/sandbox/intents/{intent_id}/confirm"}

    async def take(self, tx: Transaction, *, owner_id: str, intent_id: str, amount: Decimal,
                   currency: str) -> None:
        await sandbox.consume_intent(tx, owner_id=owner_id, intent_id=intent_id,
                                     amount=amount, currency=currency)

    async def refund(self, order: dict[str, Any], amount: Decimal, *, key: str
                     ) -> dict[str, Any]:
        return {}

    async def close(self) -> None:
        return None


# What Stripe's intent statuses mean for a proof that names it.
_NOT_PAID = {
    "requires_payment_method": ("No card has paid this intent yet: pay on the payment "
                                "page first.", "not_paid"),
    "requires_confirmation": ("The payment has not been confirmed yet.", "not_confirmed"),
    "requires_action": ("The card needs the shopper's authentication (3-D Secure) before it "
                        "is charged: finish it on the payment page.", "requires_action"),
    "processing": ("The payment is still processing: try again shortly.", "processing"),
    "canceled": ("This payment was cancelled.", "canceled"),
    "requires_capture": ("The payment is authorized but not captured.", "not_captured"),
}


def _secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class StripeProvider:
    """Real PaymentIntents: the proof is checked by retrieving the intent from Stripe."""

    name = "stripe"

    def __init__(self, config: StripeConfig) -> None:
        self.gateway = StripeGateway(config)
        self.publishable_key = config.publishable_key

    async def offer(self, tx: Transaction, *, owner_id: str, amount: Decimal, currency: str,
                    resource: str, base_url: str, key: str) -> dict[str, Any]:
        minor = money.to_minor(amount, currency)
        before = await storage.offered(tx, owner_id, key)
        if before is not None:
            known = await self.gateway.retrieve_intent(str(before["id"]))
            if known is not None and known.status != "canceled" and (
                    known.amount, known.currency) == (minor, currency):
                return {"paymentIntentId": known.id, "clientSecret": known.client_secret,
                        "paymentUrl": payment_url(base_url, known.id, known.client_secret)}
        intent = await self.gateway.create_intent(
            amount=minor, currency=currency,
            metadata={"commerce_agent_owner": owner_id, "commerce_agent_key": key,
                      "commerce_agent_resource": resource},
            key=idempotency_key("intent", owner_id, key, str(minor), currency))
        await storage.insert_provider_intent(tx, {
            "id": intent.id, "secret_hash": _secret_hash(intent.client_secret),
            "owner": owner_id, "amount": money.money(amount, currency)["amount"],
            "currency": currency, "resource": resource, "provider": self.name, "key": key,
            "status": "requires_confirmation", "at": clock.now_iso()})
        return {"paymentIntentId": intent.id, "clientSecret": intent.client_secret,
                "paymentUrl": payment_url(base_url, intent.id, intent.client_secret)}

    async def take(self, tx: Transaction, *, owner_id: str, intent_id: str, amount: Decimal,
                   currency: str) -> None:
        row = await storage.intent(tx, intent_id) if intent_id else None
        if row is None or row["owner_id"] != owner_id or row["provider"] != self.name:
            raise _failed("The payment intent is unknown.", "unknown_intent")
        if row["status"] == "consumed":  # a replayed proof: Stripe is not even asked
            raise _failed("This payment intent has already paid for an order.", "already_used")
        intent = await self.gateway.retrieve_intent(intent_id)
        if intent is None:
            raise _failed("Stripe knows no such payment intent.", "unknown_intent")
        check_paid(intent, owner_id=owner_id, amount=money.to_minor(amount, currency),
                   currency=currency)
        # The local row holds the intent to one order (the same statement as the sandbox's).
        if row["status"] != "succeeded":
            await storage.set_intent_status(tx, intent_id, "succeeded", was=row["status"],
                                            at=clock.now_iso())
        if not await storage.consume(tx, intent_id, owner_id, row["amount"], row["currency"],
                                     clock.now_iso(), self.name):
            raise _failed("This payment intent has already paid for an order.", "already_used")

    async def refund(self, order: dict[str, Any], amount: Decimal, *, key: str
                     ) -> dict[str, Any]:
        payment = order.get("payment") or {}
        if payment.get("network") != self.name:
            return {}  # paid before Stripe was switched on: a record only
        currency = order["total"]["currency"]
        refund = await self.gateway.refund(
            intent_id=str(payment["reference"]), amount=money.to_minor(amount, currency),
            metadata={"commerce_agent_order": str(order["id"])},
            key=idempotency_key("refund", str(order["id"]), key))
        return {"providerRefundId": refund.id, "status": refund_status(refund.status)}

    async def close(self) -> None:
        await self.gateway.close()


def refund_status(status: str) -> str:
    return {"succeeded": "succeeded", "failed": "failed", "canceled": "failed"}.get(
        status, "pending")


def check_paid(intent: Intent, *, owner_id: str, amount: int, currency: str) -> None:
    """A retrieved intent pays this order only when it succeeded, for exactly this amount and
    currency, and was made by this server for this owner."""
    if intent.metadata.get("commerce_agent_owner") != owner_id:
        raise _failed("This payment intent was not made for this account.", "unknown_intent")
    if intent.status != "succeeded":
        message, reason = _NOT_PAID.get(intent.status, (
            f"The payment is {intent.status}.", "not_paid"))
        if intent.status == "requires_payment_method" and intent.error_code:
            message, reason = ("The card was declined: pay again with another card.",
                               "card_declined")
        extra = {"value": intent.error_code} if intent.error_code else {}
        raise _failed(message, reason, **extra)
    if intent.amount != amount or intent.currency != currency:
        raise _failed(f"The payment intent covers {intent.amount} {intent.currency} (minor "
                      f"units), but the order totals {amount} {currency}.", "amount_mismatch")


def payment_url(base_url: str, intent_id: str, client_secret: str) -> str:
    """The page a shopper pays on: for the agent and MCP, which cannot type a card."""
    path = PAYMENT_PAGE.replace("{intent_id}", intent_id)
    return f"{base_url}{path}?secret={client_secret}"


def offer_key(owner_id: str, cart_id: str | None, cart_version: str,
              idempotency: str | None) -> str:
    """Our key for one 402's intent: the same unchanged cart (or the same Idempotency-Key)
    offers the same intent, so retried 402s never open a second charge."""
    if cart_id is None and idempotency is None:
        return secrets.token_hex(16)  # a Buy Now without a key: nothing to recognise it by
    return hashlib.sha256("\x1f".join(
        (owner_id, cart_id or "", cart_version, idempotency or "")).encode()).hexdigest()[:32]


def build(payments: str, environ: Mapping[str, str], api_base: str = "") -> FiatProvider:
    """The provider `--payments` names; StripeUnavailable says what is missing."""
    if payments == "stripe":
        return StripeProvider(StripeConfig.from_environment(environ, api_base))
    if payments != "sandbox":
        raise StripeUnavailable(f"--payments must be one of {', '.join(PROVIDERS)}.")
    return SandboxProvider()


_active: list[FiatProvider] = [SandboxProvider()]


def install(provider: FiatProvider) -> None:
    _active[0] = provider


def active() -> FiatProvider:
    return _active[0]
