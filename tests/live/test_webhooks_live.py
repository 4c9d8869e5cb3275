"""Webhooks against real `commerce-agent serve` processes: a server killed (SIGKILL) while its
deliveries wait for retries sends each of them, after a restart, exactly once."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

import httpx
import pytest
from standardwebhooks import Webhook

from tests.support.elsewhere import read_all
from tests.support.helpers import buy
from tests.support.live import LiveServer, start_live_server, user_token
from tests.support.webhooks import Answer, Receiver

pytestmark = pytest.mark.both_backends

HARD_TIMEOUT = 60.0
ORDERS = 3
ARGS = ["--no-simulate", "--webhook-retry-base", "0.2", "--webhook-timeout", "2"]


def outbox(db_path: str) -> tuple[dict[str, bytes], list[str]]:
    """(event id → stored body, status of every delivery), read from the server's database."""
    events = {row["id"]: bytes(row["body"])
              for row in read_all(db_path, "SELECT id, body FROM webhook_events")}
    statuses = [row["status"] for row in read_all(db_path,
                                                  "SELECT status FROM webhook_deliveries")]
    return events, statuses


async def test_a_killed_server_delivers_every_event_once_after_restart(
        servers: list[LiveServer], make_db: Callable[[str], str]) -> None:
    db_path = make_db("hooks.db")
    async with asyncio.timeout(HARD_TIMEOUT), Receiver(Answer(503)) as receiver:
        server = await asyncio.to_thread(start_live_server, db_path, ARGS)
        servers.append(server)
        token = await asyncio.to_thread(user_token, db_path)
        alice = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
            created = await client.post("/webhooks", headers=alice,
                                        json={"url": receiver.url, "events": ["*"]})
            assert created.status_code == 201, created.text
            secret = created.json()["secret"]
            for _ in range(ORDERS):
                await buy(client, alice)
        events, _ = outbox(db_path)
        assert len(events) == 2 * ORDERS  # order.created and order.confirmed each
        # Every event has been tried (and refused) at least once; then the crash.
        await receiver.wait_for(lambda found: {r.event["id"] for r in found} == set(events))
        await asyncio.to_thread(server.kill)
        _, statuses = outbox(db_path)
        assert statuses == ["pending"] * len(events)
        receiver.default = Answer(200)
        restarted = await asyncio.to_thread(start_live_server, db_path, ARGS)
        servers.append(restarted)
        while outbox(db_path)[1] != ["delivered"] * len(events):
            await asyncio.sleep(0.05)
    accepted = receiver.accepted()
    assert Counter(request.event["id"] for request in accepted) == Counter(set(events))
    for request in accepted:
        assert request.body == events[request.event["id"]]
        assert request.headers["webhook-id"] == request.event["id"]
        assert Webhook(secret).verify(request.body, request.headers) == request.event
    refused = {request.event["id"] for request in receiver.requests if request.status == 503}
    assert refused == set(events)
