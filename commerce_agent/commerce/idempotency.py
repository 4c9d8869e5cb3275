"""Idempotency-Key: the one place a key is claimed, its result kept and replayed, for the
Commerce API (commerce/writes.py), the agent's tool calls and MCP's checkout.

A key is scoped to principal, method and route. It is claimed first thing in the write's
transaction, by inserting its row (the table's primary key decides): a duplicate running at
the same moment, in any process, waits on that row until the first commits and then replays
its result (or, if the first rolled back, claims the key itself), so concurrent retries give
one result. On SQLite the writer's lock already runs writes one at a time; on PostgreSQL the
unique index does it for the two writes of one key only. Only 2xx results are kept: an error
rolls back everything, key included, so the client can correct the request and retry with
the same key (402 and 5xx are never kept either). A key reused with another request is
refused (409 idempotency_key_reused). Results are kept RETENTION_SECONDS.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from commerce_agent.commerce.storage import idempotency_keys as storage
from commerce_agent.db import Database, Row, Transaction, retry_conflicts
from commerce_agent.errors import CommerceError

RETENTION_SECONDS = 24 * 3600
R = TypeVar("R")
Work = Callable[[Transaction], Awaitable[R]]

REUSED_BODY = "This Idempotency-Key was already used with a different request body."
REUSED_ARGUMENTS = "This Idempotency-Key was already used with different arguments."


@dataclass(frozen=True)
class Scope:
    principal: str
    method: str
    route: str
    key: str

    def params(self) -> dict[str, str]:
        return {"principal": self.principal, "method": self.method, "route": self.route,
                "key": self.key}


@dataclass(frozen=True)
class Result:
    """A result as kept under a key: status, the headers worth replaying, the body."""

    status: int
    headers: Mapping[str, str]
    body: bytes


def body_fingerprint(body: bytes) -> str:
    """A request body's fingerprint: of its canonical JSON (key order and spacing do not
    count), or of its bytes when it is not JSON."""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"))
    except (ValueError, UnicodeDecodeError):
        return hashlib.sha256(body).hexdigest()
    return hashlib.sha256(canonical.encode()).hexdigest()


def arguments_fingerprint(args: Any) -> str:
    """A tool call's arguments' fingerprint (canonical JSON)."""
    canonical = json.dumps(args, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replayed(row: Row, scope: Scope, fingerprint: str, reused: str) -> Result:
    if row["fingerprint"] != fingerprint:
        raise CommerceError(409, "idempotency_key_reused", reused, params={"key": scope.key})
    return Result(int(row["status"]), json.loads(row["headers"]), bytes(row["body"]))


async def once(db: Database, scope: Scope, fingerprint: str, work: Work[R], *,
               kept: Callable[[R], Result], replay: Callable[[Result], R],
               reused: str = REUSED_BODY,
               first: Callable[[Transaction], Awaitable[None]] | None = None) -> R:
    """Run `work` in one transaction under the key, claimed before it (after `first`, e.g. a
    token check); an earlier result of the key is replayed instead (`replay`), a 2xx result
    kept (`kept` says how). A write the database rolled back to break a deadlock is run
    again, whole (retry_conflicts)."""

    async def guarded() -> R:
        async with db.transaction() as tx:
            if first is not None:
                await first(tx)
            row = await storage.claim(tx, scope.params(), fingerprint, RETENTION_SECONDS)
            if row is not None:
                return replay(_replayed(row, scope, fingerprint, reused))
            result = await work(tx)
            outcome = kept(result)
            if 200 <= outcome.status < 300:
                await storage.keep(tx, scope.params(), outcome.status, outcome.headers,
                                   outcome.body)
            else:
                await storage.release(tx, scope.params())
            return result

    return await retry_conflicts(guarded)


async def lookup(db: Database, scope: Scope, fingerprint: str,
                 reused: str = REUSED_BODY) -> Result | None:
    """The kept result of an earlier write under the key, if there was one (no claim)."""
    row = await storage.stored(db, scope.params(), RETENTION_SECONDS)
    return None if row is None else _replayed(row, scope, fingerprint, reused)


# -- the agent's tool calls and MCP: JSON values rather than HTTP responses -----------------

@dataclass
class Outcome:
    status: int
    body: Any
    replayed: bool = False


def _kept_json(outcome: Outcome) -> Result:
    return Result(outcome.status, {"content-type": "application/json"},
                  json.dumps(outcome.body, separators=(",", ":")).encode())


def _replayed_json(result: Result) -> Outcome:
    return Outcome(result.status, json.loads(result.body), replayed=True)


async def call_once(db: Database, scope: Scope, args: Any, work: Work[Outcome]) -> Outcome:
    """`once` for a tool call: keyed on its arguments, its outcome kept as JSON."""
    return await once(db, scope, arguments_fingerprint(args), work, kept=_kept_json,
                      replay=_replayed_json, reused=REUSED_ARGUMENTS)


async def call_lookup(db: Database, scope: Scope, args: Any) -> Outcome | None:
    """The kept outcome of an earlier tool call with this key, if there was one."""
    result = await lookup(db, scope, arguments_fingerprint(args), REUSED_ARGUMENTS)
    return None if result is None else _replayed_json(result)
