-- PostgreSQL version of ../0007_sign_in_throttle.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- The sign-in throttle (commerce_agent/auth/throttle.py): failed password attempts per email in
-- the current window. In the database rather than in memory so that every server process on the
-- file shares one count. The email is kept only as its SHA-256: attempts for emails that have no
-- account are counted too (a 429 must not tell which emails exist), and they are not ours to keep.
CREATE TABLE sign_in_failures (
    email_hash TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    window_ends_at TEXT NOT NULL
);
-- Expired windows are deleted as attempts come in.
CREATE INDEX sign_in_failures_by_end ON sign_in_failures(window_ends_at);
