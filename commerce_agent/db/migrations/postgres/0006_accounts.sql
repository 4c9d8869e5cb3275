-- PostgreSQL version of ../0006_accounts.sql (BYTEA for BLOB, identity columns for AUTOINCREMENT).
-- Accounts: token grants with rotating refresh tokens, browser sessions, a CSRF signing key.

-- One grant per password sign-in through the token API. Its access tokens (rows of `tokens`
-- with this grant_id) and its refresh tokens die together when it is revoked.
CREATE TABLE auth_grants (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    revoked_reason TEXT
);
CREATE INDEX auth_grants_by_user ON auth_grants(user_id);

-- NULL for tokens minted outside the token API (CLI, demo, tests): they keep working alone.
-- No foreign key: `seed --reset` keeps tokens but clears grants.
ALTER TABLE tokens ADD COLUMN grant_id TEXT;
CREATE INDEX tokens_by_grant ON tokens(grant_id);

-- Refresh tokens, stored as SHA-256 hashes; each is used once (rotation), reuse revokes the grant.
CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    grant_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);
CREATE INDEX refresh_tokens_by_grant ON refresh_tokens(grant_id);

-- Browser sessions behind the HttpOnly cookie of the account pages (hash of the cookie value).
CREATE TABLE web_sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX web_sessions_by_user ON web_sessions(user_id);

-- Server-side secrets (the CSRF HMAC key), created on first use.
CREATE TABLE signing_keys (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL
);
