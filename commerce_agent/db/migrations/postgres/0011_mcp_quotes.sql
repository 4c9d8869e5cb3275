-- PostgreSQL version of ../0011_mcp_quotes.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- Confirmation quotes of spending MCP tools (commerce_agent/mcp/checkout.py): what the person
-- was shown (for place_order: the lines, the total and how to pay) before confirming it. A
-- quote belongs to one user, lapses at expires_at, and is confirmed only while `fingerprint`
-- (the cart's lines and total) still matches; confirming it twice replays the first result.
CREATE TABLE mcp_quotes (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    args TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX mcp_quotes_user ON mcp_quotes (user_id, created_at);
