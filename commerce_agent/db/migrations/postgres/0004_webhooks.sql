-- PostgreSQL version of ../0004_webhooks.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- Webhook subscriptions (dev.commerce.server.webhooks@1.0), one owner each. The signing secret
-- is not stored: it is derived from the server's `webhooks` signing key and the id.
-- `active` 0 with `deactivated_reason`: the receiver answered 410 Gone. `deleted_at`: removed by
-- its owner (kept only so the delivery log's foreign keys hold).
CREATE TABLE webhook_subscriptions (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    active INTEGER NOT NULL DEFAULT 1,
    deactivated_reason TEXT,
    deactivated_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
);
CREATE INDEX webhook_subscriptions_by_owner ON webhook_subscriptions(owner_id, created_at, id);

-- Each emitted event, with the exact body every delivery of it sends (its id never changes).
CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    event TEXT NOT NULL,
    body BYTEA NOT NULL,
    created_at TEXT NOT NULL
);

-- The outbox: one row per (subscription, event), written in the transaction of the change
-- (a redelivery adds another row for the same event). status: pending, delivered, failed or
-- cancelled. A sender claims a due row by setting `locked_until` (its lease) and records the
-- attempt's outcome in `attempts`, `next_attempt_at`, `last_status` and `last_error`.
CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id),
    event_id TEXT NOT NULL REFERENCES webhook_events(id),
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    locked_until TEXT,
    last_status INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    delivered_at TEXT,
    -- Insertion order, which SQLite keeps as the row's rowid: the delivery log lists
    -- deliveries made in the same instant by it (storage/webhooks.py orders by d.rowid).
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_subscription
    ON webhook_deliveries(subscription_id, created_at, id);

-- Every attempt of a delivery, for the delivery log.
CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
    attempt INTEGER NOT NULL,
    attempted_at TEXT NOT NULL,
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
