"""SQL for payments: payment intents, spent payment proofs and x402 settlements."""

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


async def settlement(db: Transaction | Database, payer: str, nonce: str) -> Row | None:
    """The settlement record of one x402 authorization, if it was ever sent to settle."""
    return await db.fetch_one(
        "SELECT payer, nonce, network, asset, amount, status, transaction_hash, reason, "
        "updated_at FROM x402_settlements WHERE payer = :payer AND nonce = :nonce",
        {"payer": payer, "nonce": nonce})


async def claim_settlement(tx: Transaction, row: dict[str, Any], *, stale_before: str
                           ) -> bool:
    """Mark an authorization `settling` before the facilitator settles it: a new one, one
    whose earlier attempt failed or was interrupted, or one left `settling` since before
    `stale_before` (a process that died mid-call). False while another call is in flight or
    once it settled."""
    changed = await tx.execute(
        "INSERT INTO x402_settlements (payer, nonce, network, asset, amount, status, "
        "created_at, updated_at) VALUES (:payer, :nonce, :network, :asset, :amount, "
        "'settling', :at, :at) ON CONFLICT (payer, nonce) DO UPDATE SET status = 'settling', "
        "amount = :amount, updated_at = :at WHERE x402_settlements.status IN "
        "('failed', 'interrupted') OR (x402_settlements.status = 'settling' AND "
        "x402_settlements.updated_at < :stale)", {**row, "stale": stale_before})
    return changed == 1


async def finish_settlement(tx: Transaction, payer: str, nonce: str, *, status: str,
                            transaction_hash: str | None, reason: str | None, at: str) -> None:
    """Record what the facilitator answered (or that no answer came: `interrupted`)."""
    await tx.execute(
        "UPDATE x402_settlements SET status = :status, transaction_hash = COALESCE("
        ":hash, transaction_hash), reason = :reason, updated_at = :at "
        "WHERE payer = :payer AND nonce = :nonce",
        {"payer": payer, "nonce": nonce, "status": status, "hash": transaction_hash,
         "reason": reason, "at": at})
