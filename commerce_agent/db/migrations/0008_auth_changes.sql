-- A counter that moves whenever a token or a user row changes or goes (a revocation, a profile
-- edit, an account removal). Each server process keeps the live tokens it has read, with their
-- users, for as long as the counter stands still (commerce_agent/auth/tokens.py): one tiny read
-- per request says whether what it kept still holds, whichever process made the change. New
-- rows need no move: a token nobody has read yet is not kept anywhere.
CREATE TABLE auth_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO auth_changes (id, version) VALUES (1, 0);

CREATE TRIGGER auth_changes_token_update AFTER UPDATE ON tokens
BEGIN
    UPDATE auth_changes SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER auth_changes_token_delete AFTER DELETE ON tokens
BEGIN
    UPDATE auth_changes SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER auth_changes_user_update AFTER UPDATE ON users
BEGIN
    UPDATE auth_changes SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER auth_changes_user_delete AFTER DELETE ON users
BEGIN
    UPDATE auth_changes SET version = version + 1 WHERE id = 1;
END;
