-- Postings of the search index (docs/decisions.md, "Search reads a page, not every match"):
-- one row per word of each item's tsvector, with whether the word is in the item's name. A
-- search's page is then read in (word, tier, item) order out of this btree and stops once the
-- page is full, as FTS5 reads its doclists in rowid order on SQLite; the GIN index can only
-- hand over every match at once. Kept current from item_search by a trigger.
CREATE TABLE item_search_terms (
    lexeme TEXT COLLATE "C" NOT NULL,
    tier SMALLINT NOT NULL,  -- 0: the word is in the item's name (weight A); 1: only elsewhere
    item_id TEXT NOT NULL,
    PRIMARY KEY (lexeme, tier, item_id)
);
CREATE INDEX item_search_terms_by_item ON item_search_terms (item_id);

CREATE FUNCTION item_search_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM item_search_terms WHERE item_id = OLD.item_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO item_search_terms (lexeme, tier, item_id)
        SELECT entry.lexeme, CASE WHEN 'A' = ANY(entry.weights) THEN 0 ELSE 1 END, NEW.item_id
        FROM unnest(NEW.document) AS entry;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER item_search_terms AFTER INSERT OR DELETE OR UPDATE ON item_search
    FOR EACH ROW EXECUTE FUNCTION item_search_terms_sync();

-- Backfill the items already indexed.
INSERT INTO item_search_terms (lexeme, tier, item_id)
SELECT entry.lexeme, CASE WHEN 'A' = ANY(entry.weights) THEN 0 ELSE 1 END, search.item_id
FROM item_search AS search, unnest(search.document) AS entry;
