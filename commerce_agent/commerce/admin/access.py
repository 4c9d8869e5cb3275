"""Who may use the admin API: merchant accounts (403 otherwise), each on its own stores only
(another merchant's store, item, order or return is 404, as for a missing one)."""

from __future__ import annotations

from starlette.requests import Request

from commerce_agent.auth.principal import require_principal
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.shop import merchants
from commerce_agent.commerce.storage import catalog_writes, merchant_orders
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, not_found


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
