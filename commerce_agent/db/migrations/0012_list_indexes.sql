-- Indexes that match each list's filter and order, so a page is read in the index and costs
-- the same however long the list (docs/decisions.md, "Lists page by key").

-- GET /orders?status= (GET /orders uses orders_by_owner).
CREATE INDEX orders_by_owner_status ON orders(owner_id, status, created_at, id);
-- GET /admin/orders, with and without ?status=, one store at a time.
CREATE INDEX orders_by_store ON orders(store_id, created_at, id);
CREATE INDEX orders_by_store_status ON orders(store_id, status, created_at, id);

-- GET /admin/stores/{id}/items, with and without ?status= (replaces items_by_store).
DROP INDEX items_by_store;
CREATE INDEX items_by_store ON items(store_id, catalog_id, position, id);
CREATE INDEX items_by_store_status ON items(store_id, status, catalog_id, position, id);
-- Catalog pages and browsing without a query: active items in catalog and store order.
CREATE INDEX items_active_by_catalog ON items(catalog_id, position, id) WHERE status = 'active';
CREATE INDEX items_active_by_store ON items(store_id, position, id) WHERE status = 'active';
CREATE UNIQUE INDEX stores_by_position ON stores(position, id);

-- "Has anyone ordered this item?" (an item with orders is archived, never deleted).
CREATE INDEX order_lines_by_item ON order_lines(item_id);
