-- Nothing to add on SQLite: FTS5 already reads its doclists in rowid order, with column
-- filters, and stops once a page is full. PostgreSQL's migration 0017 adds the postings table
-- its GIN index lacks (docs/decisions.md, "Search reads a page, not every match"); this file
-- keeps the two folders' numbers alike, with a statement that changes nothing.
SELECT 1;
