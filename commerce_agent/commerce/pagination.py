"""`limit` + opaque `cursor` paging shared by every list endpoint."""

from __future__ import annotations

import base64
import json
from typing import Any

import msgspec
from starlette.requests import Request

from commerce_agent.errors import validation_error
from commerce_agent.http import query_int


class Page(msgspec.Struct, frozen=True):
    limit: int
    offset: int


def _encode(offset: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"o": offset}).encode()).decode().rstrip("=")


def read_page(request: Request) -> Page:
    limit = query_int(request, "limit", 20, 1, 100)
    cursor = request.query_params.get("cursor")
    if cursor is None or cursor == "":
        return Page(limit, 0)
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        offset = json.loads(base64.urlsafe_b64decode(padded.encode()))["o"]
        if not isinstance(offset, int) or offset < 0:
            raise ValueError
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise validation_error("cursor", "is not a cursor this server issued", cursor) from None
    return Page(limit, offset)


def pagination(page: Page, total: int) -> dict[str, Any]:
    next_offset = page.offset + page.limit
    previous = max(page.offset - page.limit, 0) if page.offset > 0 else None
    return {
        "limit": page.limit,
        "nextCursor": _encode(next_offset) if next_offset < total else None,
        "previousCursor": _encode(previous) if previous is not None else None,
        "totalCount": total,
    }


def next_link(request: Request, page: Page, total: int) -> str | None:
    """An RFC 8288 Link header for the next page (used where the body must stay an array)."""
    info = pagination(page, total)
    if info["nextCursor"] is None:
        return None
    url = request.url.include_query_params(cursor=info["nextCursor"], limit=page.limit)
    return f'<{url}>; rel="next"'
