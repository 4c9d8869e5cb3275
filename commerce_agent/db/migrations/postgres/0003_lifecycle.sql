-- PostgreSQL version of ../0003_lifecycle.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- The fulfillment simulator's state: how many plan steps of each moving order are done, and
-- when the next one is due (NULL: not timed yet, the simulator times it at its own speed).
-- Kept here, not in memory, so it survives restarts and is shared by processes.
CREATE TABLE fulfillment_jobs (
    order_id TEXT PRIMARY KEY REFERENCES orders(id),
    step INTEGER NOT NULL DEFAULT 0,
    due_at TEXT
);
CREATE INDEX fulfillment_jobs_by_due ON fulfillment_jobs(due_at);

-- Booked service time slots: the primary key makes a slot bookable by one order only. The
-- slot is booked before the order row is inserted, in the same transaction (hence DEFERRED).
CREATE TABLE slot_bookings (
    item_id TEXT NOT NULL,
    slot_id TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders(id) DEFERRABLE INITIALLY DEFERRED,
    owner_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (item_id, slot_id)
);
CREATE INDEX slot_bookings_by_order ON slot_bookings(order_id);

-- Returns keep their rendered document plus indexed columns, like orders.
CREATE TABLE returns (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    owner_id TEXT NOT NULL,
    status TEXT NOT NULL,
    doc TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX returns_by_order ON returns(order_id);
CREATE INDEX returns_by_owner ON returns(owner_id, created_at, id);
