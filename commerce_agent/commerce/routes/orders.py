"""Order routes: place (with the 402 payment flow), list and read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.principal import require_principal, writer_principal
from commerce_agent.commerce.address import Address, stored
from commerce_agent.commerce.orders import model
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.orders.model import STATUSES
from commerce_agent.commerce.pagination import COUNT_CAP, read_page
from commerce_agent.commerce.routes.carts import AddItemRequest, GuestInfo, Identifier
from commerce_agent.commerce.services.checkout.placement import (
    OrderRequest,
    place_order,
    prepare_payment,
)
from commerce_agent.commerce.storage import orders as storage
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.errors import not_found, validation_error
from commerce_agent.http import decode_body, header, json_response
from commerce_agent.routing import Route
from commerce_agent.struct_rules import Rule, Ruled, absent, given

# A direct order names its items (orderType "direct", or items without an orderType); any
# other order is placed from a cart.
_DIRECT = {"anyOf": [given("orderType", {"const": "direct"}),
                     {"allOf": [absent("orderType"), given("items")]}]}


class CreateOrderRequest(Ruled, forbid_unknown_fields=True):
    rules = (
        Rule({"if": _DIRECT, "then": given("items", {"minItems": 1})},
             lambda: validation_error("/items", "is required for a direct order")),
        Rule({"if": _DIRECT, "then": absent("cartId")},
             lambda: validation_error("/cartId", "cannot be combined with direct items")),
        Rule({"if": _DIRECT, "else": given("cartId")},
             lambda: validation_error("/cartId", "is required")),
    )

    orderType: Literal["from_cart", "direct"] | None = None
    cartId: Identifier | None = None
    items: Annotated[list[AddItemRequest], Meta(max_length=100)] | None = None
    deliveryAddress: Address | None = None
    billingAddress: Address | None = None
    metadata: Annotated[dict[str, Any], Meta(max_length=50)] = {}
    notes: Annotated[str, Meta(max_length=1000)] | None = None
    consentGiven: bool | None = None
    promotionCode: Annotated[str, Meta(max_length=64)] | None = None
    guestInfo: GuestInfo | None = None
    # One of the store's shipping options (GET /carts/{id} lists them); default: the cart's
    # choice, else the store's first option.
    shippingMethodId: Identifier | None = None


_create = msgspec.json.Decoder(CreateOrderRequest)


def _order_request(body: CreateOrderRequest) -> OrderRequest:
    direct = body.orderType == "direct" or (body.orderType is None and body.items is not None)
    items = None
    if direct and body.items is not None:
        items = [{"itemId": item.itemId, "quantity": item.quantity,
                  "variantId": item.variantId, "options": item.options()}
                 for item in body.items]
    return OrderRequest(body.cartId, items, None, body.promotionCode, stored(body.deliveryAddress),
                        stored(body.billingAddress),
                        body.metadata, body.notes, shipping_method_id=body.shippingMethodId)


async def create_order(request: Request) -> Response:
    principal = await writer_principal(request)
    body = await decode_body(request, _create)
    order_request = _order_request(body)
    state = request.app.state
    base_url = state.settings.base_url.rstrip("/")
    # Outside the order's transaction: with a facilitator, this settles on chain first.
    payment = await prepare_payment(state.db, header(request, b"x-payment"), state.pay_to,
                                    base_url=base_url, principal=principal,
                                    request=order_request,
                                    signature=header(request, b"payment-signature"))

    async def work(tx: Transaction) -> Response:
        placed = await place_order(tx, principal, order_request, payment,
                                   base_url=base_url,
                                   pay_to=state.pay_to,
                                   idempotency=header(request, b"idempotency-key"))
        return json_response(placed.body, status=placed.status, headers=placed.headers)

    return await write(request, principal, work)


async def list_orders(request: Request) -> Response:
    principal = await require_principal(request)
    page = read_page(request, key=(str, str))
    status = request.query_params.get("status")
    if status is not None and status not in STATUSES:
        raise validation_error("status", f"must be one of {', '.join(sorted(STATUSES))}",
                               status)
    db = request.app.state.db
    rows = await storage.list_orders(db, principal.user_id, status, page.limit + 1,
                                     offset=page.offset, key=page.key, backward=page.backward)
    total = await storage.count_orders(db, principal.user_id, status, COUNT_CAP + 1)
    return json_response(order_view.listing(page, rows, total))


async def get_order(request: Request) -> Response:
    principal = await require_principal(request)
    order_id = request.path_params["order_id"]
    row = await storage.get_order(request.app.state.db, order_id, principal.user_id)
    if row is None:
        raise not_found("order", order_id)
    return json_response(order_view.render(model.decode(row["doc"])))


routes = [
    Route("/orders", create_order, methods=["POST"]),
    Route("/orders", list_orders, methods=["GET"]),
    Route("/orders/{order_id}", get_order, methods=["GET"]),
]
