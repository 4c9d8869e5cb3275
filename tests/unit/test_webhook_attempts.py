"""One webhook delivery attempt (`Sender.attempt`) against in-process receivers: what each
answer or failure records (status, error text, Retry-After), that a long answer is cut off
without failing the delivery, that the request is signed for the subscription, and which
outcome each attempt has (delivered, gone, retried, given up)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import cast

import httpx
import pytest

from commerce_agent.commerce.services.webhooks import signing
from commerce_agent.commerce.services.webhooks.sender import (
    MAX_RESPONSE_BYTES,
    Attempt,
    Job,
    Sender,
)
from commerce_agent.commerce.services.webhooks.subscriptions import MAX_ATTEMPTS
from commerce_agent.db import Database

KEY = "server-signing-key-for-tests"
BODY = json.dumps({"id": "evt_1", "type": "order.created", "data": {"id": "ord_1"}}).encode()


def job(attempts: int = 0, url: str = "https://receiver.example/hook") -> Job:
    return Job("dlv_1", "sub_1", url, "evt_1", "order.created", BODY, attempts)


def sender(handler: httpx.MockTransport, timeout: float = 5.0) -> Sender:
    # attempt() reads no database: the sender is given none (and a poll, so it asks none).
    made = Sender(cast(Database, None), httpx.AsyncClient(transport=handler), retry_base=1.0,
                  timeout=timeout, poll=1.0)
    made._key = KEY
    return made


def answering(status: int, content: bytes = b"", headers: dict[str, str] | None = None
              ) -> httpx.MockTransport:
    return httpx.MockTransport(lambda request: httpx.Response(status, content=content,
                                                              headers=headers))


async def test_a_2xx_answer_is_delivered_without_an_error() -> None:
    made = await sender(answering(204)).attempt(job())
    assert made.status_code == 204 and made.error is None
    assert made.outcome == "delivered" and made.number == 1
    assert made.finished_at >= made.attempted_at


async def test_a_long_answer_is_read_only_up_to_the_limit_and_still_delivered() -> None:
    made = await sender(answering(200, b"x" * (MAX_RESPONSE_BYTES * 3))).attempt(job())
    assert made.status_code == 200 and made.error is None and made.outcome == "delivered"


async def test_a_5xx_answer_is_retried_with_its_status_as_the_error() -> None:
    made = await sender(answering(503)).attempt(job(attempts=2))
    assert made.status_code == 503 and made.error == "HTTP 503"
    assert made.outcome == "retry" and made.number == 3
    assert made.retry_after is None


async def test_retry_after_of_the_answer_is_kept() -> None:
    made = await sender(answering(429, headers={"Retry-After": "30"})).attempt(job())
    assert made.error == "HTTP 429" and made.retry_after == 30.0


async def test_a_redirect_is_not_followed_and_counts_as_a_failure() -> None:
    seen: list[str] = []

    def redirect(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(302, headers={"Location": "https://elsewhere.example/"})

    made = await sender(httpx.MockTransport(redirect)).attempt(job())
    assert made.status_code == 302 and made.error == "HTTP 302" and made.outcome == "retry"
    assert seen == ["https://receiver.example/hook"]


async def test_410_gone_is_its_own_outcome() -> None:
    made = await sender(answering(410)).attempt(job())
    assert made.outcome == "gone" and made.error == "HTTP 410"


async def test_a_connection_error_is_recorded_by_name_and_message() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    made = await sender(httpx.MockTransport(refuse)).attempt(job())
    assert made.status_code is None
    assert made.error == "ConnectError: connection refused"
    assert made.outcome == "retry"


async def test_an_unexpected_error_is_recorded_and_the_delivery_kept() -> None:
    def broken(request: httpx.Request) -> httpx.Response:
        raise RuntimeError("receiver adapter bug")

    made = await sender(httpx.MockTransport(broken)).attempt(job())
    assert made.status_code is None and made.error == "RuntimeError: receiver adapter bug"
    assert made.outcome == "retry"


async def test_an_error_without_a_message_is_named_by_its_type_and_long_ones_are_cut() -> None:
    def silent(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadError("", request=request)

    assert (await sender(httpx.MockTransport(silent)).attempt(job())).error == "ReadError"

    def verbose(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadError("x" * 2000, request=request)

    error = (await sender(httpx.MockTransport(verbose)).attempt(job())).error
    assert error is not None and len(error) == 500 and error.startswith("ReadError: xxx")


async def test_no_answer_within_the_timeout_is_a_failed_attempt() -> None:
    async def hang(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200)

    made = await sender(httpx.MockTransport(hang), timeout=0.05).attempt(job())
    assert made.status_code is None and made.error == "no answer within 0.05 s"
    assert (made.finished_at - made.attempted_at).total_seconds() < 2


async def test_the_request_carries_the_body_and_the_subscriptions_signature() -> None:
    received: list[httpx.Request] = []

    def keep(request: httpx.Request) -> httpx.Response:
        received.append(request)
        return httpx.Response(200)

    await sender(httpx.MockTransport(keep)).attempt(job())
    [request] = received
    assert request.method == "POST" and request.content == BODY
    secret = signing.derive_secret(KEY, "sub_1")
    assert signing.verify(secret, BODY, request.headers) == "evt_1"
    other = signing.derive_secret(KEY, "sub_2")
    with pytest.raises(signing.SignatureError, match="does not match"):
        signing.verify(other, BODY, request.headers)


# --- outcomes ---------------------------------------------------------------------------------

def attempt(status: int | None, attempts: int) -> Attempt:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Attempt(job(attempts), at, at, status, None if status == 200 else "x", None)


@pytest.mark.parametrize(("status", "attempts", "outcome"), [
    (200, 0, "delivered"),
    (299, MAX_ATTEMPTS - 1, "delivered"),  # the last attempt may still succeed
    (410, 0, "gone"),
    (410, MAX_ATTEMPTS - 1, "gone"),
    (500, 0, "retry"),
    (None, MAX_ATTEMPTS - 2, "retry"),
    (500, MAX_ATTEMPTS - 1, "failed"),
    (None, MAX_ATTEMPTS - 1, "failed"),
    (300, MAX_ATTEMPTS - 1, "failed"),
])
def test_the_outcome_of_an_attempt(status: int | None, attempts: int, outcome: str) -> None:
    assert attempt(status, attempts).outcome == outcome
