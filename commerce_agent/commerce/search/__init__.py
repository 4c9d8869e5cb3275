"""Product search: turning a shopper's words into FTS5 queries (the service is services/search)."""
