"""Lists page by key (commerce/pagination.py): pages of any size concatenate to the whole list
in order, with no row twice and none missed, also while rows are inserted between pages; old
offset cursors still work; totals are counted up to a cap."""

from __future__ import annotations

import base64
import itertools
import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request

from commerce_agent.commerce import pagination
from commerce_agent.commerce.shop import merchants
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.db import Database, Row
from tests.support.admin_support import CERAMICS, EBOOKS, merchant_headers

pytestmark = pytest.mark.both_backends



_owners = itertools.count()
_ids = itertools.count()
# Creation times drawn from few values, so that many orders share one (the id breaks ties).
STAMPS = st.integers(0, 15).map(lambda minute: f"2026-01-01T00:{minute:02d}:00.000Z")


def _order(created_at: str, status: str = "confirmed") -> dict[str, Any]:
    number = next(_ids)
    return {"id": f"ord_test_{number:08d}", "storeId": "store_ceramics", "status": status,
            "createdAt": created_at, "updatedAt": created_at,
            "items": [{"id": f"line_{number}", "itemId": "item_limited_glaze_mug",
                       "quantity": 1}]}


async def _insert(db: Database, owner: str, docs: list[dict[str, Any]]) -> None:
    async with db.transaction() as tx:
        await order_storage.insert_orders(tx, owner, docs)


def _request(limit: int, cursor: str | None) -> Request:
    query = f"limit={limit}" + (f"&cursor={cursor}" if cursor else "")
    return Request({"type": "http", "query_string": query.encode(), "headers": []})


async def _page(db: Database, owner: str, limit: int, cursor: str | None
                ) -> tuple[list[str], dict[str, Any]]:
    """One page as GET /orders reads it: the cursor decoded from the query, `limit + 1` rows
    read in the page's direction, the page and its cursors."""
    page = pagination.read_page(_request(limit, cursor), key=(str, str))
    rows = await order_storage.list_orders(db, owner, None, page.limit + 1, offset=page.offset,
                                           key=page.key, backward=page.backward)
    kept, info = pagination.keyed(page, rows, _key, None)
    return [row["id"] for row in kept], info


def _key(row: Row) -> tuple[str, str]:
    return row["created_at"], row["id"]


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stamps=st.lists(STAMPS, max_size=40), limit=st.integers(1, 12),
       inserted=st.lists(STAMPS, max_size=10))
async def test_pages_concatenate_to_the_list_also_while_rows_are_inserted(
        app: Starlette, stamps: list[str], limit: int, inserted: list[str]) -> None:
    db, owner = app.state.db, f"user_paging_{next(_owners)}"
    docs = [_order(stamp) for stamp in stamps]
    await _insert(db, owner, docs)
    expected = [doc["id"] for doc in sorted(docs, key=lambda doc: (doc["createdAt"], doc["id"]),
                                            reverse=True)]
    seen: list[str] = []
    cursor: str | None = None
    pending = list(inserted)
    for _ in range(len(docs) + len(inserted) + 2):
        ids, info = await _page(db, owner, limit, cursor)
        assert len(ids) <= limit
        seen += ids
        if pending:  # another order arrives between two pages, at any place in the list
            await _insert(db, owner, [_order(pending.pop())])
        cursor = info["nextCursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)), "a row came twice"
    original = [order_id for order_id in seen if order_id in set(expected)]
    assert original == expected, "rows present from the start were missed or out of order"


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stamps=st.lists(STAMPS, min_size=1, max_size=30), limit=st.integers(1, 8))
async def test_previous_cursors_walk_back_the_same_pages(
        app: Starlette, stamps: list[str], limit: int) -> None:
    db, owner = app.state.db, f"user_paging_{next(_owners)}"
    await _insert(db, owner, [_order(stamp) for stamp in stamps])
    forward: list[list[str]] = []
    infos = []
    cursor: str | None = None
    while True:
        ids, info = await _page(db, owner, limit, cursor)
        forward.append(ids)
        infos.append(info)
        cursor = info["nextCursor"]
        if cursor is None:
            break
    assert infos[0]["previousCursor"] is None
    backward = [forward[-1]]
    cursor = infos[-1]["previousCursor"]
    while cursor is not None:
        ids, info = await _page(db, owner, limit, cursor)
        backward.append(ids)
        cursor = info["previousCursor"]
    assert [order_id for ids in reversed(backward) for order_id in ids] == \
        [order_id for ids in forward for order_id in ids]


def _offset_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"o": offset}).encode()).decode().rstrip("=")


async def test_get_orders_pages_by_key_with_and_without_a_status(
        client: httpx.AsyncClient, app: Starlette, alice: dict[str, str]) -> None:
    headers, owner = alice, "user_alice"
    docs = [_order(f"2026-02-01T00:00:{second:02d}.000Z",
                   "completed" if second % 3 else "confirmed") for second in range(30)]
    await _insert(app.state.db, owner, docs)
    newest_first = [doc["id"] for doc in reversed(docs)]
    listed, cursor = [], None
    while True:
        body = (await client.get("/orders", params={"limit": 7, **({"cursor": cursor} if cursor
                                                                    else {})},
                                 headers=headers)).json()
        listed += [order["id"] for order in body["orders"]]
        assert body["pagination"]["totalCount"] == 30
        cursor = body["pagination"]["nextCursor"]
        if cursor is None:
            break
    assert listed == newest_first
    confirmed = (await client.get("/orders?status=confirmed&limit=4", headers=headers)).json()
    following = (await client.get("/orders", params={
        "status": "confirmed", "limit": 4, "cursor": confirmed["pagination"]["nextCursor"]},
        headers=headers)).json()
    wanted = [doc["id"] for doc in reversed(docs) if doc["status"] == "confirmed"]
    assert [order["id"] for order in confirmed["orders"] + following["orders"]] == wanted[:8]
    assert confirmed["pagination"]["totalCount"] == len(wanted)
    # A cursor of before keys (an offset) is still served, and answered with key cursors.
    old = (await client.get("/orders", params={"limit": 5, "cursor": _offset_cursor(10)},
                            headers=headers)).json()
    assert [order["id"] for order in old["orders"]] == newest_first[10:15]
    after = (await client.get("/orders", params={"limit": 5, "cursor": old["pagination"][
        "nextCursor"]}, headers=headers)).json()
    assert [order["id"] for order in after["orders"]] == newest_first[15:20]


@pytest.mark.parametrize("cursor", [
    base64.urlsafe_b64encode(b'{"a": [1, 2]}').decode(),  # a key of another shape
    base64.urlsafe_b64encode(b'{"a": ["x"]}').decode(),
    base64.urlsafe_b64encode(b'{"b": "x"}').decode(),
    base64.urlsafe_b64encode(b'{"o": -1}').decode(),
    base64.urlsafe_b64encode(b'{"z": 1}').decode(),
    "not a cursor"])
async def test_a_cursor_this_list_did_not_issue_is_refused(
        client: httpx.AsyncClient, alice: dict[str, str], cursor: str) -> None:
    response = await client.get("/orders", params={"cursor": cursor}, headers=alice)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


async def test_totals_are_counted_up_to_the_cap(
        client: httpx.AsyncClient, app: Starlette, alice: dict[str, str]) -> None:
    headers, owner = alice, "user_alice"
    await _insert(app.state.db, owner, [_order("2026-03-01T00:00:00.000Z")
                                        for _ in range(pagination.COUNT_CAP)])
    at_cap = (await client.get("/orders?limit=2", headers=headers)).json()["pagination"]
    assert at_cap["totalCount"] == pagination.COUNT_CAP and at_cap["nextCursor"]
    await _insert(app.state.db, owner, [_order("2026-03-01T00:00:01.000Z")])
    past = (await client.get("/orders?limit=2", headers=headers)).json()["pagination"]
    assert past["totalCount"] is None and past["nextCursor"]


async def test_a_merchant_s_orders_of_several_stores_page_as_one_list(
        client: httpx.AsyncClient, app: Starlette) -> None:
    headers = await merchant_headers(app, "two-shops@example.com", CERAMICS)
    await merchants.create(app.state.db, "two-shops@example.com", [CERAMICS, EBOOKS])
    docs = [{**_order(f"2026-04-01T00:00:{second:02d}.000Z", "confirmed"),
             "storeId": CERAMICS if second % 3 else EBOOKS} for second in range(25)]
    await _insert(app.state.db, "user_bob", docs)
    newest_first = [doc["id"] for doc in reversed(docs)]
    listed, cursor = [], None
    while True:
        body = (await client.get("/admin/orders", params={"limit": 4, **(
            {"cursor": cursor} if cursor else {})}, headers=headers)).json()
        listed += [order["id"] for order in body["orders"]]
        cursor = body["pagination"]["nextCursor"]
        if cursor is None:
            break
    assert [order_id for order_id in listed if order_id in set(newest_first)] == newest_first
    one = (await client.get(f"/admin/orders?storeId={EBOOKS}&limit=100", headers=headers)
           ).json()["orders"]
    assert [order["id"] for order in one] == [
        doc["id"] for doc in reversed(docs) if doc["storeId"] == EBOOKS]
