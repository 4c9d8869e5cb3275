"""SQL the agent needs outside its journal: tool-call idempotency and the granted user.

Tool calls that change state share the Commerce API's `idempotency_keys` table and its rules
(commerce/writes.py): a key is scoped to principal, method and route; the stored response is
written in the same transaction as the change it guards; only 2xx results are stored; a key
reused with different arguments is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.writes import RETENTION_SECONDS, claim_key, store_outcome
from commerce_agent.db import Database, Row, Transaction, retry_conflicts
from commerce_agent.errors import CommerceError


@dataclass(frozen=True)
class Scope:
    principal: str
    method: str
    route: str
    key: str

    def params(self) -> dict[str, str]:
        return {"principal": self.principal, "method": self.method, "route": self.route,
                "key": self.key}


@dataclass
class Outcome:
    status: int
    body: Any
    replayed: bool = False


def fingerprint(args: Any) -> str:
    canonical = json.dumps(args, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


async def _stored(db: Database | Transaction, scope: Scope) -> Row | None:
    return await db.fetch_one(
        "SELECT fingerprint, status, body FROM idempotency_keys WHERE principal = :principal "
        "AND method = :method AND route = :route AND key = :key AND created_at > :since",
        {**scope.params(), "since": clock.later_iso(-RETENTION_SECONDS)})


def _replay(row: Row, print_: str, scope: Scope) -> Outcome:
    if row["fingerprint"] != print_:
        raise CommerceError(409, "idempotency_key_reused",
                            "This Idempotency-Key was already used with different arguments.",
                            params={"key": scope.key})
    return Outcome(int(row["status"]), json.loads(bytes(row["body"])), replayed=True)


async def lookup(db: Database, scope: Scope, args: Any) -> Outcome | None:
    """The stored outcome of an earlier call with this key, if there was one."""
    row = await _stored(db, scope)
    return None if row is None else _replay(row, fingerprint(args), scope)


async def once(db: Database, scope: Scope, args: Any,
               work: Callable[[Transaction], Awaitable[Outcome]]) -> Outcome:
    """Run `work` in one transaction unless this key already succeeded (claimed first, as
    commerce/writes.py does); store a 2xx result."""
    print_ = fingerprint(args)

    async def guarded() -> Outcome:
        async with db.transaction() as tx:
            row = await claim_key(tx, scope.params(), print_)
            if row is not None:
                return _replay(row, print_, scope)
            outcome = await work(tx)
            await store_outcome(
                tx, scope.params(), outcome.status, {"content-type": "application/json"},
                json.dumps(outcome.body, separators=(",", ":")).encode())
            return outcome

    return await retry_conflicts(guarded)


async def user_by_id(db: Database, user_id: str) -> Row | None:
    return await db.fetch_one("SELECT id, email, name FROM users WHERE id = :id",
                              {"id": user_id})
