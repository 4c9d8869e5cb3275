"""Admin routes for orders and returns of the merchant's stores: list with filters, advance
(ship with carrier and tracking number), ready for pickup, cancel with refund; approve,
reject, receive and refund returns."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal
from commerce_agent.commerce.orders import lifecycle
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.orders.model import STATUSES
from commerce_agent.commerce.pagination import (
    COUNT_CAP,
    pagination,
    read_page,
)
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.commerce.shop import orders as service
from commerce_agent.commerce.storage import merchant_orders as storage
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.errors import not_found, validation_error
from commerce_agent.http import decode_body, json_response, read_body
from commerce_agent.routing import Route

AdvanceOrder, CancelOrder = service.AdvanceOrder, service.CancelOrder
_advance = msgspec.json.Decoder(AdvanceOrder)
_cancel = msgspec.json.Decoder(CancelOrder)


def _filters(request: Request, statuses: tuple[str, ...]) -> tuple[str | None, str | None]:
    status = request.query_params.get("status")
    if status is not None and status not in statuses:
        raise validation_error("status", f"must be one of {', '.join(statuses)}", status)
    return status, request.query_params.get("storeId")


async def _stores(request: Request, store_id: str | None) -> list[str]:
    principal = await merchant_principal(request)
    mine = await access.store_ids(request.app.state.db, principal)
    if store_id is None:
        return mine
    if store_id not in mine:
        raise not_found("store", store_id)
    return [store_id]


async def list_orders(request: Request) -> Response:
    """List orders of the merchant's stores, newest first (?storeId=, ?status=)."""
    status, store_id = _filters(request, STATUSES)
    stores = await _stores(request, store_id)
    page = read_page(request, key=(str, str))
    db = request.app.state.db
    rows = await storage.orders(db, stores, status, page.limit + 1, offset=page.offset,
                                key=page.key, backward=page.backward)
    total = await storage.count_orders(db, stores, status, COUNT_CAP + 1)
    return json_response(order_view.listing(page, rows, total, merchant=True))


async def get_order(request: Request) -> Response:
    """One order of the merchant's stores."""
    principal = await merchant_principal(request)
    db, order_id = request.app.state.db, request.path_params["order_id"]
    await access.own_order(db, principal, order_id)
    _, doc = await lifecycle.load(db, order_id)
    return json_response(order_view.render_for_merchant(doc))


async def advance_order(request: Request) -> Response:
    """Move an order to its next status (or `to`); with a tracking number, ship it now."""
    principal = await merchant_principal(request)
    order_id = request.path_params["order_id"]
    body = await decode_body(request, _advance) if (await read_body(request)).strip() \
        else AdvanceOrder()
    base_url = request.app.state.settings.base_url.rstrip("/")

    async def work(tx: Transaction) -> Response:
        await access.own_order(tx, principal, order_id)
        doc = await service.advance(tx, order_id, base_url, to=body.to, carrier=body.carrier,
                                    tracking_number=body.trackingNumber,
                                    tracking_url=body.trackingUrl)
        return json_response(order_view.render_for_merchant(doc))

    return await write(request, principal, work)


async def ready_for_pickup(request: Request) -> Response:
    """Tell the customer a pickup order is ready at the store."""
    principal = await merchant_principal(request)
    order_id = request.path_params["order_id"]

    async def work(tx: Transaction) -> Response:
        await access.own_order(tx, principal, order_id)
        doc = await service.ready_for_pickup(tx, order_id)
        return json_response(order_view.render_for_merchant(doc))

    return await write(request, principal, work)


async def cancel_order(request: Request) -> Response:
    """Cancel an order for the customer: stock back, payment refunded."""
    principal = await merchant_principal(request)
    order_id = request.path_params["order_id"]
    body = await decode_body(request, _cancel) if (await read_body(request)).strip() \
        else CancelOrder()

    async def work(tx: Transaction) -> Response:
        await access.own_order(tx, principal, order_id)
        doc = await service.cancel(tx, order_id, body.reason)
        return json_response(order_view.render_for_merchant(doc))

    return await write(request, principal, work)


async def list_returns(request: Request) -> Response:
    """List returns of the merchant's stores, newest first (?storeId=, ?status=)."""
    status, store_id = _filters(request, returns.STATUSES)
    stores = await _stores(request, store_id)
    page = read_page(request)
    rows, total = await storage.returns(request.app.state.db, stores, status, page.limit,
                                        page.offset)
    found = [msgspec.json.decode(row["doc"]) for row in rows]
    return json_response({"returns": found, "pagination": pagination(page, total)})


def _return_action(action: str, summary: str) -> Route:
    async def handler(request: Request) -> Response:
        principal = await merchant_principal(request)
        return_id = request.path_params["return_id"]

        async def work(tx: Transaction) -> Response:
            await access.own_return(tx, principal, return_id)
            return json_response(await service.advance_return(tx, return_id, action))

        return await write(request, principal, work)

    handler.__doc__ = summary
    handler.__name__ = f"{action}_return"
    return Route(f"/admin/returns/{{return_id}}/{action}", handler, methods=["POST"])


routes = [
    Route("/admin/orders", list_orders, methods=["GET"]),
    Route("/admin/orders/{order_id}", get_order, methods=["GET"]),
    Route("/admin/orders/{order_id}/advance", advance_order, methods=["POST"]),
    Route("/admin/orders/{order_id}/ready-for-pickup", ready_for_pickup, methods=["POST"]),
    Route("/admin/orders/{order_id}/cancel", cancel_order, methods=["POST"]),
    Route("/admin/returns", list_returns, methods=["GET"]),
    _return_action("approve", "Approve a requested return."),
    _return_action("reject", "Reject a requested return."),
    _return_action("receive", "Receive the returned goods (back in stock)."),
    _return_action("refund", "Refund a received return (completes it)."),
]
