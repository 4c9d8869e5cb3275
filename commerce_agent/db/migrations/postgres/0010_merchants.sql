-- PostgreSQL version of ../0010_merchants.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- Merchant accounts and the stores they run; item publication status (issue 15).

-- 'customer' (every account so far) or 'merchant' (may use /admin for its own stores).
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'customer';

-- Which merchant accounts run which store. No foreign keys: `seed --reset` clears stores but
-- keeps accounts, and a store is never deleted while it has orders.
CREATE TABLE store_merchants (
    store_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (store_id, user_id)
);
CREATE INDEX store_merchants_by_user ON store_merchants(user_id);

-- 'active' items are sold; 'draft' and 'archived' ones are hidden from catalogs, search and
-- new carts but stay for the orders that name them (an ordered item is never deleted).
ALTER TABLE items ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
