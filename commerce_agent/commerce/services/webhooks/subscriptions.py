"""Webhooks (dev.commerce.server.webhooks@1.0): subscriptions, what is emitted, the outbox write.

`emit` runs inside the transaction of the change it reports: the event (with the exact body
every delivery sends, its id fixed) and one outbox row per matching subscription commit or
roll back with that change. The sender (sender.py) delivers them afterwards.

Subscriptions belong to their owner: another principal's id answers 404 like a missing one.
The secret is never stored (signing.py derives it); the routes add it to the creation
answer only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import msgspec

from commerce_agent import clock, links
from commerce_agent.auth.storage import signing_key
from commerce_agent.commerce.orders.model import STATUSES
from commerce_agent.commerce.pagination import Page
from commerce_agent.commerce.services.webhooks import signing
from commerce_agent.commerce.storage import webhooks as storage
from commerce_agent.db import Database, Row, Transaction
from commerce_agent.errors import CommerceError, not_found, validation_error
from commerce_agent.ids import new_id
from commerce_agent.settings import Settings

EVENTS = ("order.created", "order.updated", *(f"order.{status}" for status in STATUSES),
          "refund.created", "return.created", "return.updated",
          # Catalog changes, sent to the merchants of the store (commerce/shop/writes.py).
          "product.created", "product.updated", "inventory.updated")
ALL_EVENTS = "*"
# Topic of Database.signal: the sender wakes at once for deliveries of this process.
OUTBOX = "webhook_outbox"

MAX_SUBSCRIPTIONS = 20  # per owner, deactivated ones included (delete one to make room)
MAX_URL_LENGTH = 2048
MAX_METADATA_KEYS = 50
MAX_METADATA_KEY_LENGTH = 100
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
# Retry policy (the sender applies it; the capability advertises it).
MAX_ATTEMPTS = 16
MAX_DELAY_SECONDS = 6 * 3600
GONE_REASON = "The receiver answered 410 Gone."
DELETED_REASON = "The subscription was deleted."


def _wants(events_json: str, event: str) -> bool:
    events = json.loads(events_json)
    return event in events or ALL_EVENTS in events


Event = tuple[str, dict[str, Any], dict[str, Any] | None]  # (event, data, previous data)


async def emit(tx: Transaction, owner_id: str, event: str, data: dict[str, Any],
               previous: dict[str, Any] | None = None, *, store_id: str | None = None
               ) -> str | None:
    """Queue `event` for every active subscription of the owner that wants it; returns the
    event id (None when nobody subscribed, and then nothing is stored). `store_id`: the store
    the event concerns, sent as the payload's `storeId`."""
    return (await emit_all(tx, owner_id, [(event, data, previous)], store_id=store_id))[0]


async def emit_all(tx: Transaction, owner_id: str, events: list[Event], *,
                   store_id: str | None = None, active: Sequence[Row] | None = None
                   ) -> list[str | None]:
    """`emit` for several events of one change, reading the owner's subscriptions once
    (`active`: read already, with id and events)."""
    for event, _, _ in events:
        assert event in EVENTS, event
    if active is None:
        active = await storage.active_subscriptions(tx, owner_id)
    if not active:  # the common case: nothing to store
        return [None] * len(events)
    ids: list[str | None] = []
    for event, data, previous in events:
        subscriptions = [row["id"] for row in active if _wants(row["events"], event)]
        if not subscriptions:
            ids.append(None)
            continue
        event_id, now = new_id("evt"), clock.now_iso()
        payload: dict[str, Any] = {"id": event_id, "event": event, "timestamp": now,
                                   "data": data}
        if previous is not None:
            payload["previousData"] = previous
        if store_id is not None:
            payload["storeId"] = store_id
        await storage.insert_event(tx, {"id": event_id, "owner": owner_id, "event": event,
                                        "store": store_id,
                                        "body": msgspec.json.encode(payload), "at": now})
        for subscription_id in subscriptions:
            await storage.insert_delivery(tx, {"id": new_id("whd"),
                                               "subscription": subscription_id,
                                               "event": event_id, "at": now})
        tx.notify(OUTBOX)
        ids.append(event_id)
    return ids


# --- validation -----------------------------------------------------------------------------

def check_url(url: str) -> None:
    """A link we may store (links.url_problem), and more: https anywhere, or http to loopback
    (local work); no credentials."""
    reason = links.url_problem(url)
    if reason:
        raise validation_error("/url", reason, url)
    parts = urlsplit(url)
    host = parts.hostname
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise validation_error("/url", "must not contain credentials")
    if parts.scheme == "http" and host not in LOOPBACK_HOSTS:
        raise validation_error("/url", "must use https (http is allowed only to 127.0.0.1, "
                                       "::1 or localhost)", url)


def check_events(events: list[str]) -> None:
    seen: set[str] = set()
    for index, event in enumerate(events):
        if event not in EVENTS and event != ALL_EVENTS:
            raise validation_error(f"/events/{index}", "is not a known event (see "
                                   "supportedEvents in /capabilities, or \"*\")", event)
        if event in seen:
            raise validation_error(f"/events/{index}", "is listed twice", event)
        seen.add(event)


def check_metadata(metadata: dict[str, Any]) -> None:
    for key in metadata:
        if not 1 <= len(key) <= MAX_METADATA_KEY_LENGTH:
            raise validation_error("/metadata", f"keys must be 1 to {MAX_METADATA_KEY_LENGTH} "
                                   "characters", key)


# --- subscriptions --------------------------------------------------------------------------

def render(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "url": row["url"], "events": json.loads(row["events"]),
            "active": bool(row["active"]), "description": row["description"],
            "metadata": json.loads(row["metadata"]), "createdAt": row["created_at"],
            "updatedAt": row["updated_at"], "deactivatedReason": row["deactivated_reason"]}


async def create(tx: Transaction, owner_id: str, url: str, events: list[str],
                 description: str | None, metadata: dict[str, Any]) -> dict[str, Any]:
    check_url(url)
    check_events(events)
    check_metadata(metadata)
    if await storage.count_subscriptions(tx, owner_id) >= MAX_SUBSCRIPTIONS:
        raise CommerceError(409, "webhook_limit_reached",
                            f"An account may have at most {MAX_SUBSCRIPTIONS} webhook "
                            "subscriptions; delete one first.",
                            params={"max": MAX_SUBSCRIPTIONS})
    subscription_id = new_id("wh")
    await storage.insert_subscription(tx, {
        "id": subscription_id, "owner": owner_id, "url": url, "events": json.dumps(events),
        "description": description, "metadata": json.dumps(metadata, ensure_ascii=False),
        "at": clock.now_iso()})
    return await get(tx, owner_id, subscription_id)


async def get(db: Database | Transaction, owner_id: str, subscription_id: str
              ) -> dict[str, Any]:
    row = await storage.subscription(db, owner_id, subscription_id)
    if row is None:
        raise not_found("webhook", subscription_id)
    return render(row)


async def secret(db: Database, subscription_id: str) -> str:
    """The subscription's signing secret (call outside any transaction)."""
    return signing.derive_secret(await signing_key(db, signing.KEY_NAME), subscription_id)


async def list_page(db: Database, owner_id: str, include_inactive: bool, page: Page
                    ) -> tuple[list[dict[str, Any]], int]:
    rows, total = await storage.list_subscriptions(db, owner_id, include_inactive, page.limit,
                                                   page.offset)
    return [render(row) for row in rows], total


async def delete(tx: Transaction, owner_id: str, subscription_id: str) -> None:
    """Remove the subscription: nothing more is queued for it, and what waits is cancelled."""
    now = clock.now_iso()
    if not await storage.delete_subscription(tx, owner_id, subscription_id, now):
        raise not_found("webhook", subscription_id)
    await storage.cancel_pending(tx, subscription_id, DELETED_REASON, now)


# --- the delivery log -------------------------------------------------------------------------

def render_delivery(row: Row, attempts: list[Row]) -> dict[str, Any]:
    return {
        "id": row["id"], "subscriptionId": row["subscription_id"], "eventId": row["event_id"],
        "event": row["event"], "storeId": row["store_id"], "status": row["status"],
        "attempts": row["attempts"],
        "nextAttemptAt": row["next_attempt_at"] if row["status"] == "pending" else None,
        "lastStatusCode": row["last_status"], "lastError": row["last_error"],
        "createdAt": row["created_at"], "deliveredAt": row["delivered_at"],
        "attemptLog": [{"attempt": attempt["attempt"], "attemptedAt": attempt["attempted_at"],
                        "statusCode": attempt["status_code"], "error": attempt["error"],
                        "durationMs": attempt["duration_ms"]} for attempt in attempts],
    }


async def deliveries(db: Database, owner_id: str, subscription_id: str, page: Page
                     ) -> tuple[list[dict[str, Any]], int]:
    """A page of the subscription's deliveries, newest first, each with its attempts."""
    await get(db, owner_id, subscription_id)
    rows, total = await storage.list_deliveries(db, subscription_id, page.limit, page.offset)
    attempts: dict[str, list[Row]] = {}
    for attempt in await storage.attempts_of(db, [str(row["id"]) for row in rows]):
        attempts.setdefault(str(attempt["delivery_id"]), []).append(attempt)
    return [render_delivery(row, attempts.get(str(row["id"]), [])) for row in rows], total


async def redeliver(tx: Transaction, owner_id: str, subscription_id: str, delivery_id: str
                    ) -> dict[str, Any]:
    """Queue the delivery's event again (same event id, same body) as a new delivery."""
    subscription = await get(tx, owner_id, subscription_id)
    original = await storage.delivery(tx, subscription_id, delivery_id)
    if original is None:
        raise not_found("webhook_delivery", delivery_id)
    if not subscription["active"]:
        raise CommerceError(409, "webhook_inactive",
                            f"Webhook {subscription_id} is deactivated "
                            f"({subscription['deactivatedReason']}); create a new one.",
                            params={"id": subscription_id})
    new_delivery = new_id("whd")
    await storage.insert_delivery(tx, {"id": new_delivery, "subscription": subscription_id,
                                       "event": original["event_id"], "at": clock.now_iso()})
    tx.notify(OUTBOX)
    row = await storage.delivery(tx, subscription_id, new_delivery)
    assert row is not None
    return render_delivery(row, [])


# --- discovery ------------------------------------------------------------------------------

def capability_metadata(settings: Settings) -> dict[str, Any]:
    """What /capabilities says about dev.commerce.server.webhooks@1.0."""
    return {
        "_version": "1.0",
        "supportedEvents": list(EVENTS),
        "signatureMechanism": "hmac-sha256",
        "managementEndpoint": f"{settings.base_url.rstrip('/')}/webhooks",
        "retryPolicy": {"maxAttempts": MAX_ATTEMPTS, "backoffStrategy": "exponential",
                        "retryIntervalSeconds": max(1, math.ceil(
                            settings.webhook_retry_base_seconds)),
                        "maxIntervalSeconds": MAX_DELAY_SECONDS, "honorsRetryAfter": True},
        "deliveryTimeout": max(1, math.ceil(settings.webhook_timeout_seconds)),
        "signatureHeaders": [signing.SIGNATURE, signing.TIMESTAMP, signing.ID,
                             signing.EVENT, *signing.STANDARD],
        "standardWebhooks": True,
        "maxSubscriptions": MAX_SUBSCRIPTIONS,
    }
