"""The one rule for a URL the server stores and later renders or sends: tracking links, a
carrier's website, store links and policies, images, webhook endpoints.

A client puts such a URL in an `href` or `src`, so it must be an absolute http(s) URL with a
host, or (where a document links within this server, as catalog `href`s do) a path from its
root. Anything else — `javascript:`, `data:`, `//elsewhere`, spaces and control characters,
a backslash browsers read as a slash — is refused where it is stored, whichever way in it came
(admin API, catalog import, sample data, CLI, webhooks), so nothing stored can run in a page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

MAX_URL = 2048
# Keys whose string value is a link, in the documents of docs/sample-data.md and in orders.
LINK_KEYS = frozenset({"url", "href", "src", "website", "link", "image", "logo", "icon",
                       "returnPolicy", "refundPolicy", "shippingPolicy", "privacyPolicy",
                       "termsOfService", "contactPolicy"})
LINK_SUFFIXES = ("Url", "URL", "Uri", "Href")


def url_problem(value: Any, *, relative: bool = False) -> str | None:
    """Why `value` cannot be stored as a link (None: it can). `relative` also accepts a path
    from this server's root (`/items/x`)."""
    if not isinstance(value, str):
        return "must be a URL (text)"
    if len(value) > MAX_URL:
        return f"must be at most {MAX_URL} characters"
    if "\\" in value or any(char.isspace() or not char.isprintable() for char in value):
        return "must not contain spaces, backslashes or control characters"
    if relative and value.startswith("/") and not value.startswith("//"):
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https"):
        return "must be an http(s) URL" + (" or a path from this server's root" if relative
                                           else "")
    try:
        host = parts.hostname
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:
        return "has an invalid host or port"
    if not host:
        return "must name a host"
    return None


def is_link_key(key: str) -> bool:
    return key in LINK_KEYS or key.endswith(LINK_SUFFIXES)


def document_link_problems(doc: Any, pointer: str = "") -> list[tuple[str, str, str]]:
    """(JSON pointer, reason, value) for every link in `doc` that url_problem refuses: each
    string under a link key, or in a list under one (an image gallery of URLs)."""
    found: list[tuple[str, str, str]] = []
    stack: list[tuple[Any, str, bool]] = [(doc, pointer, False)]
    while stack:
        node, where, link = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                name = str(key)
                stack.append((value, f"{where}/{name.replace('~', '~0').replace('/', '~1')}",
                              is_link_key(name)))
        elif isinstance(node, list):
            stack.extend((value, f"{where}/{index}", link) for index, value in enumerate(node))
        elif link and isinstance(node, str):
            reason = url_problem(node, relative=True)
            if reason:
                found.append((where, reason, node))
    return sorted(found)
