-- Full-text search over items (dev.commerce.product.search), kept current by triggers so every
-- writer (seeding, catalog import, the merchant admin API) updates it without knowing about it.

-- A stable integer key per item: FTS5 rows are addressed by rowid, and the rowid of `items`
-- (a TEXT primary key) may be renumbered by VACUUM; an INTEGER PRIMARY KEY never is.
CREATE TABLE item_search_keys (
    key INTEGER PRIMARY KEY,
    item_id TEXT NOT NULL UNIQUE
);

-- What is indexed for one item, defined once for the triggers and the backfill below. A
-- document that is not valid JSON indexes as empty rather than failing the write.
CREATE VIEW item_search_text AS
SELECT
    item_id, store_id, name,
    coalesce((SELECT group_concat(value, ' ') FROM json_tree(doc,
                  '$.metadata."dev.commerce.product.categorization"')
              WHERE key = 'name' AND type = 'text'), '')
        || ' ' || coalesce((SELECT group_concat(value, ' ') FROM json_each(doc, '$.tags')
                            WHERE type = 'text'), '')
        || ' ' || coalesce((SELECT value FROM json_each(doc)
                            WHERE key = 'category' AND type = 'text'), '') AS category,
    coalesce((SELECT value FROM json_each(doc)
              WHERE key = 'description' AND type = 'text'), '') AS description,
    coalesce((SELECT group_concat(value, ' ') FROM json_tree(doc, '$.metadata')
              WHERE type = 'text'
                AND (path LIKE '$.metadata."dev.commerce.product.variants"%'
                     OR path LIKE '$.metadata."dev.commerce.product.customization"%')
                AND key NOT IN ('id', '_version', 'amount', 'currency', 'selectionType')), '')
        AS options,
    coalesce((SELECT json_extract(stores.doc, '$.name') FROM stores
              WHERE stores.id = store_id AND json_valid(stores.doc)), '') AS store,
    coalesce((SELECT group_concat(
                  coalesce(json_extract(entry.value, '$.name'), '') || ' '
                  || coalesce(json_extract(entry.value, '$.description'), ''), ' ')
              FROM stores, json_each(iif(json_valid(stores.translations),
                                         stores.translations, '{}')) AS locale,
                   json_each(iif(locale.type = 'object', locale.value, '{}'), '$.items')
                       AS entry
              WHERE stores.id = store_id AND entry.key = item_id
                AND entry.type = 'object'), '') AS translated
FROM (SELECT id AS item_id, store_id, name,
             iif(json_valid(items.doc), items.doc, '{}') AS doc FROM items);

-- Porter stemming makes "mugs" find "mug"; bm25 weights per column are given at query time.
CREATE VIRTUAL TABLE items_fts USING fts5(
    name, category, description, options, store, translated,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Trigrams of names, categories and options: candidate words for correcting a misspelt search term.
CREATE VIRTUAL TABLE items_trigram USING fts5(words, tokenize = 'trigram');

CREATE TRIGGER items_search_insert AFTER INSERT ON items BEGIN
    INSERT INTO item_search_keys (item_id) VALUES (NEW.id);
    INSERT INTO items_fts (rowid, name, category, description, options, store, translated)
    SELECT keys.key, text.name, text.category, text.description, text.options, text.store,
           text.translated
    FROM item_search_text AS text JOIN item_search_keys AS keys ON keys.item_id = text.item_id
    WHERE text.item_id = NEW.id;
    INSERT INTO items_trigram (rowid, words)
    SELECT keys.key, text.name || ' ' || text.category || ' ' || text.options
    FROM item_search_text AS text JOIN item_search_keys AS keys ON keys.item_id = text.item_id
    WHERE text.item_id = NEW.id;
END;

CREATE TRIGGER items_search_update AFTER UPDATE OF id, name, doc, store_id ON items BEGIN
    DELETE FROM items_fts WHERE rowid = (SELECT key FROM item_search_keys WHERE item_id = OLD.id);
    DELETE FROM items_trigram
    WHERE rowid = (SELECT key FROM item_search_keys WHERE item_id = OLD.id);
    UPDATE item_search_keys SET item_id = NEW.id WHERE item_id = OLD.id;
    INSERT INTO items_fts (rowid, name, category, description, options, store, translated)
    SELECT keys.key, text.name, text.category, text.description, text.options, text.store,
           text.translated
    FROM item_search_text AS text JOIN item_search_keys AS keys ON keys.item_id = text.item_id
    WHERE text.item_id = NEW.id;
    INSERT INTO items_trigram (rowid, words)
    SELECT keys.key, text.name || ' ' || text.category || ' ' || text.options
    FROM item_search_text AS text JOIN item_search_keys AS keys ON keys.item_id = text.item_id
    WHERE text.item_id = NEW.id;
END;

CREATE TRIGGER items_search_delete AFTER DELETE ON items BEGIN
    DELETE FROM items_fts WHERE rowid = (SELECT key FROM item_search_keys WHERE item_id = OLD.id);
    DELETE FROM items_trigram
    WHERE rowid = (SELECT key FROM item_search_keys WHERE item_id = OLD.id);
    DELETE FROM item_search_keys WHERE item_id = OLD.id;
END;

-- A store's name and translations are indexed with each of its items.
CREATE TRIGGER stores_search_update AFTER UPDATE OF doc, translations ON stores BEGIN
    DELETE FROM items_fts WHERE rowid IN (
        SELECT keys.key FROM item_search_keys AS keys
        JOIN items ON items.id = keys.item_id WHERE items.store_id = NEW.id);
    INSERT INTO items_fts (rowid, name, category, description, options, store, translated)
    SELECT keys.key, text.name, text.category, text.description, text.options, text.store,
           text.translated
    FROM item_search_text AS text JOIN item_search_keys AS keys ON keys.item_id = text.item_id
    WHERE text.store_id = NEW.id;
END;

-- Backfill the items already there.
INSERT INTO item_search_keys (item_id) SELECT id FROM items ORDER BY rowid;

INSERT INTO items_fts (rowid, name, category, description, options, store, translated)
SELECT keys.key, text.name, text.category, text.description, text.options, text.store,
       text.translated
FROM item_search_text AS text JOIN item_search_keys AS keys ON keys.item_id = text.item_id;

INSERT INTO items_trigram (rowid, words)
SELECT keys.key, text.name || ' ' || text.category || ' ' || text.options
FROM item_search_text AS text JOIN item_search_keys AS keys ON keys.item_id = text.item_id;
