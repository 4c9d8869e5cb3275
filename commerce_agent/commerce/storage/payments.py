"""SQL for payments: sandbox payment intents and spent payment proofs."""

from __future__ import annotations

from typing import Any

from commerce_agent.db import Check, Database, Row, Transaction


async def insert_intent(tx: Transaction, intent: dict[str, Any]) -> None:
    await tx.execute(
        "INSERT INTO payment_intents (id, client_secret_hash, owner_id, amount, currency, "
        "resource, status, created_at, updated_at) VALUES (:id, :secret_hash, :owner, :amount, "
        ":currency, :resource, :status, :at, :at)", intent)


async def insert_provider_intent(tx: Transaction, intent: dict[str, Any]) -> None:
    """A provider's intent; the same intent offered again (same idempotency key) is kept."""
    await tx.execute(
        "INSERT INTO payment_intents (id, client_secret_hash, owner_id, amount, currency, "
        "resource, status, provider, offer_key, created_at, updated_at) VALUES (:id, "
        ":secret_hash, :owner, :amount, :currency, :resource, :status, :provider, :key, "
        ":at, :at) "
        "ON CONFLICT (id) DO NOTHING", intent)


async def intent(tx: Transaction | Database, intent_id: str) -> Row | None:
    return await tx.fetch_one(
        "SELECT id, client_secret_hash, owner_id, amount, currency, status, provider, "
        "created_at "
        "FROM payment_intents WHERE id = :id", {"id": intent_id})


async def set_intent_status(tx: Transaction, intent_id: str, status: str, *, was: str,
                            at: str) -> bool:
    """Move an intent from `was` to `status`; False when it was no longer in `was`."""
    changed = await tx.execute(
        "UPDATE payment_intents SET status = :status, updated_at = :at "
        "WHERE id = :id AND status = :was",
        {"id": intent_id, "status": status, "was": was, "at": at})
    return changed == 1


async def consume(tx: Transaction, intent_id: str, owner_id: str, amount: str, currency: str,
                  at: str, provider: str) -> bool:
    """Spend a succeeded intent of this owner, amount, currency and provider in one
    statement; False when it is not one (the caller reads it to say why)."""
    changed = await tx.execute(
        "UPDATE payment_intents SET status = 'consumed', updated_at = :at WHERE id = :id "
        "AND owner_id = :owner AND status = 'succeeded' AND amount = :amount "
        "AND currency = :currency AND provider = :provider",
        {"id": intent_id, "owner": owner_id, "amount": amount, "currency": currency,
         "at": at, "provider": provider})
    return changed == 1


async def spend(tx: Transaction, scheme: str, proof: str, order_id: str, at: str,
                check: Check) -> None:
    """Record a proof as spent; `check` gets the row count (0 when it already was: the
    primary key holds it once), deferred (Transaction.defer)."""
    await tx.defer(
        "INSERT INTO spent_payments (scheme, proof, order_id, created_at) "
        "VALUES (:scheme, :proof, :order, :at) ON CONFLICT DO NOTHING",
        {"scheme": scheme, "proof": proof, "order": order_id, "at": at}, check=check)


async def order_paid_by(db: Transaction | Database, scheme: str, proof: str) -> str | None:
    """The order a spent proof paid, or None."""
    row = await db.fetch_one(
        "SELECT order_id FROM spent_payments WHERE scheme = :scheme AND proof = :proof",
        {"scheme": scheme, "proof": proof})
    return None if row is None else str(row["order_id"])


async def offered(tx: Transaction, owner_id: str, offer_key: str) -> Row | None:
    """The unspent intent a 402 with this key offered this owner before, if any."""
    return await tx.fetch_one(
        "SELECT id, amount, currency, status FROM payment_intents WHERE owner_id = :owner "
        "AND offer_key = :key AND status <> 'consumed' ORDER BY created_at DESC LIMIT 1",
        {"owner": owner_id, "key": offer_key})
