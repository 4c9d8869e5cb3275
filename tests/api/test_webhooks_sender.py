"""The webhook sender against real receivers on 127.0.0.1: signatures, retries and backoff,
Retry-After, 410 deactivation, giving up, redirects, timeouts, refused connections,
redelivery, the delivery log, leases between two senders, and restarts."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import socket
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest
from standardwebhooks import Webhook, WebhookVerificationError
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.services.webhooks import signing as webhook_signing
from commerce_agent.commerce.services.webhooks import subscriptions as webhooks
from commerce_agent.commerce.services.webhooks.sender import retry_after_seconds, retry_delay
from commerce_agent.commerce.storage import webhooks as storage
from commerce_agent.db import Database, database_for
from commerce_agent.settings import Settings
from tests.support.app import running
from tests.support.helpers import assert_error, buy
from tests.support.webhooks import (
    HARD_TIMEOUT,
    Answer,
    Receiver,
    deliveries,
    quick,
    settled,
    stored_events,
    subscribe,
)

pytestmark = pytest.mark.both_backends


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return quick(settings)


async def wait_rows(app: Starlette, subscription_id: str, ready: Any
                    ) -> list[dict[str, Any]]:
    """Poll the subscription's outbox rows until `ready(rows)`, within the hard timeout."""
    async with asyncio.timeout(HARD_TIMEOUT):
        while not ready(rows := await deliveries(app.state.db, subscription_id)):
            await asyncio.sleep(0.02)
    return rows


async def make_due(app: Starlette, delivery_id: str, **columns: Any) -> None:
    """Bring a waiting retry forward (and change other columns), waking the sender."""
    async with app.state.db.transaction() as tx:
        sets = ", ".join(f"{name} = :{name}" for name in columns)
        await tx.execute(
            f"UPDATE webhook_deliveries SET next_attempt_at = :now{', ' if sets else ''}{sets} "  # noqa: S608
            "WHERE id = :id", {"now": clock.now_iso(), "id": delivery_id, **columns})
        tx.notify(webhooks.OUTBOX)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- signatures -------------------------------------------------------------------------------

async def test_deliveries_verify_with_standardwebhooks_and_plain_hmac(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    async with Receiver() as receiver:
        hook = await subscribe(client, alice, receiver.url)
        await buy(client, alice)
        requests = await receiver.wait_for(lambda found: len(found) >= 2)
    secret = hook["secret"]
    stored = await stored_events(app.state.db)
    for request in requests:
        payload = Webhook(secret).verify(request.body, request.headers)
        assert payload == request.event and request.body == stored[payload["id"]][1]
        expected = hmac.new(secret.encode(), request.body, hashlib.sha256).hexdigest()
        assert request.headers["x-commerce-webhook-signature"] == expected
        assert webhook_signing.verify(secret, request.body, request.headers) == payload["id"]
        assert request.headers["x-commerce-webhook-timestamp"] == \
            request.headers["webhook-timestamp"]
        assert request.headers["user-agent"] == webhook_signing.USER_AGENT
        with pytest.raises(WebhookVerificationError):
            Webhook(secret).verify(request.body.replace(b"order", b"Order"), request.headers)
    other = (await subscribe(client, alice, "https://example.com/other"))["secret"]
    with pytest.raises(WebhookVerificationError):
        Webhook(other).verify(requests[0].body, requests[0].headers)


# --- retries ----------------------------------------------------------------------------------

async def test_failures_back_off_then_deliver(app: Starlette, client: httpx.AsyncClient,
                                              alice: dict[str, str],
                                              settings: Settings) -> None:
    async with Receiver() as receiver:
        receiver.queue = [Answer(503), Answer(500, {"Connection": "close"}), Answer(200)]
        hook = await subscribe(client, alice, receiver.url, ["order.created"])
        await buy(client, alice)
        [row] = await settled(app, hook["id"], 1)
    assert row["status"] == "delivered" and row["attempts"] == 3
    assert [request.status for request in receiver.requests] == [503, 500, 200]
    assert len({request.body for request in receiver.requests}) == 1
    assert len({request.headers["webhook-id"] for request in receiver.requests}) == 1
    log = (await client.get(f"/webhooks/{hook['id']}/deliveries", headers=alice)).json()
    [delivery] = log["deliveries"]
    assert delivery["status"] == "delivered" and delivery["attempts"] == 3
    assert delivery["lastStatusCode"] == 200 and delivery["lastError"] is None
    assert delivery["nextAttemptAt"] is None and delivery["deliveredAt"]
    attempts = delivery["attemptLog"]
    assert [attempt["statusCode"] for attempt in attempts] == [503, 500, 200]
    assert [attempt["error"] for attempt in attempts] == ["HTTP 503", "HTTP 500", None]
    base = settings.webhook_retry_base_seconds
    for number, (earlier, later) in enumerate(zip(attempts, attempts[1:], strict=False), 1):
        gap = clock.parse(later["attemptedAt"]) - clock.parse(earlier["attemptedAt"])
        assert gap >= timedelta(seconds=base * 2 ** (number - 1))  # never sooner


def _http_date(seconds: float) -> str:
    return format_datetime(datetime.now(UTC) + timedelta(seconds=seconds), usegmt=True)


@pytest.mark.parametrize(("retry_after", "expected"), [
    ("3600", 3600), ("http-date", 7200), ("999999", 6 * 3600)])
async def test_retry_after_sets_the_next_attempt(app: Starlette, client: httpx.AsyncClient,
                                                 alice: dict[str, str], retry_after: str,
                                                 expected: int) -> None:
    if retry_after == "http-date":
        retry_after = _http_date(expected)
    async with Receiver(Answer(429, {"Retry-After": retry_after})) as receiver:
        hook = await subscribe(client, alice, receiver.url, ["order.created"])
        await buy(client, alice)
        [row] = await wait_rows(app, hook["id"], lambda rows: rows and rows[0]["attempts"])
    assert row["status"] == "pending" and row["last_status"] == 429
    log = (await client.get(f"/webhooks/{hook['id']}/deliveries", headers=alice)).json()
    [attempt] = log["deliveries"][0]["attemptLog"]
    wait = clock.parse(row["next_attempt_at"]) - clock.parse(attempt["attemptedAt"])
    assert timedelta(seconds=expected - 2) <= wait <= timedelta(seconds=expected + 3)


def test_retry_schedule() -> None:
    delays = [retry_delay(attempts, 10.0) for attempts in range(1, 17)]
    assert delays[:5] == [10, 20, 40, 80, 160]
    assert delays[-1] == 6 * 3600 and max(delays) == 6 * 3600
    assert retry_delay(3, 10.0, retry_after=5.0) == 5.0
    assert retry_delay(3, 10.0, retry_after=10 ** 9) == 6 * 3600
    assert retry_delay(10 ** 6, 10.0) == 6 * 3600


def test_retry_after_forms() -> None:
    now = datetime(2030, 1, 1, 12, tzinfo=UTC)
    assert retry_after_seconds("120", now) == 120
    assert retry_after_seconds(" 0 ", now) == 0
    assert retry_after_seconds("Tue, 01 Jan 2030 12:05:00 GMT", now) == 300
    assert retry_after_seconds("Tue, 01 Jan 2030 11:00:00 GMT", now) == 0  # in the past
    assert retry_after_seconds("99999999", now) == 6 * 3600
    for unusable in (None, "", "soon", "-5", "1.5", "٣"):
        assert retry_after_seconds(unusable, now) is None


async def test_gone_deactivates_the_subscription(settings: Settings) -> None:
    async with running(settings, webhook_retry_base_seconds=3600) as (app, client, alice), \
            Receiver(Answer(503)) as receiver:
        hook = await subscribe(client, alice, receiver.url)
        await buy(client, alice)
        first, second = await wait_rows(
            app, hook["id"], lambda rows: len(rows) == 2 and all(r["attempts"] for r in rows))
        receiver.default = Answer(410)
        await make_due(app, first["id"])
        shown = await wait_rows(app, hook["id"], lambda rows: rows[0]["status"] != "pending")
        assert shown[0]["status"] == "failed" and shown[0]["last_status"] == 410
        assert shown[1]["status"] == "cancelled" and shown[1]["next_attempt_at"] is None
        read = (await client.get(f"/webhooks/{hook['id']}", headers=alice)).json()
        assert read["active"] is False and "410" in read["deactivatedReason"]
        assert (await client.get("/webhooks", headers=alice)).json()["webhooks"] == []
        listed = (await client.get("/webhooks?includeInactive=true", headers=alice)).json()
        assert [entry["id"] for entry in listed["webhooks"]] == [hook["id"]]
        response = await client.post(
            f"/webhooks/{hook['id']}/deliveries/{first['id']}/redeliver", headers=alice)
        assert assert_error(response, 409, "webhook_inactive")["userMessage"]["params"] == {
            "id": hook["id"]}
        await buy(client, alice)
        # Nothing more is queued.
        assert len(await deliveries(app.state.db, hook["id"])) == 2
        assert len(receiver.requests) == 3


async def test_gives_up_after_the_last_attempt(settings: Settings) -> None:
    async with running(settings, webhook_retry_base_seconds=3600) as (app, client, alice), \
            Receiver(Answer(503)) as receiver:
        hook = await subscribe(client, alice, receiver.url, ["order.created"])
        await buy(client, alice)
        [row] = await wait_rows(app, hook["id"], lambda rows: rows and rows[0]["attempts"])
        await make_due(app, row["id"], attempts=webhooks.MAX_ATTEMPTS - 1)
        [row] = await wait_rows(app, hook["id"], lambda rows: rows[0]["status"] != "pending")
    assert row["status"] == "failed" and row["attempts"] == webhooks.MAX_ATTEMPTS
    assert row["next_attempt_at"] is None and row["last_error"] == "HTTP 503"
    assert len(receiver.requests) == 2


async def test_redirects_timeouts_and_refused_connections_are_retried(
        settings: Settings) -> None:
    async with running(settings, webhook_retry_base_seconds=3600,
                       webhook_timeout_seconds=0.3) as (app, client, alice), \
            Receiver(Answer(302, {"Location": "/elsewhere"})) as redirecting, \
            Receiver(Answer(hang=True)) as silent:
        hooks = [await subscribe(client, alice, url, ["order.created"])
                 for url in (redirecting.url, silent.url,
                             f"http://127.0.0.1:{closed_port()}/hook")]
        await buy(client, alice)
        rows = [(await wait_rows(app, hook["id"], lambda found: found and found[0]["attempts"]))
                [0] for hook in hooks]
        assert [request.path for request in redirecting.requests] == ["/hook"]
    assert all(row["status"] == "pending" for row in rows)
    assert rows[0]["last_status"] == 302 and rows[0]["last_error"] == "HTTP 302"
    assert rows[1]["last_status"] is None and rows[1]["last_error"] == "no answer within 0.3 s"
    assert rows[2]["last_status"] is None and "ConnectError" in rows[2]["last_error"]


# --- redelivery and the log -------------------------------------------------------------------

async def test_redeliver_sends_the_same_event_again(app: Starlette, client: httpx.AsyncClient,
                                                    alice: dict[str, str]) -> None:
    async with Receiver() as receiver:
        hook = await subscribe(client, alice, receiver.url, ["order.created"])
        other = await subscribe(client, alice, "https://example.com/x", ["order.created"])
        await buy(client, alice)
        [original] = await settled(app, hook["id"], 1)
        path = f"/webhooks/{hook['id']}/deliveries/{original['id']}/redeliver"
        headers = {**alice, "Idempotency-Key": "again-1"}
        response = await client.post(path, headers=headers)
        assert response.status_code == 202, response.text
        again = response.json()
        assert again["id"] != original["id"] and again["eventId"] == original["event_id"]
        assert again["status"] == "pending" and again["attempts"] == 0
        assert again["attemptLog"] == [] and again["event"] == "order.created"
        replay = await client.post(path, headers=headers)
        assert replay.json() == again and replay.headers["idempotent-replayed"] == "true"
        requests = await receiver.wait_for(lambda found: len(found) == 2)
        await settled(app, hook["id"], 2)
    assert requests[0].body == requests[1].body
    assert requests[0].headers["webhook-id"] == requests[1].headers["webhook-id"] == \
        original["event_id"]
    page = (await client.get(f"/webhooks/{hook['id']}/deliveries?limit=1",
                             headers=alice)).json()
    assert [entry["id"] for entry in page["deliveries"]] == [again["id"]]  # newest first
    assert page["pagination"]["totalCount"] == 2
    cursor = page["pagination"]["nextCursor"]
    rest = (await client.get(f"/webhooks/{hook['id']}/deliveries?limit=1&cursor={cursor}",
                             headers=alice)).json()
    assert [entry["id"] for entry in rest["deliveries"]] == [original["id"]]
    assert rest["deliveries"][0]["status"] == "delivered"
    missing = await client.post(f"/webhooks/{hook['id']}/deliveries/whd_nope/redeliver",
                                headers=alice)
    assert_error(missing, 404, "webhook_delivery_not_found")
    [elsewhere] = await deliveries(app.state.db, other["id"])
    wrong = await client.post(f"/webhooks/{hook['id']}/deliveries/{elsewhere['id']}/redeliver",
                              headers=alice)
    assert_error(wrong, 404, "webhook_delivery_not_found")
    bad = await client.get(f"/webhooks/{hook['id']}/deliveries?limit=101", headers=alice)
    assert assert_error(bad, 400, "bad_request")["details"][0]["field"] == "limit"


# --- leases, restarts, a failing cycle ----------------------------------------------------------

async def _outbox(path: str, count: int) -> Database:
    db = database_for(path, synchronous="OFF")
    await db.open()
    now = clock.now_iso()
    async with db.transaction() as tx:
        await storage.insert_subscription(tx, {"id": "wh_1", "owner": "user_alice",
                                               "url": "https://example.com", "events": '["*"]',
                                               "description": None, "metadata": "{}",
                                               "at": now})
        await storage.insert_event(tx, {"id": "evt_1", "owner": "user_alice", "store": None,
                                        "event": "order.created", "body": b"{}", "at": now})
        for index in range(count):
            await storage.insert_delivery(tx, {"id": f"whd_{index}", "subscription": "wh_1",
                                               "event": "evt_1", "at": now})
    return db


async def test_a_leased_delivery_is_claimed_once(make_db: Callable[[str], str]) -> None:
    path = make_db("outbox.db")
    db = await _outbox(path, 1)
    try:
        now, lease = clock.now(), clock.later_iso(15)
        async with db.transaction() as tx:
            [row] = await storage.claim(tx, clock.iso(now), lease, 10)
            assert bytes(row["body"]) == b"{}" and row["url"] == "https://example.com"
            assert await storage.claim(tx, clock.iso(now), lease, 10) == []
        assert await storage.next_due(db, clock.iso(now)) is None  # leased: not due here
        after_lease = clock.iso(now + timedelta(seconds=16))
        assert await storage.next_due(db, after_lease) is not None
        async with db.transaction() as tx:  # its sender died: another takes it over
            assert len(await storage.claim(tx, after_lease, clock.later_iso(40), 10)) == 1
            attempt = {"id": "whd_0", "attempt": 1, "attempted_at": clock.now_iso(),
                       "status_code": 200, "error": None, "duration_ms": 3,
                       "outcome": "delivered", "next": None, "at": clock.now_iso()}
            assert await storage.record_attempt(tx, attempt) is True
            assert await storage.record_attempt(tx, attempt) is False  # recorded once
    finally:
        await db.close()


async def test_two_senders_never_claim_the_same_delivery(
        make_db: Callable[[str], str]) -> None:
    path = make_db("outbox.db")
    first = await _outbox(path, 40)
    second = database_for(path, synchronous="OFF")
    await second.open()
    try:
        async def take(db: Database) -> set[str]:
            taken: set[str] = set()
            for _ in range(10):
                async with db.transaction() as tx:
                    rows = await storage.claim(tx, clock.now_iso(), clock.later_iso(15), 3)
                taken |= {str(row["id"]) for row in rows}
                await asyncio.sleep(0)
            return taken

        one, two = await asyncio.gather(take(first), take(second))
    finally:
        await first.close()
        await second.close()
    assert one and two and not one & two and len(one | two) == 40


async def test_pending_deliveries_are_sent_after_a_restart(settings: Settings
                                                           ) -> None:
    async with Receiver(Answer(503)) as receiver:
        async with running(settings, webhook_retry_base_seconds=0.2) as (app, client, alice):
            hook = await subscribe(client, alice, receiver.url)
            await buy(client, alice)
            await receiver.wait_for(lambda found: len(found) >= 2)
        stopped = database_for(settings.db_path, synchronous="OFF")
        await stopped.open()
        try:
            rows = await deliveries(stopped, hook["id"])
        finally:
            await stopped.close()
        assert {row["status"] for row in rows} == {"pending"}
        assert all(row["locked_until"] is None for row in rows)  # leases given back
        receiver.default = Answer(200)
        async with running(settings) as (app, _, _):
            rows = await settled(app, hook["id"], 2)
            stored = await stored_events(app.state.db)
    assert {row["status"] for row in rows} == {"delivered"}
    accepted = receiver.accepted()
    assert sorted(request.event["id"] for request in accepted) == sorted(stored)


async def test_a_failing_cycle_does_not_stop_the_sender(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    real_claim = storage.claim
    failures: list[int] = []

    async def flaky(*args: Any) -> Any:
        if not failures:
            failures.append(1)
            raise RuntimeError("disk on fire")
        return await real_claim(*args)

    monkeypatch.setattr(storage, "claim", flaky)
    async with Receiver() as receiver:
        hook = await subscribe(client, alice, receiver.url, ["order.created"])
        await buy(client, alice)
        [row] = await settled(app, hook["id"], 1)
    assert row["status"] == "delivered" and failures == [1]
    assert "cycle failed" in caplog.text

