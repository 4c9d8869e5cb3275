"""The webhook sender: delivers the outbox (webhook_deliveries) to the subscribers' URLs.

One loop per process. It wakes when a commit queued deliveries (`Database.signal(OUTBOX)`: a
commit of this process, or on PostgreSQL of any process), when an attempt finishes, when the
next retry falls due, and at least every POLL_SECONDS (deliveries queued by other processes on
the same SQLite file; on PostgreSQL a safety net, Database.poll_seconds). Each cycle,
in one `BEGIN IMMEDIATE` transaction, it records the attempts that finished and claims due
deliveries by setting their lease, `locked_until` = now + timeout + LEASE_MARGIN_SECONDS: two
processes on one file never send the same delivery at once, and a delivery whose process died
mid-attempt is sent again once its lease has run out (after a restart too).

Attempts run concurrently (at most CONCURRENCY) on one shared httpx client that never follows
redirects. 2xx → delivered; 410 → the subscription is deactivated, this delivery failed and
its other pending deliveries cancelled; anything else (3xx, 4xx, 5xx, connection errors,
timeouts) → retried after base × 2^(attempts-1) seconds, or after the receiver's Retry-After,
both capped at 6 hours, until MAX_ATTEMPTS attempts have failed. The event id and body never
change between attempts. Delivery is at least once: receivers deduplicate by `webhook-id`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Literal

import httpx
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.auth.storage import signing_key
from commerce_agent.background import running
from commerce_agent.commerce.services.webhooks import signing
from commerce_agent.commerce.services.webhooks.subscriptions import (
    GONE_REASON,
    MAX_ATTEMPTS,
    MAX_DELAY_SECONDS,
    OUTBOX,
)
from commerce_agent.commerce.storage import webhooks as storage
from commerce_agent.db import Database, Transaction
from commerce_agent.digits import whole_number
from commerce_agent.tls import client_context

log = logging.getLogger(__name__)
POLL_SECONDS = 0.5
# Attempts in flight per process. httpcore scans every pooled connection on each request, so
# more connections cost CPU on every delivery (bench/webhooks.py); 16 still leaves room when a
# few receivers are slow to answer.
CONCURRENCY = 16
LEASE_MARGIN_SECONDS = 5.0
MAX_RESPONSE_BYTES = 64 * 1024  # read (and ignore) at most this much of an answer
SHUTDOWN_GRACE_SECONDS = 5.0
Outcome = Literal["delivered", "gone", "retry", "failed"]


@dataclass(frozen=True)
class Job:
    delivery_id: str
    subscription_id: str
    url: str
    event_id: str
    event: str
    body: bytes
    attempts: int  # attempts made before this one


@dataclass(frozen=True)
class Attempt:
    job: Job
    attempted_at: datetime
    finished_at: datetime
    status_code: int | None
    error: str | None
    retry_after: float | None

    @property
    def number(self) -> int:
        return self.job.attempts + 1

    @property
    def outcome(self) -> Outcome:
        code = self.status_code
        if code is not None and 200 <= code < 300:
            return "delivered"
        if code == 410:
            return "gone"
        return "failed" if self.number >= MAX_ATTEMPTS else "retry"


def retry_after_seconds(value: str | None, now: datetime) -> float | None:
    """A Retry-After header (delay-seconds or HTTP-date) as seconds from `now`, capped."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if (delay := whole_number(text)) is not None:
        seconds = float(delay)
    else:
        try:
            seconds = (parsedate_to_datetime(text) - now).total_seconds()
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    return min(max(seconds, 0.0), float(MAX_DELAY_SECONDS))


def retry_delay(attempts: int, base: float, retry_after: float | None = None) -> float:
    """Seconds until the next attempt after `attempts` failed ones."""
    if retry_after is not None:
        return min(retry_after, float(MAX_DELAY_SECONDS))
    return min(base * 2.0 ** min(attempts - 1, 64), float(MAX_DELAY_SECONDS))


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}"[:500] if text else type(exc).__name__


class Sender:
    def __init__(self, db: Database, client: httpx.AsyncClient, *, retry_base: float,
                 timeout: float, concurrency: int = CONCURRENCY,
                 poll: float | None = None) -> None:
        self.db = db
        if poll is None:
            poll = db.poll_seconds(POLL_SECONDS)
        self.client = client
        self.retry_base = retry_base
        self.timeout = timeout
        self.concurrency = concurrency
        self.poll = poll
        self._key: str | None = None
        self._secrets: dict[str, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._claimed: dict[str, Job] = {}  # leased here, outcome not yet recorded
        self._finished: list[Attempt] = []
        self._wake = asyncio.Event()
        self._writing: asyncio.Future[list[Job]] | None = None
        self._batch = max(1, concurrency // 4)

    async def run(self) -> None:
        while True:
            try:
                wait = await self.cycle()
            except Exception:  # never end the loop: what failed is tried again next cycle
                log.exception("webhook sender: cycle failed")
                wait = self.poll
            if wait > 0:
                await self._sleep(wait)

    async def cycle(self) -> float:
        """Record finished attempts and start due deliveries; returns seconds to wait."""
        self.db.signal(OUTBOX).clear()
        self._wake.clear()
        now = clock.now()
        finished = list(self._finished)
        free = self.concurrency - len(self._tasks)
        due = await storage.next_due(self.db, clock.iso(now)) if free > 0 else None
        claiming = due is not None and due <= clock.iso(now)
        if claiming and self._key is None:
            self._key = await signing_key(self.db, signing.KEY_NAME)
        if not finished and not claiming:
            return self.poll if due is None else min(
                self.poll, (clock.parse(due) - now).total_seconds())
        # Shielded: a stop arriving mid-commit must not lose track of what was just claimed.
        self._writing = asyncio.ensure_future(self._write(finished, now, free if claiming else 0))
        jobs = await asyncio.shield(self._writing)
        for job in jobs:
            task = asyncio.create_task(self._deliver(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return 0.0 if jobs or finished else self.poll

    async def _write(self, finished: list[Attempt], now: datetime, claim: int) -> list[Job]:
        """One transaction: record `finished`, lease up to `claim` due deliveries."""
        lease = clock.iso(now + timedelta(seconds=self.timeout + LEASE_MARGIN_SECONDS))
        async with self.db.transaction() as tx:
            for attempt in finished:
                await self._record(tx, attempt)
            rows = await storage.claim(tx, clock.iso(now), lease, claim) if claim else []
        del self._finished[:len(finished)]
        for attempt in finished:
            self._claimed.pop(attempt.job.delivery_id, None)
        jobs = [Job(str(row["id"]), str(row["subscription_id"]), str(row["url"]),
                    str(row["event_id"]), str(row["event"]), bytes(row["body"]),
                    int(row["attempts"])) for row in rows]
        self._claimed.update((job.delivery_id, job) for job in jobs)
        return jobs

    async def _sleep(self, seconds: float) -> None:
        waits = [asyncio.create_task(self.db.signal(OUTBOX).wait()),
                 asyncio.create_task(self._wake.wait())]
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    def _secret(self, subscription_id: str) -> str:
        assert self._key is not None
        found = self._secrets.get(subscription_id)
        if found is None:
            found = self._secrets[subscription_id] = signing.derive_secret(self._key,
                                                                           subscription_id)
        return found

    async def _deliver(self, job: Job) -> None:
        self._finished.append(await self.attempt(job))
        # Outcomes are recorded (and slots refilled) in batches: one commit for many attempts.
        # The last attempt in flight wakes the loop at once; the poll interval bounds the rest.
        # Attempts that ended in the same loop step are still in _tasks (their done callbacks
        # have not run yet): they count as finished, or the loop would sleep a whole interval.
        current = asyncio.current_task()
        running = sum(not task.done() for task in self._tasks if task is not current)
        if len(self._finished) >= self._batch or running == 0:
            self._wake.set()

    async def attempt(self, job: Job) -> Attempt:
        """POST the event once; never raises (every failure is the attempt's outcome)."""
        started, clock_started = clock.now(), time.monotonic()
        status: int | None = None
        error: str | None = None
        retry_after: float | None = None
        headers = signing.sign(self._secret(job.subscription_id), job.event_id, job.event,
                               job.body, started)
        try:
            async with asyncio.timeout(self.timeout):
                async with self.client.stream("POST", job.url, content=job.body,
                                              headers=headers) as response:
                    status = response.status_code
                    retry_after = retry_after_seconds(response.headers.get("retry-after"),
                                                      clock.now())
                    read = 0
                    async for chunk in response.aiter_raw():
                        read += len(chunk)
                        if read > MAX_RESPONSE_BYTES:
                            break
        except TimeoutError:
            error = f"no answer within {self.timeout:g} s"
        except httpx.HTTPError as exc:
            error = _describe(exc)
        except Exception as exc:  # a bug here must not lose the delivery: it is retried
            log.exception("webhook sender: attempt of %s failed", job.delivery_id)
            error = _describe(exc)
        if status is not None and not 200 <= status < 300:
            error = f"HTTP {status}"
        elapsed = time.monotonic() - clock_started
        return Attempt(job, started, started + timedelta(seconds=elapsed), status,
                       None if status is not None and 200 <= status < 300 else error,
                       retry_after)

    async def _record(self, tx: Transaction, attempt: Attempt) -> None:
        job, outcome, now = attempt.job, attempt.outcome, clock.now_iso()
        next_at = None
        if outcome == "retry":
            delay = retry_delay(attempt.number, self.retry_base, attempt.retry_after)
            next_at = clock.iso(attempt.finished_at + timedelta(seconds=delay))
        duration = (attempt.finished_at - attempt.attempted_at).total_seconds()
        recorded = await storage.record_attempt(tx, {
            "id": job.delivery_id, "attempt": attempt.number,
            "attempted_at": clock.iso(attempt.attempted_at), "status_code": attempt.status_code,
            "error": attempt.error, "duration_ms": round(duration * 1000),
            "outcome": {"retry": "pending", "gone": "failed"}.get(outcome, outcome),
            "next": next_at, "at": now})
        if not recorded:
            log.warning("webhook sender: attempt %d of %s was recorded elsewhere (lease ran "
                        "out)", attempt.number, job.delivery_id)
            return
        if outcome == "gone":
            log.warning("webhook sender: %s answered 410; subscription %s deactivated",
                        job.url, job.subscription_id)
            await storage.deactivate(tx, job.subscription_id, GONE_REASON, now)
            await storage.cancel_pending(tx, job.subscription_id, GONE_REASON, now)
        elif outcome == "failed":
            log.warning("webhook sender: giving up on delivery %s after %d attempts (%s)",
                        job.delivery_id, attempt.number, attempt.error)
        elif outcome == "retry":
            log.info("webhook sender: delivery %s attempt %d failed (%s); next at %s",
                     job.delivery_id, attempt.number, attempt.error, next_at)

    async def stop(self) -> None:
        """Let attempts in flight finish (briefly), record them, give back the other leases."""
        if self._writing is not None:
            await asyncio.gather(self._writing, return_exceptions=True)
        if self._tasks:
            await asyncio.wait(set(self._tasks),
                               timeout=min(self.timeout, SHUTDOWN_GRACE_SECONDS))
        for task in set(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        finished = {attempt.job.delivery_id for attempt in self._finished}
        unfinished = [delivery for delivery in self._claimed if delivery not in finished]
        if not self._finished and not unfinished:
            return
        try:
            async with self.db.transaction() as tx:
                for attempt in self._finished:
                    await self._record(tx, attempt)
                await storage.release(tx, unfinished)
        except Exception:  # the leases run out on their own; attempts are made again
            log.exception("webhook sender: recording at shutdown failed")
        self._finished.clear()
        self._claimed.clear()


@contextlib.asynccontextmanager
async def webhook_sender_worker(app: Starlette) -> AsyncIterator[None]:
    """Background worker for create_app: sends webhook deliveries while the app runs."""
    settings = app.state.settings
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)
    # trust_env=False: proxy variables of the server's environment must not reroute webhooks.
    async with httpx.AsyncClient(follow_redirects=False, limits=limits, trust_env=False,
                                 verify=client_context(trust_env=False),
                                 timeout=settings.webhook_timeout_seconds) as client:
        sender = Sender(app.state.db, client, retry_base=settings.webhook_retry_base_seconds,
                        timeout=settings.webhook_timeout_seconds)
        try:
            async with running(sender.run()):
                yield
        finally:
            await sender.stop()
