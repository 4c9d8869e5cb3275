"""SQL for webhooks: subscriptions, emitted events, the delivery outbox and its attempts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce_agent.commerce.storage import leases
from commerce_agent.db import Database, Row, Transaction
from commerce_agent.db.placeholders import named_list

_SUBSCRIPTION = ("SELECT id, url, events, description, metadata, active, deactivated_reason, "
                 "created_at, updated_at FROM webhook_subscriptions")
_DELIVERY = ("SELECT d.id, d.subscription_id, d.event_id, e.event, e.store_id, d.status, "
             "d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.created_at, "
             "d.delivered_at "
             "FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id")
# A delivery the sender may take: pending, due, not leased, for a live subscription.
_CLAIMABLE = ("d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= :now) "
              "AND s.active = 1 AND s.deleted_at IS NULL")


# --- subscriptions ------------------------------------------------------------------------

async def active_subscriptions(db: Database | Transaction, owner_id: str) -> list[Row]:
    return await db.fetch_all(
        "SELECT id, events FROM webhook_subscriptions WHERE owner_id = :owner AND active = 1 "
        "AND deleted_at IS NULL", {"owner": owner_id})


async def count_subscriptions(tx: Transaction, owner_id: str) -> int:
    row = await tx.fetch_one(
        "SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE owner_id = :owner "
        "AND deleted_at IS NULL", {"owner": owner_id})
    return int(row["n"]) if row else 0


async def insert_subscription(tx: Transaction, subscription: dict[str, Any]) -> None:
    await tx.execute(
        "INSERT INTO webhook_subscriptions (id, owner_id, url, events, description, metadata, "
        "active, created_at, updated_at) VALUES (:id, :owner, :url, :events, :description, "
        ":metadata, 1, :at, :at)", subscription)


async def subscription(db: Database | Transaction, owner_id: str, subscription_id: str
                       ) -> Row | None:
    """The owner's subscription (active or deactivated); None when missing or deleted."""
    return await db.fetch_one(
        f"{_SUBSCRIPTION} WHERE id = :id AND owner_id = :owner AND deleted_at IS NULL",
        {"id": subscription_id, "owner": owner_id})


async def list_subscriptions(db: Database, owner_id: str, include_inactive: bool, limit: int,
                             offset: int) -> tuple[list[Row], int]:
    params = {"owner": owner_id, "all": int(include_inactive), "limit": limit,
              "offset": offset}
    where = "owner_id = :owner AND deleted_at IS NULL AND (active = 1 OR :all = 1)"
    rows = await db.fetch_all(
        f"{_SUBSCRIPTION} WHERE {where} ORDER BY created_at DESC, id DESC "
        "LIMIT :limit OFFSET :offset", params)
    total = await db.fetch_one(
        f"SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE {where}", params)
    return rows, int(total["n"]) if total else 0


async def delete_subscription(tx: Transaction, owner_id: str, subscription_id: str, at: str
                              ) -> bool:
    changed = await tx.execute(
        "UPDATE webhook_subscriptions SET deleted_at = :at, updated_at = :at, active = 0 "
        "WHERE id = :id AND owner_id = :owner AND deleted_at IS NULL",
        {"id": subscription_id, "owner": owner_id, "at": at})
    return changed > 0


async def deactivate(tx: Transaction, subscription_id: str, reason: str, at: str) -> None:
    await tx.execute(
        "UPDATE webhook_subscriptions SET active = 0, deactivated_reason = :reason, "
        "deactivated_at = :at, updated_at = :at WHERE id = :id AND active = 1",
        {"id": subscription_id, "reason": reason, "at": at})


async def cancel_pending(tx: Transaction, subscription_id: str, reason: str, at: str) -> int:
    """Cancel every pending delivery of a subscription (deleted or gone)."""
    return await tx.execute(
        "UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, "
        "last_error = COALESCE(last_error, :reason), updated_at = :at "
        "WHERE subscription_id = :id AND status = 'pending'",
        {"id": subscription_id, "reason": reason, "at": at})


# --- events and deliveries ----------------------------------------------------------------

async def insert_event(tx: Transaction, event: dict[str, Any]) -> None:
    await tx.defer(
        "INSERT INTO webhook_events (id, owner_id, event, store_id, body, created_at) "
        "VALUES (:id, :owner, :event, :store, :body, :at)", event)


async def insert_delivery(tx: Transaction, delivery: dict[str, Any]) -> None:
    await tx.defer(
        "INSERT INTO webhook_deliveries (id, subscription_id, event_id, status, attempts, "
        "next_attempt_at, created_at, updated_at) VALUES (:id, :subscription, :event, "
        "'pending', 0, :at, :at, :at)", delivery)


async def delivery(db: Database | Transaction, subscription_id: str, delivery_id: str
                   ) -> Row | None:
    return await db.fetch_one(
        f"{_DELIVERY} WHERE d.id = :id AND d.subscription_id = :subscription",
        {"id": delivery_id, "subscription": subscription_id})


async def list_deliveries(db: Database, subscription_id: str, limit: int, offset: int
                          ) -> tuple[list[Row], int]:
    """A page of the subscription's deliveries, newest first."""
    params = {"subscription": subscription_id, "limit": limit, "offset": offset}
    rows = await db.fetch_all(
        f"{_DELIVERY} WHERE d.subscription_id = :subscription "
        "ORDER BY d.created_at DESC, d.rowid DESC LIMIT :limit OFFSET :offset", params)
    total = await db.fetch_one(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE subscription_id = :subscription",
        params)
    return rows, int(total["n"]) if total else 0


async def attempts_of(db: Database, delivery_ids: Sequence[str]) -> list[Row]:
    if not delivery_ids:
        return []
    placeholders, params = named_list("d", delivery_ids)
    return await db.fetch_all(
        "SELECT delivery_id, attempt, attempted_at, status_code, error, duration_ms "
        f"FROM webhook_attempts WHERE delivery_id IN ({placeholders}) "
        "ORDER BY delivery_id, attempt", params)


# --- the sender -----------------------------------------------------------------------------

async def next_due(db: Database, now: str) -> str | None:
    """When the earliest delivery a sender may claim is due (None: nothing waits)."""
    row = await db.fetch_one(
        "SELECT d.next_attempt_at AS due FROM webhook_deliveries d "
        "JOIN webhook_subscriptions s ON s.id = d.subscription_id "
        f"WHERE {_CLAIMABLE} ORDER BY d.next_attempt_at LIMIT 1",
        {"now": now})
    return None if row is None else str(row["due"])


async def claim(tx: Transaction, now: str, lease_until: str, limit: int) -> list[Row]:
    """Lease up to `limit` due deliveries to this sender (with what sending them needs).
    PostgreSQL: senders of other processes claim at the same moment, so the rows are locked
    as they are read and rows another sender is claiming are skipped (each delivery is leased
    to one); SQLite's writer runs one claim at a time anyway."""
    skip_claimed = " FOR UPDATE OF d SKIP LOCKED" if tx.dialect == "postgresql" else ""
    rows = await tx.fetch_all(
        "SELECT d.id, d.subscription_id, d.attempts, s.url, e.id AS event_id, e.event, e.body "
        "FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id "
        f"JOIN webhook_events e ON e.id = d.event_id WHERE {_CLAIMABLE} "
        "AND d.next_attempt_at <= :now ORDER BY d.next_attempt_at LIMIT :limit"
        + skip_claimed, {"now": now, "limit": limit})
    await leases.lease(tx, "webhook_deliveries", rows, lease_until)
    return rows


async def record_attempt(tx: Transaction, attempt: dict[str, Any]) -> bool:
    """Store attempt number `attempt` and its outcome (delivered, pending: retry at `next`, or
    failed). False when that attempt was already recorded (another sender took over after the
    lease ran out). A cancelled delivery stays cancelled unless this attempt delivered it."""
    changed = await tx.execute(
        "UPDATE webhook_deliveries SET attempts = :attempt, last_status = :status_code, "
        "last_error = :error, locked_until = NULL, updated_at = :at, "
        "status = CASE WHEN :outcome = 'delivered' OR status = 'pending' THEN :outcome "
        "ELSE status END, "
        "next_attempt_at = CASE WHEN :outcome = 'pending' AND status = 'pending' THEN :next "
        "ELSE NULL END, "
        "delivered_at = CASE WHEN :outcome = 'delivered' THEN :at ELSE delivered_at END "
        "WHERE id = :id AND attempts = :attempt - 1", attempt)
    if changed:
        await tx.execute(
            "INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, "
            "error, duration_ms) VALUES (:id, :attempt, :attempted_at, :status_code, :error, "
            ":duration_ms)", attempt)
    return changed > 0


async def release(tx: Transaction, delivery_ids: Sequence[str]) -> None:
    """Give back leases of deliveries this sender will not finish (it is stopping)."""
    if delivery_ids:
        placeholders, params = named_list("d", delivery_ids)
        await tx.execute(
            f"UPDATE webhook_deliveries SET locked_until = NULL WHERE id IN ({placeholders}) "
            "AND status = 'pending'", params)
