"""Users, passwords and bearer tokens."""
