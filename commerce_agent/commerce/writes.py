"""Every state-changing request runs here: one transaction, guarded by its Idempotency-Key.

The key is claimed first thing in the write's transaction, by inserting its row (the table's
primary key decides): a duplicate running at the same moment, in any process, waits on that
row until the first commits and then replays its response (or, if the first rolled back,
claims the key itself). On SQLite the writer's lock already runs writes one at a time; on
PostgreSQL the unique index does it for the two writes of one key only. Only 2xx responses are
stored: an error rolls back everything, key included, so the client can correct the request
and retry with the same key (402 and 5xx are never stored either).

A write the database rolled back to break a deadlock (PostgreSQL) is run again, whole, a few
times (`retry_conflicts`) before the request is answered 503.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent import clock
from commerce_agent.auth.bearer import still_live
from commerce_agent.auth.principal import invalid_token
from commerce_agent.auth.tokens import Principal
from commerce_agent.db import Row, Transaction, retry_conflicts
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.http import header, read_body

Work = Callable[[Transaction], Awaitable[Response]]

# Response headers worth replaying; the rest are recomputed by the server.
_REPLAYED_HEADERS = ("location", "x-payment-response", "payment-response", "content-type",
                     "content-language")
RETENTION_SECONDS = 24 * 3600


async def claim_key(tx: Transaction, scope: Mapping[str, str], fingerprint: str
                    ) -> Row | None:
    """Take the key (`scope`: principal, method, route, key) for this write; a key whose
    earlier result expired is taken over. Returns the stored result when the key is already
    another write's (after waiting for that write to commit), else None."""
    claimed = await tx.execute(
        "INSERT INTO idempotency_keys (principal, method, route, key, fingerprint, "
        "status, headers, body, created_at) VALUES (:principal, :method, :route, :key, "
        ":fingerprint, 0, '{}', :body, :at) "
        "ON CONFLICT (principal, method, route, key) "
        "DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, headers = '{}', "
        "body = excluded.body, created_at = excluded.created_at "
        "WHERE idempotency_keys.created_at <= :since",
        {**scope, "fingerprint": fingerprint, "body": b"", "at": clock.now_iso(),
         "since": clock.later_iso(-RETENTION_SECONDS)})
    if claimed:
        return None
    return await tx.fetch_one(
        "SELECT fingerprint, status, headers, body FROM idempotency_keys "
        "WHERE principal = :principal AND method = :method AND route = :route "
        "AND key = :key", scope)


async def store_outcome(tx: Transaction, scope: Mapping[str, str], status: int,
                        headers: Mapping[str, str], body: bytes) -> None:
    """Keep a 2xx result under the key this write claimed; any other result gives the key
    back (with the write's rollback, or here when the write commits without a 2xx)."""
    if not 200 <= status < 300:
        await tx.execute("DELETE FROM idempotency_keys WHERE principal = :principal "
                         "AND method = :method AND route = :route AND key = :key", scope)
        return
    await tx.execute(
        "UPDATE idempotency_keys SET status = :status, headers = :headers, body = :body "
        "WHERE principal = :principal AND method = :method AND route = :route "
        "AND key = :key",
        {**scope, "status": status, "headers": json.dumps(dict(headers)), "body": body})


def _fingerprint(body: bytes) -> str:
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"))
    except (ValueError, UnicodeDecodeError):
        return hashlib.sha256(body).hexdigest()
    return hashlib.sha256(canonical.encode()).hexdigest()


def _idempotency_key(request: Request) -> str | None:
    key = header(request, b"idempotency-key")
    if key is None:
        return None
    if not 1 <= len(key) <= 255 or not key.isprintable():
        raise validation_error("Idempotency-Key", "must be 1 to 255 printable characters")
    return key


async def _confirm_token(request: Request, principal: Principal, tx: Transaction) -> None:
    """Refuse a token kept without a read (auth.principal.writer_principal) that is no longer
    live, first thing in the write's transaction."""
    state = request.scope.get("state", {})
    kept_at = state.get("token_kept_at")
    if kept_at is None:
        return
    if not await still_live(request.app.state.db, tx, state["token_owner"][0], kept_at,
                            principal.user_id):
        raise invalid_token()
    del state["token_kept_at"]


async def write(request: Request, principal: Principal, work: Work) -> Response:
    """Run `work` in one transaction, replaying or refusing a reused Idempotency-Key."""
    key = _idempotency_key(request)
    db = request.app.state.db
    if key is None:
        async def plain() -> Response:
            async with db.transaction() as tx:
                await _confirm_token(request, principal, tx)
                return await work(tx)

        return await retry_conflicts(plain)
    fingerprint = _fingerprint(await read_body(request))
    scope = {"principal": principal.user_id, "method": request.method,
             "route": request.url.path, "key": key}

    async def guarded() -> Response:
        async with db.transaction() as tx:
            await _confirm_token(request, principal, tx)
            stored = await claim_key(tx, scope, fingerprint)
            if stored is not None:
                if stored["fingerprint"] != fingerprint:
                    raise CommerceError(
                        409, "idempotency_key_reused",
                        "This Idempotency-Key was already used with a different request "
                        "body.", params={"key": key})
                headers = json.loads(stored["headers"])
                headers["Idempotent-Replayed"] = "true"
                return Response(bytes(stored["body"]), status_code=stored["status"],
                                headers=headers)
            response = await work(tx)
            headers = {name: value for name, value in response.headers.items()
                       if name in _REPLAYED_HEADERS}
            await store_outcome(tx, scope, response.status_code, headers,
                                bytes(response.body))
            return response

    return await retry_conflicts(guarded)
