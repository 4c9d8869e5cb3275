"""`:name` placeholders as psycopg reads them: the one change a statement undergoes on its way
to a database. Nothing else about its text is rewritten (docs/decisions.md, "SQL written once
for both databases").

Storage modules write each statement once, in the SQL both SQLite and PostgreSQL understand,
with `:name` parameters, which SQLite binds as they are. psycopg binds `%(name)s` and reads
every `%` as the start of one, so for PostgreSQL a tokenizer walks the statement and

- turns each `:name` outside quoted text and comments into `%(name)s`;
- doubles every `%` (psycopg scans the whole text, literals and comments included);
- leaves alone `'text'` (with `''` inside), `"identifiers"`, `$tag$ bodies $tag$`,
  `-- line` and `/* block */` comments (whatever quotes they hold) and `::` casts;
- refuses `?`: positional parameters are not written (and PostgreSQL reads `?` as a JSON
  operator, so one left over would fail there in a way SQLite never shows).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

# What the walk stops at: the start of quoted text or a comment, a cast, a parameter.
_TOKEN = re.compile(r"""'|"|--|/\*|\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$|::|:[A-Za-z_][A-Za-z0-9_]*|\?""")
_WORD_CHAR = re.compile(r"[A-Za-z0-9_$]")


class PlaceholderError(ValueError):
    """A statement that cannot be bound by name: a `?`, or quoted text or a comment left open."""


def _skip_quoted(sql: str, at: int, quote: str) -> int:
    """The index just past the literal (or quoted identifier) opening at `at`; a doubled quote
    inside it is part of it."""
    end = len(sql)
    at += 1
    while at < end:
        if sql[at] == quote:
            if at + 1 < end and sql[at + 1] == quote:
                at += 2
                continue
            return at + 1
        at += 1
    raise PlaceholderError(f"unterminated {quote} in statement: {sql[:80]!r}")


def _skip_block_comment(sql: str, at: int) -> int:
    """The index just past the `/* … */` comment opening at `at` (nested, as PostgreSQL
    reads them)."""
    depth, at, end = 0, at, len(sql)
    while at < end:
        pair = sql[at:at + 2]
        if pair == "/*":
            depth, at = depth + 1, at + 2
        elif pair == "*/":
            depth, at = depth - 1, at + 2
            if depth == 0:
                return at
        else:
            at += 1
    raise PlaceholderError(f"unterminated /* comment in statement: {sql[:80]!r}")


@functools.lru_cache(maxsize=4096)
def to_pyformat(sql: str) -> str:
    """`sql` with its `:name` parameters as psycopg's `%(name)s` (see the module's doc)."""
    out: list[str] = []
    at, copied = 0, 0
    while (token := _TOKEN.search(sql, at)) is not None:
        found, start = token.group(), token.start()
        if found in ("'", '"'):
            at = _skip_quoted(sql, start, found)
        elif found == "--":
            newline = sql.find("\n", start)
            at = len(sql) if newline < 0 else newline + 1
        elif found == "/*":
            at = _skip_block_comment(sql, start)
        elif found == "?":
            raise PlaceholderError(
                f"positional parameter (?) in statement: write :name instead: {sql[:80]!r}")
        elif found.startswith("$"):
            if start and _WORD_CHAR.match(sql[start - 1]):  # part of a name, not a quote
                at = start + 1
                continue
            close = sql.find(found, token.end())
            if close < 0:
                raise PlaceholderError(f"unterminated {found} quote: {sql[:80]!r}")
            at = close + len(found)
        elif found == "::":
            at = token.end()
        else:  # :name
            out.append(sql[copied:start].replace("%", "%%"))
            out.append(f"%({found[1:]})s")
            at = copied = token.end()
    out.append(sql[copied:].replace("%", "%%"))
    return "".join(out)


def named_list(prefix: str, values: Sequence[object]) -> tuple[str, dict[str, object]]:
    """`:p0, :p1, …` (NULL for none: `x IN (NULL)` matches nothing) and its parameters, for
    an `IN (…)` list."""
    params = {f"{prefix}{index}": value for index, value in enumerate(values)}
    return ", ".join(f":{name}" for name in params) or "NULL", params
