"""Paging cursors as properties (hypothesis): every cursor a page issues reads back as the page
it points to, and anything else — a tampered, truncated or foreign cursor — is refused with 400,
never another error."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import Request

from commerce_agent.commerce import pagination
from commerce_agent.errors import CommerceError

# The sort keys lists use: (created-at text, id text), or (rank int, id text).
KEY_TYPES = st.sampled_from([(str, str), (int, str), (str,)])
LIMITS = st.integers(1, 100)


def request(cursor: str | None, limit: int | None = None) -> Request:
    """A GET of a list with these query parameters (read_page reads only the query)."""
    query = {key: value for key, value in (("cursor", cursor), ("limit", limit))
             if value is not None}
    return Request({"type": "http", "method": "GET", "path": "/orders", "headers": [],
                    "query_string": urlencode(query).encode()})


def key_of(types: tuple[type, ...]) -> st.SearchStrategy[tuple[Any, ...]]:
    parts = {str: st.text(max_size=30), int: st.integers(-(2**53), 2**53)}
    return st.tuples(*(parts[kind] for kind in types))


def refused(cursor: str, key: tuple[type, ...] = ()) -> CommerceError:
    with pytest.raises(CommerceError) as error:
        pagination.read_page(request(cursor), key)
    return error.value


@given(offset=st.integers(0, 10**9), limit=LIMITS, total=st.none() | st.integers(0, 10**9))
def test_offset_cursors_read_back_as_the_pages_they_point_to(offset: int, limit: int,
                                                            total: int | None) -> None:
    info = pagination.pagination(pagination.Page(limit, offset=offset), total)
    if info["nextCursor"] is not None:
        page = pagination.read_page(request(info["nextCursor"], limit))
        assert (page.offset, page.limit, page.key) == (offset + limit, limit, None)
    else:
        assert total is not None and offset + limit >= total
    if offset == 0:
        assert info["previousCursor"] is None
    else:
        page = pagination.read_page(request(info["previousCursor"], limit))
        assert page.offset == max(offset - limit, 0)


@given(data=st.data(), types=KEY_TYPES, limit=LIMITS, backward=st.booleans())
def test_key_cursors_read_back_as_the_rows_they_name(data: st.DataObject,
                                                    types: tuple[type, ...], limit: int,
                                                    backward: bool) -> None:
    rows = data.draw(st.lists(key_of(types), min_size=1, max_size=limit + 1, unique=True))
    after = data.draw(key_of(types))
    page = pagination.Page(limit, key=after, backward=backward)
    kept, info = pagination.keyed(page, rows, lambda row: row, None)
    assert kept == (list(reversed(rows[:limit])) if backward else rows[:limit])
    for name, row, direction in (("nextCursor", kept[-1], False),
                                 ("previousCursor", kept[0], True)):
        if info[name] is not None:
            read = pagination.read_page(request(info[name], limit), types)
            assert (read.key, read.backward, read.limit) == (row, direction, limit)
            # A key cursor of another list (another key shape) is not this list's cursor.
            other = (int,) if types != (int,) else (str,)
            assert refused(info[name], other).status == 400


@given(cursor=st.text(max_size=60), types=KEY_TYPES)
def test_any_other_text_is_refused_with_400(cursor: str, types: tuple[type, ...]) -> None:
    try:
        page = pagination.read_page(request(cursor), types)
    except CommerceError as error:
        assert (error.status, error.code) == (400, "bad_request")
        assert error.details[0]["field"] == "cursor"
        return
    # What was accepted is a well-formed cursor of this list.
    assert page.offset >= 0 and (page.key is None or len(page.key) == len(types))


@given(data=st.data(), offset=st.integers(0, 10**6), types=KEY_TYPES)
def test_a_tampered_cursor_is_refused_or_reads_as_a_valid_page(
        data: st.DataObject, offset: int, types: tuple[type, ...]) -> None:
    key = data.draw(key_of(types))
    issued = data.draw(st.sampled_from([
        pagination.pagination(pagination.Page(10, offset=offset), None)["nextCursor"],
        pagination.keyed(pagination.Page(1), [key, key], lambda row: row, None)[1]["nextCursor"],
    ]))
    position = data.draw(st.integers(0, len(issued) - 1))
    replacement = data.draw(st.sampled_from(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/!%"))
    tampered = issued[:position] + replacement + issued[position + 1:]
    cut = issued[:data.draw(st.integers(0, len(issued) - 1))]
    for cursor in (tampered, cut):
        try:
            page = pagination.read_page(request(cursor), types)
        except CommerceError as error:
            assert error.status == 400
            continue
        assert page.offset >= 0 and (page.key is None or len(page.key) == len(types))


@given(value=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                          lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=3), inner, max_size=3)),
       types=KEY_TYPES)
def test_json_that_is_not_a_cursor_is_refused(value: Any, types: tuple[type, ...]) -> None:
    encoded = base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")
    valid_offset = (isinstance(value, dict) and list(value) == ["o"]
                    and type(value["o"]) is int and value["o"] >= 0)
    valid_key = (isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("a", "b")
                 and isinstance(k := next(iter(value.values())), list)
                 and len(k) == len(types)
                 and all(type(part) is kind for part, kind in zip(k, types, strict=True)))
    if valid_offset or valid_key:
        pagination.read_page(request(encoded), types)
    else:
        assert refused(encoded, types).status == 400


@given(limit=st.text(max_size=6))
def test_a_limit_outside_1_to_100_is_refused(limit: str) -> None:
    try:
        page = pagination.read_page(Request({"type": "http", "method": "GET", "path": "/",
                                             "headers": [],
                                             "query_string": urlencode({"limit": limit}).encode()}))
    except CommerceError as error:
        assert error.status == 400 and error.details[0]["field"] == "limit"
        return
    assert 1 <= page.limit <= 100
