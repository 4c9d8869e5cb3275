"""The mail sender: delivers pending outbox rows through SMTP (aiosmtplib) when `--smtp` is set.

Each round leases a few due rows (storage.mail.claim), sends each, and records sent, pending
(retry after retry_base * 2**attempts, capped at 6 h) or, after MAX_ATTEMPTS, failed. Without
`--smtp` no sender runs: the messages stay pending, readable in GET /admin/mail. The password
of the SMTP URL is never logged (errors are recorded without it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

import aiosmtplib
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.background import running
from commerce_agent.commerce.storage import mail as storage
from commerce_agent.db import Database, Row

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BATCH = 10
LEASE_SECONDS = 120.0
POLL_SECONDS = 1.0
MAX_DELAY = 6 * 3600.0


class SmtpTarget:
    """Where and how to send, parsed from smtp://user:pass@host:port (smtps:// for TLS)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("--smtp must be smtp://[user:pass@]host[:port] or smtps://…")
        self.implicit_tls = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.implicit_tls else 587)
        self.username = unquote(parts.username) if parts.username else None
        self._password = unquote(parts.password) if parts.password else None

    def __repr__(self) -> str:
        user = f"{self.username}:***@" if self.username else ""
        return f"SmtpTarget({'smtps' if self.implicit_tls else 'smtp'}://{user}{self.host}:" \
               f"{self.port})"

    def options(self) -> dict[str, Any]:
        return {"hostname": self.host, "port": self.port, "username": self.username,
                "password": self._password, "use_tls": self.implicit_tls,
                "start_tls": None if not self.implicit_tls else False, "timeout": 30}


def message(row: Row, sender: str) -> EmailMessage:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = sender, str(row["to_address"]), row["subject"]
    mail.set_content(str(row["body"]))
    return mail


class MailSender:
    def __init__(self, db: Database, target: SmtpTarget, sender: str, retry_base: float
                 ) -> None:
        self.db, self.target, self.sender, self.retry_base = db, target, sender, retry_base

    async def round(self) -> int:
        """Send the due messages of one lease; returns how many were tried."""
        async with self.db.transaction() as tx:
            rows = await storage.claim(tx, clock.now_iso(), clock.later_iso(LEASE_SECONDS),
                                       BATCH)
        for row in rows:
            await self._send(row)
        return len(rows)

    async def _send(self, row: Row) -> None:
        attempt = int(row["attempts"]) + 1
        outcome: dict[str, Any] = {"id": row["id"], "attempt": attempt, "error": None,
                                   "next": None, "status": "sent"}
        try:
            await aiosmtplib.send(message(row, self.sender), **self.target.options())
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as error:
            # A timeout has no text: "TimeoutError", not "TimeoutError: " (as webhooks).
            reason = (f"{type(error).__name__}: {error}" if str(error)
                      else type(error).__name__)[:500]
            log.warning("mail %s to %r not sent (attempt %d): %s", row["id"], self.target,
                        attempt, reason)
            outcome["error"] = reason
            if attempt >= MAX_ATTEMPTS:
                outcome["status"] = "failed"
            else:
                delay = min(self.retry_base * 2 ** (attempt - 1), MAX_DELAY)
                outcome["status"], outcome["next"] = "pending", clock.later_iso(delay)
        async with self.db.transaction() as tx:
            await storage.record(tx, {**outcome, "at": clock.now_iso()})

    async def run(self) -> None:
        while True:
            try:
                tried = await self.round()
            except Exception:  # a database outage: try again on the next round
                log.exception("mail sender round failed")
                tried = 0
            if not tried:
                await asyncio.sleep(POLL_SECONDS)


@contextlib.asynccontextmanager
async def mail_sender_worker(app: Starlette) -> AsyncIterator[None]:
    """Background worker for create_app: sends the outbox while the app runs (with --smtp)."""
    settings = app.state.settings
    if not settings.smtp:
        yield
        return
    sender = MailSender(app.state.db, SmtpTarget(settings.smtp), settings.mail_from,
                        settings.mail_retry_base_seconds)
    async with running(sender.run()):
        yield
