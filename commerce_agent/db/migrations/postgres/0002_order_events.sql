-- PostgreSQL version of ../0002_order_events.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- The order-updates journal behind GET /orders/{id}/updates: one row per change of an order,
-- holding the JSON Patch that turns the previous rendered order into the next one. `seq` is
-- the per-order SSE event id; `id` grows in commit order (one writer at a time), so a poller
-- that remembers the last id it saw never misses a change made by another process.
CREATE TABLE order_events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    seq INTEGER NOT NULL,
    owner_id TEXT NOT NULL,
    status TEXT NOT NULL,
    patch TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (order_id, seq)
);
