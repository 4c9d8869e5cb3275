"""What a `--db` value is: a postgresql:// (or postgres://) URL, or the path of a SQLite file;
and how to print it without its password. Imported by the backends and by what opens them."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


def display(target: str) -> str:
    """`target` safe to print: a URL's password is hidden."""
    if not is_postgres(target):
        return target
    parts = urlsplit(target)
    if parts.password is None:
        return target
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
