-- PostgreSQL version of ../0005_agent.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- Agent sessions (the sqlite journal): one row per session holding its record, and the
-- append-only event journal. `version` guards every change (compare-and-set); `length` is the
-- number of events, so a new event's streamIndex is the length before it was appended.
CREATE TABLE agent_sessions (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    length INTEGER NOT NULL,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX agent_sessions_by_status ON agent_sessions(status);

-- Each event is stored as the exact NDJSON line a stream sends (streamIndex included).
CREATE TABLE agent_events (
    session_id TEXT NOT NULL REFERENCES agent_sessions(id),
    idx INTEGER NOT NULL,
    line BYTEA NOT NULL,
    PRIMARY KEY (session_id, idx)
);
