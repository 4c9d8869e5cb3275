"""The webhook outbox without a database: which subscriptions an event is queued for (named
events or "*"), the payload it is stored with, nothing stored when nobody listens, and what
an attempt's answer means for the delivery."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from commerce_agent.commerce.services.webhooks import subscriptions as webhooks
from commerce_agent.commerce.services.webhooks.sender import Attempt, Job


class _Outbox:
    """A transaction holding the owner's active subscriptions, keeping what is written."""

    def __init__(self, *subscriptions: tuple[str, list[str]]) -> None:
        self.active = [{"id": sid, "events": json.dumps(events)}
                       for sid, events in subscriptions]
        self.events: list[dict[str, Any]] = []
        self.deliveries: list[dict[str, Any]] = []
        self.notified: list[str] = []
        self.reads = 0

    async def fetch_all(self, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        assert "FROM webhook_subscriptions" in sql and params == {"owner": "user_a"}
        self.reads += 1
        return self.active

    async def defer(self, sql: str, params: dict[str, Any], **_: Any) -> None:
        if "INTO webhook_events" in sql:
            self.events.append(params)
        else:
            assert "INTO webhook_deliveries" in sql
            self.deliveries.append(params)

    def notify(self, topic: str) -> None:
        self.notified.append(topic)


async def _emit(tx: _Outbox, *events: webhooks.Event, store_id: str | None = None
                ) -> list[str | None]:
    return await webhooks.emit_all(tx, "user_a", list(events),  # type: ignore[arg-type]
                                   store_id=store_id)


async def test_nobody_listening_stores_nothing() -> None:
    tx = _Outbox()
    assert await _emit(tx, ("order.created", {"id": "o1"}, None)) == [None]
    assert (tx.events, tx.deliveries, tx.notified) == ([], [], [])


async def test_each_event_goes_to_the_subscriptions_that_want_it() -> None:
    tx = _Outbox(("wh_all", ["*"]), ("wh_created", ["order.created"]),
                 ("wh_refunds", ["refund.created"]))
    created, updated = await _emit(tx, ("order.created", {"id": "o1"}, None),
                                   ("order.updated", {"id": "o1", "n": 2}, {"id": "o1"}))
    assert created is not None and updated is not None and created != updated
    assert tx.reads == 1  # one read of the subscriptions for the whole change
    assert [(d["subscription"], d["event"]) for d in tx.deliveries] == [
        ("wh_all", created), ("wh_created", created), ("wh_all", updated)]
    assert tx.notified == [webhooks.OUTBOX, webhooks.OUTBOX]


async def test_an_event_nobody_wants_among_others_is_none() -> None:
    tx = _Outbox(("wh_refunds", ["refund.created"]))
    ids = await _emit(tx, ("order.created", {"id": "o1"}, None),
                      ("refund.created", {"id": "r1"}, None))
    assert ids[0] is None and ids[1] is not None
    assert [event["event"] for event in tx.events] == ["refund.created"]


async def test_the_payload_carries_previous_data_and_store_only_when_given() -> None:
    tx = _Outbox(("wh_all", ["*"]))
    [first] = await _emit(tx, ("order.updated", {"n": 2}, {"n": 1}), store_id="store_1")
    [second] = await _emit(tx, ("order.created", {"n": 1}, None))
    with_both, plain = (json.loads(event["body"]) for event in tx.events)
    assert with_both == {"id": first, "event": "order.updated", "data": {"n": 2},
                         "previousData": {"n": 1}, "storeId": "store_1",
                         "timestamp": with_both["timestamp"]}
    assert set(plain) == {"id", "event", "data", "timestamp"} and plain["id"] == second
    assert tx.events[0]["store"] == "store_1" and tx.events[1]["store"] is None


async def test_an_event_the_server_does_not_send_is_a_bug_not_a_delivery() -> None:
    with pytest.raises(AssertionError):
        await _emit(_Outbox(("wh_all", ["*"])), ("order.exploded", {}, None))


def _attempt(status: int | None, attempts: int = 0) -> Attempt:
    job = Job("whd_1", "wh_1", "https://example.com/hook", "evt_1", "order.created", b"{}",
              attempts)
    at = datetime(2030, 1, 1, tzinfo=UTC)
    return Attempt(job, at, at, status, None if status else "ConnectError", None)


@pytest.mark.parametrize(("status", "outcome"), [
    (200, "delivered"), (204, "delivered"), (299, "delivered"), (410, "gone"),
    (300, "retry"), (404, "retry"), (500, "retry"), (199, "retry"), (None, "retry")])
def test_what_an_answer_means(status: int | None, outcome: str) -> None:
    assert _attempt(status).outcome == outcome


def test_the_last_attempt_fails_for_good_unless_delivered_or_gone() -> None:
    last = webhooks.MAX_ATTEMPTS - 1
    assert _attempt(503, last).number == webhooks.MAX_ATTEMPTS
    assert _attempt(503, last).outcome == "failed"
    assert _attempt(None, last).outcome == "failed"
    assert _attempt(200, last).outcome == "delivered"
    assert _attempt(410, last).outcome == "gone"
    assert _attempt(503, last - 1).outcome == "retry"


def _delivery(status: str) -> dict[str, Any]:
    return {"id": "whd_1", "subscription_id": "wh_1", "event_id": "evt_1",
            "event": "order.created", "store_id": None, "status": status, "attempts": 2,
            "next_attempt_at": "2030-01-01T00:05:00Z", "last_status": 503,
            "last_error": None, "created_at": "2030-01-01T00:00:00Z", "delivered_at": None}


def test_a_delivery_shows_its_next_attempt_only_while_pending() -> None:
    attempts = [{"attempt": 1, "attempted_at": "t1", "status_code": 503, "error": None,
                 "duration_ms": 12}]
    pending = webhooks.render_delivery(_delivery("pending"), attempts)  # type: ignore[arg-type]
    assert pending["nextAttemptAt"] == "2030-01-01T00:05:00Z"
    assert pending["attemptLog"] == [{"attempt": 1, "attemptedAt": "t1", "statusCode": 503,
                                      "error": None, "durationMs": 12}]
    for status in ("delivered", "failed", "cancelled"):
        assert webhooks.render_delivery(_delivery(status), [])["nextAttemptAt"] is None  # type: ignore[arg-type]
