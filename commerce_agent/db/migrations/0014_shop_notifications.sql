-- A small shop runs on it (issue 24): order events reach the store, mail, shipping choice.

-- Which store an emitted webhook event concerns (order, refund and return events go to the
-- store's merchants too; the delivery log shows it). NULL: no store (or before this).
ALTER TABLE webhook_events ADD COLUMN store_id TEXT;

-- The shopper's shipping option on a cart (an id of the store's dev.commerce.store.shipping
-- options); NULL: the store's default (its first option).
ALTER TABLE carts ADD COLUMN shipping_method_id TEXT;

-- The mail outbox: one row per message, written in the transaction of the change it reports
-- (commerce/services/mail/outbox.py). status: pending (waiting for the sender, or kept when no
-- SMTP server is configured), sent or failed. A sender claims a due row by setting
-- `locked_until` (its lease), like webhook_deliveries.
CREATE TABLE mail_messages (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    order_id TEXT,
    store_id TEXT,
    recipient_id TEXT,
    to_address TEXT NOT NULL,
    locale TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    locked_until TEXT,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    sent_at TEXT
);
CREATE INDEX mail_messages_due ON mail_messages(status, next_attempt_at);
CREATE INDEX mail_messages_by_store ON mail_messages(store_id, created_at, id);
CREATE INDEX mail_messages_by_recipient ON mail_messages(recipient_id, created_at, id);
