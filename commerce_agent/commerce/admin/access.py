"""Who may use the admin API: merchant accounts (403 otherwise), each on its own stores only
(another merchant's store, item, order or return is 404, as for a missing one).

The skeleton of an admin handler is written here once: `owned` (a read) and `owned_write`
(a write) take the merchant, the path parameter naming the store, item, order or return,
check the merchant owns it, and (`owned_write`) decode the body and run the work in one
guarded write (commerce.writes.write), in that order: 401/403, then 400 for the body, then
404 inside the transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.principal import require_principal
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.shop import merchants
from commerce_agent.commerce.storage import catalog_writes, merchant_orders
from commerce_agent.commerce.writes import write
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, not_found
from commerce_agent.http import decode_body


async def merchant_principal(request: Request) -> Principal:
    """The caller, who must hold a merchant account."""
    principal = await require_principal(request)
    if not await merchants.is_merchant(request.app.state.db, principal.user_id):
        raise CommerceError(403, "forbidden", "The admin API is for merchant accounts only.")
    return principal


async def store_ids(db: Database | Transaction, principal: Principal) -> list[str]:
    return await catalog_writes.merchant_store_ids(db, principal.user_id)


async def own_store(db: Database | Transaction, principal: Principal, store_id: str) -> None:
    if store_id not in await store_ids(db, principal):
        raise not_found("store", store_id)


async def own_item(db: Database | Transaction, principal: Principal, item_id: str) -> str:
    """The item's store, when it is one of the merchant's."""
    row = await catalog_writes.item_row(db, item_id)
    if row is None or row["store_id"] not in await store_ids(db, principal):
        raise not_found("item", item_id)
    return str(row["store_id"])


async def own_order(db: Database | Transaction, principal: Principal, order_id: str) -> None:
    store = await merchant_orders.order_store(db, order_id)
    if store is None or store not in await store_ids(db, principal):
        raise not_found("order", order_id)


async def own_return(db: Database | Transaction, principal: Principal, return_id: str) -> None:
    store = await merchant_orders.return_store(db, return_id)
    if store is None or store not in await store_ids(db, principal):
        raise not_found("return", return_id)


Owner = TypeVar("Owner")  # what an ownership check returns (an item's store id; None)
B = TypeVar("B")  # the decoded request body
Owns = Callable[[Database | Transaction, Principal, str], Awaitable[Owner]]


@dataclass(frozen=True)
class Target(Generic[Owner, B]):
    """What an admin handler acts on: the merchant, the id in its path, what the ownership
    check returned, the decoded body (None without a decoder)."""

    principal: Principal
    id: str
    owner: Owner
    body: B


async def owned(request: Request, own: Owns[Owner], param: str) -> Target[Owner, None]:
    """A read: the merchant, and the thing `param` names, checked to be theirs."""
    principal = await merchant_principal(request)
    db, target_id = request.app.state.db, request.path_params[param]
    return Target(principal, target_id, await own(db, principal, target_id), None)


@overload
async def owned_write(request: Request, own: Owns[Owner], param: str,
                      work: Callable[[Transaction, Target[Owner, None]], Awaitable[Response]],
                      decoder: None = None) -> Response: ...


@overload
async def owned_write(request: Request, own: Owns[Owner], param: str,
                      work: Callable[[Transaction, Target[Owner, B]], Awaitable[Response]],
                      decoder: msgspec.json.Decoder[B]) -> Response: ...


async def owned_write(request: Request, own: Owns[Owner], param: str,
                      work: Callable[[Transaction, Target[Owner, Any]], Awaitable[Response]],
                      decoder: msgspec.json.Decoder[Any] | None = None) -> Response:
    """A write: the merchant, the body, then in one guarded transaction the ownership check
    of the thing `param` names and `work`."""
    principal = await merchant_principal(request)
    target_id = request.path_params[param]
    body = None if decoder is None else await decode_body(request, decoder)

    async def run(tx: Transaction) -> Response:
        owner = await own(tx, principal, target_id)
        return await work(tx, Target(principal, target_id, owner, body))

    return await write(request, principal, run)
