-- A real shop moves its own orders: the fulfillment simulator runs only for stores that ask
-- for it (the sample stores; an admin can switch it per store). docs/decisions.md,
-- "The fulfillment simulator runs for sample stores only".
ALTER TABLE stores ADD COLUMN simulate INTEGER NOT NULL DEFAULT 0;
UPDATE stores SET simulate = 1
    WHERE id IN ('store_ceramics', 'store_ebooks', 'store_trattoria', 'store_midori',
                 'store_lumen_studio');

-- Images a merchant uploads in the console: kept in the database, so every process and host
-- serves them (GET /images/{id}); checked for type and size before they are stored.
CREATE TABLE images (
    id TEXT PRIMARY KEY,
    store_id TEXT NOT NULL REFERENCES stores(id),
    media_type TEXT NOT NULL,
    data BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX images_by_store ON images(store_id);
