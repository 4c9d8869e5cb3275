-- PostgreSQL version of ../0009_item_search.sql: word search over items with tsvector and
-- ts_rank where SQLite has FTS5 and bm25, kept current by triggers so every writer (seeding,
-- catalog import, the merchant admin API) updates it without knowing about it. Indexed text is
-- the same: name; categories, tags and category; description; variant and customization
-- option names; the store's name; the item's translated name and description.

-- pg_trgm ranks typo candidates (names sharing trigrams with a misspelt word) and unaccent
-- folds diacritics, as FTS5's remove_diacritics does. Both are trusted extensions (a database
-- owner may create them); where creating one is refused, search works without it: typo
-- candidates are read unranked, and accented letters must be typed (docs/postgres.md).
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm not available (%): typo candidates are read unranked', SQLERRM;
END
$$;
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS unaccent;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'unaccent not available (%): diacritics are not folded', SQLERRM;
END
$$;

-- English stemming ("mugs" finds "mug") without a stop-word list: FTS5 indexes every word.
CREATE TEXT SEARCH DICTIONARY commerce_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION commerce_search (COPY = english);
ALTER TEXT SEARCH CONFIGURATION commerce_search
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart WITH commerce_stem;
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'unaccent') THEN
        ALTER TEXT SEARCH CONFIGURATION commerce_search
            ALTER MAPPING FOR word, hword, hword_part WITH unaccent, commerce_stem;
    ELSE
        ALTER TEXT SEARCH CONFIGURATION commerce_search
            ALTER MAPPING FOR word, hword, hword_part WITH commerce_stem;
    END IF;
END
$$;

-- One row per item. `document` is weighted A (name), B (categories, translations),
-- C (description), D (options, store name): ts_rank's four weights stand in for bm25's six.
-- `words`: name, categories and options, where typo corrections look for candidates.
CREATE TABLE item_search (
    item_id TEXT PRIMARY KEY,
    store_id TEXT NOT NULL,
    document TSVECTOR NOT NULL,
    words TEXT NOT NULL
);
CREATE INDEX item_search_document ON item_search USING GIN (document);
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX item_search_words ON item_search USING GIST (words gist_trgm_ops);
    END IF;
END
$$;

-- A document that is not valid JSON indexes as empty rather than failing the write.
CREATE FUNCTION item_search_json(value TEXT) RETURNS JSONB LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN coalesce(value::jsonb, '{}'::jsonb);
EXCEPTION WHEN OTHERS THEN
    RETURN '{}'::jsonb;
END
$$;

-- Every string inside a JSON value, with the key it sits under (NULL for array elements),
-- as SQLite's json_tree lists them.
CREATE FUNCTION item_search_strings(value JSONB) RETURNS TABLE (key TEXT, text TEXT)
LANGUAGE sql IMMUTABLE AS $$
    WITH RECURSIVE walk(key, value) AS (
        SELECT NULL::text, value
        UNION ALL
        SELECT child.key, child.value FROM walk CROSS JOIN LATERAL (
            SELECT entry.key, entry.value FROM jsonb_each(
                CASE WHEN jsonb_typeof(walk.value) = 'object' THEN walk.value
                     ELSE '{}'::jsonb END) AS entry
            UNION ALL
            SELECT NULL, element.value FROM jsonb_array_elements(
                CASE WHEN jsonb_typeof(walk.value) = 'array' THEN walk.value
                     ELSE '[]'::jsonb END) AS element
        ) AS child
    )
    SELECT walk.key, walk.value #>> '{}' FROM walk WHERE jsonb_typeof(walk.value) = 'string'
$$;

-- The strings directly in a JSON value (SQLite's json_each): an array's or an object's
-- members, or the value itself.
CREATE FUNCTION item_search_members(value JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(string_agg(member #>> '{}', ' '), '') FROM (
        SELECT element AS member FROM jsonb_array_elements(
            CASE WHEN jsonb_typeof(value) = 'array' THEN value ELSE '[]'::jsonb END) AS element
        UNION ALL
        SELECT entry.value FROM jsonb_each(
            CASE WHEN jsonb_typeof(value) = 'object' THEN value ELSE '{}'::jsonb END) AS entry
        UNION ALL
        SELECT value WHERE jsonb_typeof(value) = 'string'
    ) AS members WHERE jsonb_typeof(member) = 'string'
$$;

-- Rebuild one item's row (or drop it when the item is gone).
CREATE FUNCTION item_search_refresh(target TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    item RECORD;
    doc JSONB;
    category TEXT;
    description TEXT;
    options TEXT;
    store TEXT;
    translated TEXT;
BEGIN
    DELETE FROM item_search WHERE item_id = target;
    SELECT id, store_id, name, items.doc AS text INTO item FROM items WHERE id = target;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    doc := item_search_json(item.text);
    category := concat_ws(' ',
        (SELECT string_agg(found.text, ' ') FROM item_search_strings(
             doc #> '{metadata,dev.commerce.product.categorization}') AS found
         WHERE found.key = 'name'),
        item_search_members(doc -> 'tags'),
        CASE WHEN jsonb_typeof(doc -> 'category') = 'string' THEN doc ->> 'category' END);
    description := CASE WHEN jsonb_typeof(doc -> 'description') = 'string'
                        THEN doc ->> 'description' ELSE '' END;
    options := coalesce((
        SELECT string_agg(found.text, ' ') FROM (
            SELECT * FROM item_search_strings(doc #> '{metadata,dev.commerce.product.variants}')
            UNION ALL
            SELECT * FROM item_search_strings(
                doc #> '{metadata,dev.commerce.product.customization}')) AS found
        WHERE found.key IS NULL
           OR found.key NOT IN ('id', '_version', 'amount', 'currency', 'selectionType')), '');
    SELECT coalesce(CASE WHEN jsonb_typeof(item_search_json(stores.doc) -> 'name') = 'string'
                         THEN item_search_json(stores.doc) ->> 'name' END, ''),
           coalesce((SELECT string_agg(concat_ws(' ',
                                           coalesce(locale.value -> 'items' -> target ->> 'name',
                                                    ''),
                                           coalesce(locale.value -> 'items' -> target
                                                    ->> 'description', '')), ' ')
                     FROM jsonb_each(CASE WHEN jsonb_typeof(item_search_json(stores.translations))
                                               = 'object'
                                          THEN item_search_json(stores.translations)
                                          ELSE '{}'::jsonb END) AS locale
                     WHERE jsonb_typeof(locale.value) = 'object'
                       AND jsonb_typeof(locale.value -> 'items') = 'object'
                       AND jsonb_typeof(locale.value -> 'items' -> target) = 'object'), '')
      INTO store, translated
      FROM stores WHERE stores.id = item.store_id;
    INSERT INTO item_search (item_id, store_id, document, words) VALUES (
        item.id, item.store_id,
        setweight(to_tsvector('commerce_search', item.name), 'A')
        || setweight(to_tsvector('commerce_search', concat_ws(' ', category, translated)), 'B')
        || setweight(to_tsvector('commerce_search', description), 'C')
        || setweight(to_tsvector('commerce_search', concat_ws(' ', options, store)), 'D'),
        concat_ws(' ', item.name, category, options));
END
$$;

CREATE FUNCTION items_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM item_search WHERE item_id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM item_search_refresh(NEW.id);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER items_search AFTER INSERT OR DELETE OR UPDATE OF id, name, doc, store_id
    ON items FOR EACH ROW EXECUTE FUNCTION items_search_sync();

-- A store's name and translations are indexed with each of its items.
CREATE FUNCTION stores_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM item_search_refresh(items.id) FROM items WHERE items.store_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER stores_search AFTER UPDATE OF doc, translations ON stores
    FOR EACH ROW EXECUTE FUNCTION stores_search_sync();

-- Backfill the items already there.
SELECT item_search_refresh(id) FROM items;
