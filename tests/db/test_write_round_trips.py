"""Fewer round trips per write, and every rule still the engine's (both backends):

- `tx.defer(…, check=)`: the check gets the statement's row count (rows changed, or rows a
  SELECT returned) before the write goes on, and a refusal rolls the whole write back;
- `tx.fetch_each`: independent reads, each one's rows, after the deferred statements;
- one sandbox payment sent with two orders at once pays one (the intent's conditional UPDATE
  and the spent proof's primary key, each checked);
- on PostgreSQL a paid order and an add-to-cart take the round trips docs/postgres.md states
  (counted at the driver), so a change that adds one is seen."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.helpers import (
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    confirm_fiat,
    new_cart,
    payment_header,
)

pytestmark = pytest.mark.both_backends


class Refused(Exception):
    pass


def _exactly_one(count: int) -> None:
    if count != 1:
        raise Refused(count)


async def test_a_deferred_statement_s_check_sees_its_row_count_and_can_refuse_the_write(
        app: Starlette) -> None:
    db = app.state.db
    seen: list[int] = []
    async with db.transaction() as tx:
        await tx.defer("UPDATE stores SET position = position WHERE id = :id",
                       {"id": "store_ceramics"}, check=seen.append)
        await tx.defer("SELECT id FROM stores WHERE id <> :id", {"id": "nothing"},
                       check=seen.append)
        rows = await tx.fetch_all("SELECT id FROM stores WHERE id = :id",
                                  {"id": "store_ceramics"})
    stores = await db.fetch_one("SELECT COUNT(*) AS n FROM stores")
    assert seen == [1, stores["n"]] and len(rows) == 1
    with pytest.raises(Refused):
        async with db.transaction() as tx:
            await tx.execute("UPDATE stores SET currency = :currency WHERE id = :id",
                             {"currency": "XXX", "id": "store_ceramics"})
            await tx.defer("UPDATE stores SET currency = currency WHERE id = :id", {"id": "none"},
                           check=_exactly_one)
            await tx.fetch_one("SELECT 1 AS one")
    # A check still pending at the end is run before COMMIT, and refuses it too.
    with pytest.raises(Refused):
        async with db.transaction() as tx:
            await tx.execute("UPDATE stores SET currency = :currency WHERE id = :id",
                             {"currency": "XXX", "id": "store_ceramics"})
            await tx.defer("UPDATE stores SET currency = currency WHERE id = :id", {"id": "none"},
                           check=_exactly_one)
    kept = await db.fetch_one("SELECT currency FROM stores WHERE id = 'store_ceramics'")
    assert kept["currency"] != "XXX"


async def test_reads_sent_together_each_get_their_rows_after_what_was_deferred(
        app: Starlette) -> None:
    db = app.state.db
    async with db.transaction() as tx:
        await tx.defer("UPDATE stores SET currency = :currency WHERE id = :id",
                       {"currency": "X%Y", "id": "store_ceramics"}, check=_exactly_one)
        named, counted, empty = await tx.fetch_each([
            ("SELECT currency FROM stores WHERE id = :id", {"id": "store_ceramics"}),
            ("SELECT COUNT(*) AS n FROM stores WHERE currency LIKE 'X%'", None),
            ("SELECT id FROM stores WHERE id = :id", {"id": "none"})])
        assert [row["currency"] for row in named] == ["X%Y"]  # sees the deferred write
        assert counted[0]["n"] == 1 and empty == []
        assert await tx.fetch_each([]) == []


async def test_one_payment_sent_with_two_orders_at_once_pays_one(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    bodies = []
    for _ in range(2):
        cart = await new_cart(client, alice)
        await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
        bodies.append({"cartId": cart["id"], "deliveryAddress": US_ADDRESS})
    required = await client.post("/orders", json=bodies[0], headers=alice)
    intent = (await confirm_fiat(client, required.json())).json()["paymentIntentId"]
    paid = {**alice, "X-PAYMENT": payment_header("fiat_intent", "sandbox",
                                                 {"paymentIntentId": intent})}
    answers = await asyncio.gather(*(client.post("/orders", json=body, headers=paid)
                                     for body in bodies))
    assert sorted(answer.status_code for answer in answers) == [201, 400]
    refused = next(answer for answer in answers if answer.status_code == 400).json()
    assert refused["details"][0]["reason"] == "already_used"
    listed = await client.get("/orders", headers=alice)
    assert len(listed.json()["orders"]) == 1


@contextmanager
def _round_trips() -> Iterator[list[str]]:
    """The statement texts sent to PostgreSQL meanwhile (one per round trip)."""
    import psycopg

    sent: list[str] = []
    execute, executemany = psycopg.AsyncCursor.execute, psycopg.AsyncCursor.executemany

    async def counted(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(str(query))
        return await execute(cursor, query, *args, **kwargs)

    async def counted_many(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(str(query))
        return await executemany(cursor, query, *args, **kwargs)

    psycopg.AsyncCursor.execute = counted  # type: ignore[method-assign]
    psycopg.AsyncCursor.executemany = counted_many  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        psycopg.AsyncCursor.execute = execute  # type: ignore[method-assign]
        psycopg.AsyncCursor.executemany = executemany  # type: ignore[method-assign]


async def test_a_paid_order_and_an_add_to_cart_take_the_documented_round_trips(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    if app.state.db.dialect != "postgresql":
        pytest.skip("round trips to a database server: PostgreSQL only")
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], LIMITED_MUG, 1)  # the token is kept now
    with _round_trips() as sent:
        await add_item(client, alice, cart["id"], "item_glazing_guide_ebook", 1)
    assert len(sent) == 2, sent
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    required = await client.post("/orders", json=body, headers=alice)
    intent = (await confirm_fiat(client, required.json())).json()["paymentIntentId"]
    paid = {**alice, "X-PAYMENT": payment_header("fiat_intent", "sandbox",
                                                 {"paymentIntentId": intent})}
    with _round_trips() as sent:
        placed = await client.post("/orders", json=body, headers=paid)
    assert placed.status_code == 201, placed.text
    assert len(sent) == 5, "\n".join(text[:150] for text in sent)
