"""Every state-changing request runs here: one transaction, guarded by its Idempotency-Key
(claimed first thing in the transaction, its 2xx response kept and replayed: the rules are
commerce/idempotency.py's, shared with the agent's tool calls and MCP).

A write the database rolled back to break a deadlock (PostgreSQL) is run again, whole, a few
times (`retry_conflicts`) before the request is answered 503.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.bearer import TokenChanged, confirm_kept, reread_owner
from commerce_agent.auth.principal import invalid_token
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce import idempotency
from commerce_agent.db import Transaction, retry_conflicts
from commerce_agent.errors import validation_error
from commerce_agent.http import header, read_body

Work = Callable[[Transaction], Awaitable[Response]]

# Response headers worth replaying; the rest are recomputed by the server.
_REPLAYED_HEADERS = ("location", "x-payment-response", "payment-response", "content-type",
                     "content-language")


def _idempotency_key(request: Request) -> str | None:
    key = header(request, b"idempotency-key")
    if key is None:
        return None
    if not 1 <= len(key) <= 255 or not key.isprintable():
        raise validation_error("Idempotency-Key", "must be 1 to 255 printable characters")
    return key


async def _confirm_token(request: Request, tx: Transaction) -> None:
    """Refuse the write if a token kept without a read (auth.principal.writer_principal) may
    have changed since (bearer.TokenChanged: `write` reads it and tries again), first thing
    in the write's transaction."""
    kept_at = request.scope.get("state", {}).get("token_kept_at")
    if kept_at is not None:
        await confirm_kept(tx, kept_at)


def _kept(response: Response) -> idempotency.Result:
    return idempotency.Result(response.status_code,
                              {name: value for name, value in response.headers.items()
                               if name in _REPLAYED_HEADERS}, bytes(response.body))


def _replay(result: idempotency.Result) -> Response:
    return Response(result.body, status_code=result.status,
                    headers={**result.headers, "Idempotent-Replayed": "true"})


async def write(request: Request, principal: Principal, work: Work) -> Response:
    """Run `work` in one transaction, replaying or refusing a reused Idempotency-Key."""
    try:
        return await _write(request, principal, work)
    except TokenChanged:
        state = request.scope["state"]
        owner = await reread_owner(request.app.state.db, state, state["token_owner"][0])
        if owner is None or owner.principal.user_id != principal.user_id:
            raise invalid_token() from None
        return await _write(request, principal, work)


async def _write(request: Request, principal: Principal, work: Work) -> Response:
    key = _idempotency_key(request)
    db = request.app.state.db

    async def confirm(tx: Transaction) -> None:
        await _confirm_token(request, tx)

    if key is None:
        async def plain() -> Response:
            async with db.transaction() as tx:
                await _confirm_token(request, tx)
                return await work(tx)

        return await retry_conflicts(plain)
    scope = idempotency.Scope(principal.user_id, request.method, request.url.path, key)
    return await idempotency.once(db, scope,
                                  idempotency.body_fingerprint(await read_body(request)),
                                  work, kept=_kept, replay=_replay, first=confirm)
