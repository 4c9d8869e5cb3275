-- A real shop moves its own orders: the fulfillment simulator runs only for stores that ask
-- for it (the sample stores; an admin can switch it per store). docs/decisions.md,
-- "The fulfillment simulator runs for sample stores only".
ALTER TABLE stores ADD COLUMN simulate INTEGER NOT NULL DEFAULT 0;
UPDATE stores SET simulate = 1
    WHERE id IN ('store_ceramics', 'store_ebooks', 'store_trattoria', 'store_midori',
                 'store_lumen_studio');
