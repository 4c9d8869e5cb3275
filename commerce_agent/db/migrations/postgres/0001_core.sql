-- PostgreSQL version of ../0001_core.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- Accounts and bearer tokens (tokens are stored as SHA-256 hashes only).
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    password_hash TEXT,
    profile TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);

CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT
);
CREATE INDEX tokens_by_user ON tokens(user_id);

-- Stores, catalogs and items, seeded from sample_data/.
CREATE TABLE stores (
    id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    currency TEXT NOT NULL,
    doc TEXT NOT NULL,
    translations TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE catalogs (
    id TEXT PRIMARY KEY,
    store_id TEXT NOT NULL REFERENCES stores(id),
    position INTEGER NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX catalogs_by_store ON catalogs(store_id);

CREATE TABLE items (
    id TEXT PRIMARY KEY,
    catalog_id TEXT NOT NULL REFERENCES catalogs(id),
    store_id TEXT NOT NULL REFERENCES stores(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    price TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX items_by_catalog ON items(catalog_id, position);
CREATE INDEX items_by_store ON items(store_id);

-- Units on hand; no row means unlimited (digital goods, services). variant_id '' is the item.
CREATE TABLE stock (
    item_id TEXT NOT NULL REFERENCES items(id),
    variant_id TEXT NOT NULL DEFAULT '',
    quantity INTEGER NOT NULL CHECK (quantity >= 0),
    PRIMARY KEY (item_id, variant_id)
);

CREATE TABLE promotions (
    store_id TEXT NOT NULL REFERENCES stores(id),
    code TEXT NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (store_id, code)
);

-- Carts and their lines.
CREATE TABLE carts (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    store_id TEXT NOT NULL REFERENCES stores(id),
    status TEXT NOT NULL,
    guest_info TEXT,
    promotion_codes TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX carts_by_owner ON carts(owner_id);

CREATE TABLE cart_items (
    id TEXT PRIMARY KEY,
    cart_id TEXT NOT NULL REFERENCES carts(id),
    position INTEGER NOT NULL,
    item_id TEXT NOT NULL,
    variant_id TEXT NOT NULL DEFAULT '',
    quantity INTEGER NOT NULL,
    options TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX cart_items_by_cart ON cart_items(cart_id, position);

-- Orders keep their rendered document (without actions) plus indexed columns.
CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    store_id TEXT NOT NULL,
    status TEXT NOT NULL,
    cart_id TEXT,
    doc TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX orders_by_owner ON orders(owner_id, created_at, id);
CREATE INDEX orders_by_cart ON orders(cart_id);

CREATE TABLE order_lines (
    order_id TEXT NOT NULL REFERENCES orders(id),
    line_id TEXT NOT NULL,
    owner_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    variant_id TEXT NOT NULL DEFAULT '',
    quantity INTEGER NOT NULL,
    PRIMARY KEY (order_id, line_id)
);
CREATE INDEX order_lines_by_owner_item ON order_lines(owner_id, item_id);

-- Idempotency keys, stored with the write they guard.
CREATE TABLE idempotency_keys (
    principal TEXT NOT NULL,
    method TEXT NOT NULL,
    route TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BYTEA NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (principal, method, route, key)
);

-- Sandbox payment intents (fiat_intent) and spent payment proofs (both schemes).
CREATE TABLE payment_intents (
    id TEXT PRIMARY KEY,
    client_secret_hash TEXT NOT NULL UNIQUE,
    owner_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    currency TEXT NOT NULL,
    resource TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE spent_payments (
    scheme TEXT NOT NULL,
    proof TEXT NOT NULL,
    order_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (scheme, proof)
);

CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    item_id TEXT NOT NULL,
    owner_id TEXT NOT NULL,
    rating INTEGER NOT NULL,
    comment TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    UNIQUE (item_id, owner_id)
);
