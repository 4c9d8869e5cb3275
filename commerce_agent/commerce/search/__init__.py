"""Product search: turning shoppers' words into FTS5 queries (served by services/catalog/search)."""
