"""`limit` + opaque `cursor` paging shared by every list endpoint.

Two kinds of cursor (docs/decisions.md, "Lists page by key"):
- a key: the sort key of the row a page ended (`{"a": [...]}`, rows after it) or began
  (`{"b": [...]}`, rows before it). Lists read in an index (orders, admin items and orders,
  catalog items) issue these: a page costs the same however deep it is, and rows inserted
  while a client pages neither repeat nor push rows past it.
- an offset (`{"o": n}`): what every list issued before keys, still accepted everywhere (a
  keyed list serves it once, by offset, and answers with key cursors). Search of one word by
  relevance pages by key too, in (tier, key in the index) order; several words or another
  sort rank every match and issue offsets.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request

from commerce_agent.errors import validation_error
from commerce_agent.http import query_int

# Totals are counted up to this many rows: past it, `totalCount` is null (a count of every
# row would cost, on every page, what the rows of the whole list cost).
COUNT_CAP = 1000

Row = TypeVar("Row")
Key = tuple[Any, ...]


class Page(msgspec.Struct, frozen=True):
    limit: int
    offset: int = 0
    key: Key | None = None  # a key cursor's row
    backward: bool = False  # rows before `key` (a previousCursor), else after it


def _encode(cursor: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(cursor).encode()).decode().rstrip("=")


def _key(value: Any, types: Sequence[type]) -> Key:
    if not isinstance(value, list) or len(value) != len(types) or not all(
            type(part) is kind for part, kind in zip(value, types, strict=True)):
        raise ValueError
    return tuple(value)


def read_page(request: Request, key: Sequence[type] = ()) -> Page:
    """The request's page; `key` gives the types of the list's sort key where it has one (a
    key cursor of another list, or of another shape, is refused with 400)."""
    limit = query_int(request, "limit", 20, 1, 100)
    cursor = request.query_params.get("cursor")
    if cursor is None or cursor == "":
        return Page(limit)
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        decoded = json.loads(base64.urlsafe_b64decode(padded.encode()))
        if not isinstance(decoded, dict) or len(decoded) != 1:
            raise ValueError
        (kind, value), = decoded.items()
        if kind == "o":
            if type(value) is not int or value < 0:
                raise ValueError
            return Page(limit, offset=value)
        if kind not in ("a", "b") or not key:
            raise ValueError
        return Page(limit, key=_key(value, key), backward=kind == "b")
    except (ValueError, TypeError, UnicodeDecodeError):
        raise validation_error("cursor", "is not a cursor this server issued", cursor) from None


def total_count(counted: int) -> int | None:
    """A count made with `LIMIT COUNT_CAP + 1` as `totalCount`: null when past the cap."""
    return counted if counted <= COUNT_CAP else None


def pagination(page: Page, total: int | None, more: bool | None = None) -> dict[str, Any]:
    """Offset cursors, for a list read by offset: `more` says whether rows follow the page
    (by default, whether `total` goes past it)."""
    next_offset = page.offset + page.limit
    previous = max(page.offset - page.limit, 0) if page.offset > 0 else None
    if more is None:
        more = total is None or next_offset < total
    return {
        "limit": page.limit,
        "nextCursor": _encode({"o": next_offset}) if more else None,
        "previousCursor": _encode({"o": previous}) if previous is not None else None,
        "totalCount": total,
    }


def keyed(page: Page, rows: Sequence[Row], key_of: Callable[[Row], Key],
          total: int | None) -> tuple[list[Row], dict[str, Any]]:
    """The page's rows in list order, and its pagination, from up to `page.limit + 1` rows read
    in the page's direction (one more than the page tells whether the list goes on)."""
    more = len(rows) > page.limit
    kept = list(rows[:page.limit])
    if page.backward:
        kept.reverse()
    if not kept:
        return kept, {"limit": page.limit, "nextCursor": None, "previousCursor": None,
                      "totalCount": total}
    before = more if page.backward else page.key is not None or page.offset > 0
    after = page.backward or more
    return kept, {
        "limit": page.limit,
        "nextCursor": _encode({"a": list(key_of(kept[-1]))}) if after else None,
        "previousCursor": _encode({"b": list(key_of(kept[0]))}) if before else None,
        "totalCount": total,
    }


def next_link(request: Request, page: Page, total: int) -> str | None:
    """An RFC 8288 Link header for the next page (used where the body must stay an array)."""
    info = pagination(page, total)
    if info["nextCursor"] is None:
        return None
    url = request.url.include_query_params(cursor=info["nextCursor"], limit=page.limit)
    return f'<{url}>; rel="next"'
