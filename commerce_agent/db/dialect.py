"""The storage modules' SQLite statements, as PostgreSQL runs them (translated once each).

Storage modules write one statement for both backends where the two agree, which is almost
everywhere; what this module rewrites is the little that SQLite spells its own way:

- parameters: `:name` and `?` become psycopg's `%(name)s` and `%s` (and a literal `%`, `%%`);
  `:name IS NULL` becomes `%(name)s::text IS NULL` (a None there has no type to infer);
- `INSERT OR IGNORE INTO …` becomes `INSERT INTO … ON CONFLICT DO NOTHING`;
- `json_extract(column, '$.a."b.c"')` becomes `(column::jsonb #>> '{a,b.c}')`, and
  `json_set(column, '$.a', 'text')` becomes `jsonb_set(column::jsonb, …)::text`.

Anything else SQLite-only (PRAGMA, INSERT OR REPLACE, FTS5) is refused here, so a statement
that was not made portable fails loudly in the first test rather than quietly differing; the
storage modules branch on `db.dialect` for those few (seed's reset, search).
"""

from __future__ import annotations

import functools
import re

_PARAM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_PART = re.compile(r'\.(?:"((?:[^"]|"")*)"|([A-Za-z0-9_]+))')
_IDENT = r"[A-Za-z_][A-Za-z0-9_.]*"
_JSON_EXTRACT = re.compile(rf"json_extract\(\s*({_IDENT})\s*,\s*'(\$[^']*)'\s*\)", re.I)
_JSON_SET = re.compile(
    rf"json_set\(\s*({_IDENT})\s*,\s*'(\$[^']*)'\s*,\s*('(?:[^']|'')*')\s*\)", re.I)
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.I)
_REFUSED = re.compile(r"^\s*(PRAGMA\b|INSERT\s+OR\s+REPLACE\b|REPLACE\s+INTO\b)", re.I)
_RETURNING = re.compile(r"\bRETURNING\b", re.I)
_IS_NULL = re.compile(r"\s+IS\s+(?:NOT\s+)?NULL\b", re.I)


class NotPortable(ValueError):
    """A statement only SQLite understands reached the PostgreSQL backend."""


def _path(path: str) -> str:
    """A SQLite JSON path (`$.a."b.c".d`) as a PostgreSQL text[] literal."""
    keys, at = [], 1
    while at < len(path):
        found = _PATH_PART.match(path, at)
        if found is None:
            raise NotPortable(f"JSON path not supported on PostgreSQL: {path!r}")
        quoted, plain = found.groups()
        keys.append(plain if quoted is None else quoted.replace('""', '"'))
        at = found.end()
    elements = ",".join('"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"' for key in keys)
    return "'{" + elements.replace("'", "''") + "}'"


def _json_functions(sql: str) -> str:
    sql = _JSON_EXTRACT.sub(
        lambda found: f"({found[1]}::jsonb #>> {_path(found[2])})", sql)
    return _JSON_SET.sub(
        lambda found: f"jsonb_set({found[1]}::jsonb, {_path(found[2])}, "
                      f"to_jsonb({found[3]}::text))::text", sql)


def _parameters(sql: str) -> str:
    """`:name` → `%(name)s`, `?` → `%s`, `%` → `%%`; quoted text and `::` casts untouched
    (but for `%`, which psycopg reads everywhere)."""
    out: list[str] = []
    quote: str | None = None
    at, end = 0, len(sql)
    while at < end:
        char = sql[at]
        if char == "%":
            out.append("%%")
        elif quote is not None:
            out.append(char)
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
            out.append(char)
        elif char == "?":
            out.append("%s")
        elif char == ":" and at + 1 < end and sql[at + 1] == ":":
            out.append("::")
            at += 1
        elif char == ":" and (name := _PARAM.match(sql, at + 1)) is not None:
            # A parameter only tested for NULL has no type PostgreSQL can infer when None.
            typed = "::text" if _IS_NULL.match(sql, name.end()) else ""
            out.append(f"%({name.group()})s{typed}")
            at = name.end() - 1
        else:
            out.append(char)
        at += 1
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def to_postgres(sql: str) -> str:
    """`sql` (a storage module's statement) as PostgreSQL runs it through psycopg."""
    if _REFUSED.match(sql):
        raise NotPortable(f"SQLite-only statement: {sql[:60]!r}")
    if _INSERT_OR_IGNORE.match(sql):
        sql = _INSERT_OR_IGNORE.sub("INSERT INTO", sql, count=1)
        returning = _RETURNING.search(sql)
        if returning is None:
            sql = sql.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
        else:
            sql = (sql[:returning.start()] + "ON CONFLICT DO NOTHING "
                   + sql[returning.start():])
    if "json_" in sql:
        sql = _json_functions(sql)
    return _parameters(sql)
