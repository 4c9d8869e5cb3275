"""Every state-changing request runs here: one transaction, guarded by its Idempotency-Key.

The key is checked and stored inside the same `BEGIN IMMEDIATE` transaction as the write, so
a duplicate (even from another process) waits for the first and then replays its response.
Only 2xx responses are stored: an error rolls back everything, key included, so the client can
correct the request and retry with the same key (402 and 5xx are never stored either).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent import clock
from commerce_agent.auth.principal import invalid_token
from commerce_agent.auth.tokens import Principal, still_live
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.http import header, read_body

Work = Callable[[Transaction], Awaitable[Response]]

# Response headers worth replaying; the rest are recomputed by the server.
_REPLAYED_HEADERS = ("location", "x-payment-response", "payment-response", "content-type",
                     "content-language")
RETENTION_SECONDS = 24 * 3600


async def store_outcome(tx: Transaction, scope: Mapping[str, str], fingerprint: str,
                        status: int, headers: Mapping[str, str], body: bytes) -> None:
    """Keep a 2xx result under its key (`scope`: principal, method, route, key), in the write
    it guards; a key whose earlier result expired is taken over."""
    await tx.execute(
        "INSERT INTO idempotency_keys (principal, method, route, key, fingerprint, "
        "status, headers, body, created_at) VALUES (:principal, :method, :route, :key, "
        ":fingerprint, :status, :headers, :body, :at) "
        "ON CONFLICT (principal, method, route, key) "
        "DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, "
        "headers = excluded.headers, body = excluded.body, "
        "created_at = excluded.created_at",
        {**scope, "fingerprint": fingerprint, "status": status,
         "headers": json.dumps(dict(headers)), "body": body, "at": clock.now_iso()})


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
        async with db.transaction() as tx:
            await _confirm_token(request, principal, tx)
            return await work(tx)
    fingerprint = _fingerprint(await read_body(request))
    scope = {"principal": principal.user_id, "method": request.method,
             "route": request.url.path, "key": key}
    async with db.transaction() as tx:
        await _confirm_token(request, principal, tx)
        stored = await tx.fetch_one(
            "SELECT fingerprint, status, headers, body FROM idempotency_keys "
            "WHERE principal = :principal AND method = :method AND route = :route "
            "AND key = :key AND created_at > :since",
            {**scope, "since": clock.later_iso(-RETENTION_SECONDS)})
        if stored is not None:
            if stored["fingerprint"] != fingerprint:
                raise CommerceError(
                    409, "idempotency_key_reused",
                    "This Idempotency-Key was already used with a different request body.",
                    params={"key": key})
            headers = json.loads(stored["headers"])
            headers["Idempotent-Replayed"] = "true"
            return Response(bytes(stored["body"]), status_code=stored["status"], headers=headers)
        response = await work(tx)
        if 200 <= response.status_code < 300:
            headers = {name: value for name, value in response.headers.items()
                       if name in _REPLAYED_HEADERS}
            await store_outcome(tx, scope, fingerprint, response.status_code, headers,
                                bytes(response.body))
        return response
