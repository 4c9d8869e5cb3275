"""Live server processes on one store (a SQLite file, or a PostgreSQL database): started
together on an empty store they migrate and seed it once; no oversell between them; an
order-updates stream on one hears a change made through the other; one delivery per webhook
event although both run senders; the simulator moves each order once; and an agent turn running
on one streams through the other."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from contextlib import AsyncExitStack, ExitStack
from typing import Any

import httpx
import pytest

from commerce_agent.client import AgentClient, Session
from commerce_agent.commerce.services.fulfillment import plans as fulfillment
from commerce_agent.seed import load_stores
from tests.support.agent_support import drop_redis_keys, journal_spec
from tests.support.helpers import (
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    buy,
    confirm_fiat,
    new_cart,
    payment_header,
)
from tests.support.live import LiveServer
from tests.support.multiprocess import bearer, one_value, opened_store, start_servers
from tests.support.pg import fresh_database, require_postgres
from tests.support.sse import watch
from tests.support.webhooks import Answer, Receiver

pytestmark = pytest.mark.both_backends
HARD_TIMEOUT = 90.0
QUIET = ["--no-simulate"]
PLATE = "item_stoneware_dinner_plate"  # 120 in stock: enough for every test here


@pytest.fixture
def processes() -> int:
    """How many server processes share the store: four, twice the build machine's cores, so
    requests interleave as much as they can (a run with two as well added minutes, no case)."""
    return 4


async def several(db_target: str, servers: list[LiveServer], count: int,
                  args: list[str] | None = None) -> list[httpx.AsyncClient]:
    """`count` servers on the store (stopped after the test) and a client for each."""
    started = await start_servers(db_target, count, args or QUIET)
    servers.extend(started)
    return [httpx.AsyncClient(base_url=server.url, timeout=30) for server in started]


async def ready_to_pay(client: httpx.AsyncClient, headers: dict[str, str]
                       ) -> tuple[dict[str, Any], dict[str, str]]:
    """A cart with one limited mug and a confirmed sandbox payment: (order body, headers
    carrying X-PAYMENT), as in test_concurrency."""
    cart = await new_cart(client, headers)
    await add_item(client, headers, cart["id"], LIMITED_MUG, 1)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    required = await client.post("/orders", json=body, headers=headers)
    assert required.status_code == 402, required.text
    intent = (await confirm_fiat(client, required.json())).json()["paymentIntentId"]
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    return body, {**headers, "X-PAYMENT": proof}


async def test_processes_starting_together_on_an_empty_store_migrate_and_seed_it_once(
        backend: str, tmp_path: os.PathLike[str]) -> None:
    with ExitStack() as stack:
        if backend == "postgres":
            require_postgres()
            target = stack.enter_context(fresh_database("template0"))  # not even migrated
        else:
            target = os.path.join(tmp_path, "empty.db")
        started = await start_servers(target, 3, QUIET)
        try:
            async with httpx.AsyncClient(timeout=30) as http:
                listed = [(await http.get(f"{server.url}/stores")).json()["stores"]
                          for server in started]
        finally:
            for server in started:
                server.stop()
        assert all(server.process.returncode == 0 for server in started)
        assert listed[0] == listed[1] == listed[2]
        assert len(listed[0]) == len(load_stores())
        async with opened_store(target) as database:
            versions = [row["version"] for row in await database.fetch_all(
                "SELECT version FROM schema_migrations")]
            stores = await database.fetch_one("SELECT COUNT(*) AS n FROM stores")
        assert versions and len(versions) == len(set(versions))
        assert stores is not None and stores["n"] == len(load_stores())


async def test_fifty_paid_orders_through_several_processes_take_exactly_ten(
        db_target: str, servers: list[LiveServer], processes: int) -> None:
    clients = await several(db_target, servers, processes)
    users = [await bearer(db_target, email) for email in
             ("alice@example.com", "bob@example.com", "carol@example.com")]
    async with AsyncExitStack() as stack, asyncio.timeout(HARD_TIMEOUT):
        for client in clients:
            await stack.enter_async_context(client)
        prepared = [(clients[index % processes],
                     *await ready_to_pay(clients[index % processes], users[index % 3]))
                    for index in range(50)]
        # Each order is placed through another process than the one that prepared it.
        responses = await asyncio.gather(*(
            clients[(index + 1) % processes].post("/orders", json=body, headers=headers)
            for index, (_, body, headers) in enumerate(prepared)))
    statuses = Counter(response.status_code for response in responses)
    assert statuses[201] == 10, statuses
    assert all(response.json()["code"] in {"insufficient_stock", "order_items_unavailable"}
               for response in responses if response.status_code != 201)
    assert await one_value(db_target, "SELECT quantity FROM stock WHERE item_id = :i "
                                  "AND variant_id = ''", {"i": LIMITED_MUG}) == 0
    assert await one_value(db_target, "SELECT COUNT(*) FROM orders") == 10
    assert await one_value(db_target, "SELECT COUNT(*) FROM payment_intents "
                                  "WHERE status = 'consumed'") == 10


async def test_a_watcher_on_one_process_hears_a_change_made_through_the_other(
        db_target: str, servers: list[LiveServer], processes: int) -> None:
    clients = await several(db_target, servers, processes)
    one, other = clients[0], clients[-1]
    alice = await bearer(db_target)
    async with AsyncExitStack() as stack, asyncio.timeout(HARD_TIMEOUT):
        for client in clients:
            await stack.enter_async_context(client)
        order = await buy(one, alice)
        async with watch(other, order["id"], alice) as stream:
            snapshot = await stream.next()
            assert snapshot.event == "order.patch"
            cancelled = await one.post(f"/orders/{order['id']}/cancel", headers=alice)
            assert cancelled.status_code == 200, cancelled.text
            change = await stream.next(timeout=10)
        assert int(change.id or 0) == int(snapshot.id or 0) + 1
        assert {"op": "replace", "path": "/status", "value": "cancelled"} in change.patch


async def test_each_webhook_event_is_delivered_once_although_every_process_sends(
        db_target: str, servers: list[LiveServer], processes: int) -> None:
    args = ["--no-simulate", "--webhook-retry-base", "0.2", "--webhook-timeout", "5"]
    async with asyncio.timeout(HARD_TIMEOUT), Receiver() as receiver, \
            AsyncExitStack() as stack:
        # The first answers refuse, so that retries too are claimed by any sender.
        receiver.queue = [Answer(503)] * 6
        clients = await several(db_target, servers, processes, args)
        for client in clients:
            await stack.enter_async_context(client)
        one, other = clients[0], clients[-1]
        alice = await bearer(db_target)
        created = await one.post("/webhooks", headers=alice,
                                 json={"url": receiver.url, "events": ["*"]})
        assert created.status_code == 201, created.text
        hook = created.json()["id"]
        await asyncio.gather(*(buy(client, alice, PLATE)
                               for client in clients * (12 // processes)))
        while True:
            page = (await other.get(f"/webhooks/{hook}/deliveries",
                                    params={"limit": 100}, headers=alice)).json()
            deliveries = page["deliveries"]
            if len(deliveries) == 24 and all(
                    delivery["status"] == "delivered" for delivery in deliveries):
                break
            await asyncio.sleep(0.1)
    accepted = Counter(request.event["id"] for request in receiver.accepted())
    assert len(accepted) == 24  # order.created and order.confirmed of 12 orders
    assert set(accepted.values()) == {1}, accepted
    refused = [request for request in receiver.requests if request.status == 503]
    assert len(refused) == 6


async def test_the_simulator_moves_each_order_once_with_several_processes(
        db_target: str, servers: list[LiveServer], processes: int) -> None:
    clients = await several(db_target, servers, processes,
                            ["--simulate", "--simulate-speed", "2000"])
    one = clients[0]
    alice = await bearer(db_target)
    async with AsyncExitStack() as stack, asyncio.timeout(HARD_TIMEOUT):
        for client in clients:
            await stack.enter_async_context(client)
        orders = await asyncio.gather(*(buy(client, alice, PLATE)
                                        for client in clients * (8 // processes)))
        finals = []
        for order in orders:
            while (final := (await one.get(f"/orders/{order['id']}", headers=alice)).json()
                   )["status"] != "completed":
                await asyncio.sleep(0.05)
            finals.append(final)
    for final in finals:
        events = await one_value(db_target, "SELECT COUNT(*) FROM order_events "
                                        "WHERE order_id = :o", {"o": final["id"]})
        assert events == 1 + len(fulfillment.plan(final)), final["id"]


@pytest.mark.parametrize("journal", ["store", "redis"])
async def test_an_agent_turn_on_one_process_streams_through_the_other(
        db_target: str, journal: str, servers: list[LiveServer], processes: int,
        tmp_path: os.PathLike[str]) -> None:
    # `sqlite` names the journal kept in the store itself (its own table).
    spec = journal_spec("sqlite" if journal == "store" else journal, tmp_path)
    started = await start_servers(db_target, processes, ["--no-simulate", "--journal", spec,
                                                     "--agent-pace", "0.05"])
    servers.extend(started)
    try:
        async with AgentClient(started[0].url) as on_one, \
                AgentClient(started[-1].url) as on_two, asyncio.timeout(HARD_TIMEOUT):
            session = await on_one.create("find a ceramic mug under $20")
            elsewhere = Session(session.session_id, session.continuation_token)
            mirrored, live = await asyncio.gather(on_two.until_pause(elsewhere),
                                                  on_one.until_pause(session))
        assert mirrored == live
        assert [event["streamIndex"] for event in live] == list(range(len(live)))
        assert live[-1]["type"] == "session.waiting"
    finally:
        if spec.startswith("redis"):
            await drop_redis_keys(spec)
