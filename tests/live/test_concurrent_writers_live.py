"""What replaced "one writer at a time" on PostgreSQL, proven across live processes on one store
(both backends; SQLite's writers still take turns, so there these are the baseline):

- the same paid order sent with one Idempotency-Key to every process at once makes one order,
  and every other answer is its replay;
- concurrent changes of one order, made through several processes at once, reach a stream
  opened on another process numbered without a gap, in order, each once;
- a process killed in the middle of a burst of paid orders loses none it answered 201."""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest

from tests.support.helpers import US_ADDRESS, add_item, confirm_fiat, new_cart, payment_header
from tests.support.live import LiveServer, cli
from tests.support.multiprocess import bearer, one_value, start_servers
from tests.support.sse import watch

pytestmark = pytest.mark.both_backends
HARD_TIMEOUT = 120.0
QUIET = ["--no-simulate"]
PLATE = "item_stoneware_dinner_plate"  # 120 in stock: enough for every test here


@pytest.fixture
def processes() -> int:
    """Four server processes, as tests/live/test_multiprocess_live.py."""
    return 4


async def paid_order_request(client: httpx.AsyncClient, headers: dict[str, str],
                             quantity: int = 1) -> tuple[dict[str, Any], dict[str, str]]:
    """(body, headers with X-PAYMENT) of a plate order whose sandbox payment is confirmed."""
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], PLATE, quantity)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    required = await client.post("/orders", json=body, headers=headers)
    assert required.status_code == 402, required.text
    intent = (await confirm_fiat(client, required.json())).json()["paymentIntentId"]
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    return body, {**headers, "X-PAYMENT": proof}


async def clients_for(stack: AsyncExitStack, servers: list[LiveServer], db_target: str,
                      count: int) -> list[httpx.AsyncClient]:
    started = await start_servers(db_target, count, QUIET)
    servers.extend(started)
    return [await stack.enter_async_context(httpx.AsyncClient(base_url=server.url, timeout=60))
            for server in started]


async def test_one_idempotency_key_sent_to_every_process_at_once_makes_one_order(
        db_target: str, servers: list[LiveServer], processes: int) -> None:
    alice = await bearer(db_target)
    async with AsyncExitStack() as stack, asyncio.timeout(HARD_TIMEOUT):
        clients = await clients_for(stack, servers, db_target, processes)
        body, headers = await paid_order_request(clients[0], alice)
        keyed = {**headers, "Idempotency-Key": "one-order-please"}
        answers = await asyncio.gather(*(client.post("/orders", json=body, headers=keyed)
                                         for client in clients * 3))
    assert [answer.status_code for answer in answers] == [201] * len(answers), \
        [answer.text for answer in answers if answer.status_code != 201]
    assert len({answer.json()["id"] for answer in answers}) == 1
    replayed = Counter(answer.headers.get("idempotent-replayed") for answer in answers)
    assert replayed == {None: 1, "true": len(answers) - 1}
    assert await one_value(db_target, "SELECT COUNT(*) FROM orders WHERE cart_id = :c",
                           {"c": body["cartId"]}) == 1


async def merchant(db_target: str) -> dict[str, str]:
    await asyncio.to_thread(cli, "merchant", "create", "--email", "owner@ceramics.example",
                            "--store", "store_ceramics", "--password", "long-enough-1",
                            "--db", db_target)
    return await bearer(db_target, "owner@ceramics.example")


async def test_concurrent_changes_of_one_order_reach_a_stream_elsewhere_gap_free_in_order(
        db_target: str, servers: list[LiveServer], processes: int) -> None:
    alice, owner = await bearer(db_target), await merchant(db_target)
    returns = 8
    async with AsyncExitStack() as stack, asyncio.timeout(HARD_TIMEOUT):
        clients = await clients_for(stack, servers, db_target, processes)
        writers, watching = clients[:-1] or clients, clients[-1]
        body, headers = await paid_order_request(clients[0], alice, quantity=returns)
        placed = await clients[0].post("/orders", json=body, headers=headers)
        assert placed.status_code == 201, placed.text
        order_id = placed.json()["id"]
        # Live: the merchant moves the order on through every other process at once (each
        # move waits for the one before on the order's row): processing, shipped, delivered.
        async with watch(watching, order_id, alice) as stream:
            first = int((await stream.next()).id or 0)
            moves = await asyncio.gather(*(
                writers[index % len(writers)].post(f"/admin/orders/{order_id}/advance",
                                                   headers=owner, json={})
                for index in range(3)))
            assert [move.status_code for move in moves] == [200] * 3, \
                [move.text for move in moves]
            live = [await stream.next(timeout=15) for _ in range(3)]
        assert [int(event.id or 0) for event in live] == list(range(first + 1, first + 4))
        while (await watching.get(f"/orders/{order_id}", headers=alice)).json()["status"] \
                != "completed":
            await asyncio.to_thread(cli, "orders", "advance", order_id, "--db", db_target)
        completed_at = await one_value(
            db_target, "SELECT MAX(seq) FROM order_events WHERE order_id = :o", {"o": order_id})
        # Replayed: one return per plate, all at once; a stream resuming from the last event
        # seen, on another process, gets each of them once, numbered in order.
        line = placed.json()["items"][0]["id"]
        answers = await asyncio.gather(*(
            writers[index % len(writers)].post("/returns", headers=alice, json={
                "orderId": order_id,
                "items": [{"cartItemId": line, "quantity": 1, "reason": "damaged"}]})
            for index in range(returns)))
        assert [answer.status_code for answer in answers] == [201] * returns, \
            [answer.text for answer in answers if answer.status_code != 201]
        async with watch(watching, order_id, alice, str(completed_at)) as stream:
            replayed = []
            while (event := await stream.next(timeout=15)).event != "close":
                replayed.append(event)
    assert [int(event.id or 0) for event in replayed] == \
        list(range(completed_at + 1, completed_at + 1 + returns))
    assert await one_value(db_target, "SELECT MAX(seq) FROM order_events WHERE order_id = :o",
                           {"o": order_id}) == completed_at + returns


async def test_a_process_killed_mid_burst_loses_no_order_it_answered_201(
        db_target: str, servers: list[LiveServer]) -> None:
    alice = await bearer(db_target)
    async with AsyncExitStack() as stack, asyncio.timeout(HARD_TIMEOUT):
        victim_client, survivor = await clients_for(stack, servers, db_target, 2)
        victim = servers[-2]
        prepared = [await paid_order_request(survivor, alice) for _ in range(40)]

        async def place(body: dict[str, Any], headers: dict[str, str]) -> httpx.Response | None:
            try:
                return await victim_client.post("/orders", json=body, headers=headers)
            except httpx.HTTPError:
                return None  # cut off by the kill: no answer, no promise

        burst = [asyncio.create_task(place(body, headers)) for body, headers in prepared]
        while sum(task.done() for task in burst) < 5:
            await asyncio.sleep(0.005)
        victim.process.send_signal(signal.SIGKILL)
        answers = await asyncio.gather(*burst)
        victim.process.wait()
        answered = [answer.json()["id"] for answer in answers
                    if answer is not None and answer.status_code == 201]
        assert answered, "no order was answered before the kill"
        for order_id in answered:
            kept = await survivor.get(f"/orders/{order_id}", headers=alice)
            assert kept.status_code == 200, (order_id, kept.text)
    assert len(answered) <= await one_value(db_target, "SELECT COUNT(*) FROM orders")
