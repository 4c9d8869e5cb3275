"""SQL for payments: sandbox payment intents and spent payment proofs."""

from __future__ import annotations

from typing import Any

from commerce_agent.db import Row, Transaction


async def insert_intent(tx: Transaction, intent: dict[str, Any]) -> None:
    await tx.execute(
        "INSERT INTO payment_intents (id, client_secret_hash, owner_id, amount, currency, "
        "resource, status, created_at, updated_at) VALUES (:id, :secret_hash, :owner, :amount, "
        ":currency, :resource, :status, :at, :at)", intent)


async def intent(tx: Transaction, intent_id: str) -> Row | None:
    return await tx.fetch_one(
        "SELECT id, client_secret_hash, owner_id, amount, currency, status, created_at "
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
                  at: str) -> bool:
    """Spend a succeeded intent of this owner, amount and currency in one statement; False
    when it is not one (the caller reads it to say why)."""
    changed = await tx.execute(
        "UPDATE payment_intents SET status = 'consumed', updated_at = :at WHERE id = :id "
        "AND owner_id = :owner AND status = 'succeeded' AND amount = :amount "
        "AND currency = :currency",
        {"id": intent_id, "owner": owner_id, "amount": amount, "currency": currency,
         "at": at})
    return changed == 1


async def spend(tx: Transaction, scheme: str, proof: str, order_id: str, at: str) -> bool:
    """Record a proof as spent; False when it already was (the primary key holds it once)."""
    changed = await tx.execute(
        "INSERT INTO spent_payments (scheme, proof, order_id, created_at) "
        "VALUES (:scheme, :proof, :order, :at) ON CONFLICT DO NOTHING",
        {"scheme": scheme, "proof": proof, "order": order_id, "at": at})
    return changed == 1
