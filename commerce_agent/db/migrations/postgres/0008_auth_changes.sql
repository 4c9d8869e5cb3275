-- PostgreSQL version of ../0008_auth_changes.sql. A counter that moves whenever a token or a
-- user row changes or goes (a revocation, a profile edit, an account removal); see
-- commerce_agent/auth/tokens.py.
CREATE TABLE auth_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO auth_changes (id, version) VALUES (1, 0);

CREATE FUNCTION auth_changes_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE auth_changes SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END;
$$;

CREATE TRIGGER auth_changes_token_change AFTER UPDATE OR DELETE ON tokens
    FOR EACH ROW EXECUTE FUNCTION auth_changes_move();
CREATE TRIGGER auth_changes_user_change AFTER UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION auth_changes_move();
