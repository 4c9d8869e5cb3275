"""Where SQLite and PostgreSQL spell one thing differently, each spelling, chosen by the
`dialect` of the database or transaction at hand ("sqlite" or "postgresql"). Statements are
otherwise written once, in the SQL both understand; nothing rewrites their text
(db/placeholders.py only turns `:name` into the driver's placeholder)."""

from __future__ import annotations

import re

# Keys are code constants; these are the characters each dialect's path quoting takes as is.
_KEY = re.compile(r"[A-Za-z0-9_.\-]+")
_COLUMN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?")


def json_text(dialect: str, column: str, *keys: str) -> str:
    """The SQL of the text at `keys` (object keys, outermost first) inside the JSON document in
    `column`, NULL where there is none: `json_extract` on SQLite, `#>>` on PostgreSQL.

    >>> json_text("sqlite", "doc", "price", "currency")
    'json_extract(doc, \\'$."price"."currency"\\')'
    >>> json_text("postgresql", "items.doc", "metadata", "dev.x")
    '(CAST(items.doc AS jsonb) #>> \\'{"metadata","dev.x"}\\')'
    """
    if not keys or _COLUMN.fullmatch(column) is None \
            or any(_KEY.fullmatch(key) is None for key in keys):
        raise ValueError(f"not a JSON path json_text writes: {column!r} {keys!r}")
    if dialect == "sqlite":
        return f"json_extract({column}, '$" + "".join(f'."{key}"' for key in keys) + "')"
    if dialect == "postgresql":
        return f"(CAST({column} AS jsonb) #>> '{{" + ",".join(f'"{key}"' for key in keys) + "}')"
    raise ValueError(f"unknown SQL dialect {dialect!r}")
