"""Rounds of the mail sender on a real outbox (SMTP replaced in-process): each due message is
sent once and recorded sent; a failed one waits for its retry and is not tried before; a
message leased by one sender is not taken by another; a failure at the last attempt is final."""

from __future__ import annotations

import asyncio
from email.message import EmailMessage
from typing import Any

import aiosmtplib
import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.services.mail import sender
from commerce_agent.commerce.storage import mail as storage
from tests.support.lifecycle_support import mug_order

pytestmark = pytest.mark.both_backends


def mail_sender(app: Starlette) -> sender.MailSender:
    return sender.MailSender(app.state.db, sender.SmtpTarget("smtp://mail.example"),
                             "shop@example.com", retry_base=30.0)


def smtp(monkeypatch: pytest.MonkeyPatch, failure: Exception | None = None,
         gate: asyncio.Event | None = None) -> list[EmailMessage]:
    sent: list[EmailMessage] = []

    async def send(message: EmailMessage, **options: Any) -> None:
        if gate is not None:
            await gate.wait()
        if failure is not None:
            raise failure
        sent.append(message)

    monkeypatch.setattr(aiosmtplib, "send", send)
    return sent


async def rows(app: Starlette) -> list[dict[str, Any]]:
    found = await app.state.db.fetch_all(
        "SELECT id, to_address, status, attempts, last_error, next_attempt_at "
        "FROM mail_messages ORDER BY created_at, id")
    return [dict(row) for row in found]


async def test_a_round_sends_each_due_message_once(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    placed = await mug_order(client, alice)
    queued = await storage.for_order(app.state.db, placed["id"])
    assert queued and all(row["status"] == "pending" for row in queued)
    sent = smtp(monkeypatch)
    made = mail_sender(app)
    assert await made.round() == len(queued)
    assert sorted(str(message["To"]) for message in sent) == \
        sorted(str(row["to_address"]) for row in queued)
    assert all(message["From"] == "shop@example.com" for message in sent)
    after = await rows(app)
    assert {row["status"] for row in after} == {"sent"}
    assert all(row["attempts"] == 1 and row["last_error"] is None for row in after)
    assert await made.round() == 0  # nothing left to send
    assert len(sent) == len(queued)


async def test_a_failed_message_waits_for_its_retry(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    await mug_order(client, alice)
    smtp(monkeypatch, aiosmtplib.SMTPConnectError("refused"))
    made = mail_sender(app)
    tried = await made.round()
    assert tried >= 1
    after = await rows(app)
    assert {row["status"] for row in after} == {"pending"}
    now = clock.now_iso()
    assert all(row["next_attempt_at"] > now for row in after)
    assert all(str(row["last_error"]).startswith("SMTPConnectError") for row in after)
    assert await made.round() == 0  # not due yet
    # Once due, it is tried again and sent.
    async with app.state.db.transaction() as tx:
        await tx.execute("UPDATE mail_messages SET next_attempt_at = :now", {"now": now})
    sent = smtp(monkeypatch)
    assert await made.round() == tried
    assert len(sent) == tried
    assert all(row["status"] == "sent" and row["attempts"] == 2 for row in await rows(app))


async def test_a_leased_message_is_not_taken_by_another_sender(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    await mug_order(client, alice)
    gate = asyncio.Event()
    sent = smtp(monkeypatch, gate=gate)
    first = asyncio.create_task(mail_sender(app).round())
    async with asyncio.timeout(10):
        while not (await app.state.db.fetch_all(
                "SELECT id FROM mail_messages WHERE locked_until IS NOT NULL")):
            await asyncio.sleep(0.01)
    assert await mail_sender(app).round() == 0
    gate.set()
    tried = await first
    assert tried >= 1 and len(sent) == tried
    assert {row["status"] for row in await rows(app)} == {"sent"}


async def test_the_last_attempt_fails_for_good(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    await mug_order(client, alice)
    async with app.state.db.transaction() as tx:
        await tx.execute("UPDATE mail_messages SET attempts = :n",
                         {"n": sender.MAX_ATTEMPTS - 1})
    smtp(monkeypatch, TimeoutError())
    made = mail_sender(app)
    assert await made.round() >= 1
    after = await rows(app)
    assert all(row["status"] == "failed" and row["next_attempt_at"] is None for row in after)
    assert all(row["attempts"] == sender.MAX_ATTEMPTS for row in after)
    assert all(row["last_error"] == "TimeoutError" for row in after)
    assert await made.round() == 0
