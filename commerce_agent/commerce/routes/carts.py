"""Cart routes: create, read, lines and promotions. Every mutation answers the full cart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVarTuple

import msgspec
from msgspec import UNSET, Meta, UnsetType
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import guests
from commerce_agent.auth.principal import cart_principal, cart_writer, require_principal
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.pagination import read_page
from commerce_agent.commerce.services.carts import cart as service
from commerce_agent.commerce.services.carts import shopper
from commerce_agent.commerce.services.carts.cart import CartView
from commerce_agent.commerce.services.carts.pricing import MAX_LINE_QUANTITY
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.http import decode_body, json_response
from commerce_agent.routing import Route

ShortText = Annotated[str, Meta(max_length=200)]
Identifier = Annotated[str, Meta(min_length=1, max_length=100)]
Note = Annotated[str, Meta(max_length=1000)]
AddOnIds = Annotated[list[Identifier], Meta(max_length=50)]
Customizations = Annotated[dict[Identifier, Identifier | Annotated[list[Identifier],
                                                                     Meta(max_length=50)]],
                           Meta(max_length=50)]
# Checked by pricing.check_quantity (answered as invalid_quantity, once the cart and item are
# known), so only the document states the range here.
Quantity = Annotated[int, Meta(extra_json_schema={"minimum": 1, "maximum": MAX_LINE_QUANTITY})]


class GuestInfo(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    email: ShortText | None = None
    name: ShortText | None = None
    phone: Annotated[str, Meta(max_length=40)] | None = None


class CreateCartRequest(msgspec.Struct, forbid_unknown_fields=True):
    storeId: Identifier
    guestInfo: GuestInfo | None = None


class AddItemRequest(msgspec.Struct, forbid_unknown_fields=True):
    itemId: Identifier
    quantity: Quantity
    variantId: Identifier | None = None
    addOnIds: AddOnIds = []
    customizations: Customizations = {}
    notes: Note | None = None
    timeSlotId: Identifier | None = None

    def options(self) -> dict[str, Any]:
        """Line options in canonical form, so identical lines compare equal and merge."""
        options: dict[str, Any] = {}
        if self.addOnIds:
            options["addOnIds"] = sorted(set(self.addOnIds))
        if self.customizations:
            options["customizations"] = {
                key: value if isinstance(value, str) else sorted(set(value))
                for key, value in self.customizations.items()}
        if self.notes is not None:
            options["notes"] = self.notes
        if self.timeSlotId is not None:
            options["timeSlotId"] = self.timeSlotId
        return options


class UpdateItemRequest(msgspec.Struct, forbid_unknown_fields=True):
    quantity: Quantity | UnsetType = UNSET
    notes: Note | None | UnsetType = UNSET
    addOnIds: AddOnIds | None | UnsetType = UNSET
    customizations: Customizations | None | UnsetType = UNSET


class PromotionRequest(msgspec.Struct, forbid_unknown_fields=True):
    type: Literal["promo_code"]
    value: Annotated[str, Meta(min_length=1, max_length=64)]


class ShippingRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The shipping option for what the cart ships (null: the store's default)."""

    shippingMethodId: Identifier | None


_create = msgspec.json.Decoder(CreateCartRequest)
_shipping = msgspec.json.Decoder(ShippingRequest)
_add = msgspec.json.Decoder(AddItemRequest)
_update = msgspec.json.Decoder(UpdateItemRequest)
_promotion = msgspec.json.Decoder(PromotionRequest)


class AdoptRequest(msgspec.Struct, forbid_unknown_fields=True):
    guestToken: Annotated[str, Meta(min_length=1, max_length=100)]


class GuestToken(msgspec.Struct):
    """A guest cart token: `Authorization: Bearer <guestToken>` on the cart routes."""

    guestToken: str
    tokenType: str = "Bearer"


_adopt = msgspec.json.Decoder(AdoptRequest)


def _lifetime(request: Request) -> int:
    lifetime: int = request.app.state.settings.cart_lifetime_seconds
    return lifetime


async def create_cart(request: Request) -> Response:
    principal = await cart_writer(request)
    body = await decode_body(request, _create)
    guest = msgspec.to_builtins(body.guestInfo) if body.guestInfo is not None else None

    async def work(tx: Transaction) -> Response:
        cart = await service.create_cart(tx, principal, body.storeId, guest, _lifetime(request))
        return json_response(cart.render(), status=201,
                             headers={"Location": f"/carts/{cart.id}"})

    return await write(request, principal, work)


async def get_cart(request: Request) -> Response:
    principal = await cart_principal(request)
    cart = await service.open_cart(request.app.state.db, request.path_params["cart_id"],
                                   principal)
    return json_response(cart.render())


async def list_carts(request: Request) -> Response:
    """The caller's open carts (a guest token's: the guest's), most recently changed first."""
    principal = await cart_principal(request)
    carts, info = await shopper.open_carts(request.app.state.db, principal, read_page(request))
    return json_response({"carts": [cart.render() for cart in carts], "pagination": info})


async def create_guest_token(request: Request) -> Response:
    """A new guest cart token: no account, no stored row; it holds the carts made with it."""
    return json_response(GuestToken(guests.mint_guest_token()), status=201,
                         headers={"Cache-Control": "no-store"})


async def adopt_carts(request: Request) -> Response:
    """A signed-in user takes over the open carts of a guest token it holds."""
    principal = await require_principal(request)
    body = await decode_body(request, _adopt)

    async def work(tx: Transaction) -> Response:
        carts = await shopper.adopt(tx, body.guestToken, principal)
        return json_response({"carts": [cart.render() for cart in carts]})

    return await write(request, principal, work)


Asked = TypeVarTuple("Asked")
# A change to the path's cart: a cart service, called with (tx, principal, cart_id, what the
# request asks…, the cart lifetime); it answers the cart it leaves.
CartChange = Callable[[Transaction, Principal, str, *Asked, int], Awaitable[CartView]]
Handler = Callable[[Request], Awaitable[Response]]


def _cart_change(name: str, read: Callable[[Request], Awaitable[tuple[*Asked]]],
                 change: CartChange[*Asked]) -> Handler:
    """The handler of one cart change: the writer first (401 before a bad body), then what the
    request asks (`read`), then `change` in a write, answered with the cart. The OpenAPI
    introspection reads `cart_writer`, `write` and the decoder from its closure."""

    async def handler(request: Request) -> Response:
        principal = await cart_writer(request)
        asked = await read(request)
        cart_id = request.path_params["cart_id"]

        async def work(tx: Transaction) -> Response:
            cart = await change(tx, principal, cart_id, *asked, _lifetime(request))
            return json_response(cart.render())

        return await write(request, principal, work)

    handler.__name__ = handler.__qualname__ = name
    return handler


async def _new_line(request: Request) -> tuple[str, int, str, dict[str, Any]]:
    body = await decode_body(request, _add)
    return body.itemId, body.quantity, body.variantId or "", body.options()


async def _line_changes(request: Request) -> tuple[str, dict[str, Any]]:
    """The line and the fields the body sets (add-ons in canonical form, none as None)."""
    body = await decode_body(request, _update)
    changes = {field: getattr(body, field) for field in body.__struct_fields__
               if getattr(body, field) is not UNSET}
    if isinstance(changes.get("addOnIds"), list):
        changes["addOnIds"] = sorted(set(changes["addOnIds"])) or None
    return request.path_params["line_id"], changes


async def _line(request: Request) -> tuple[str]:
    return (request.path_params["line_id"],)


async def _promotion_code(request: Request) -> tuple[str, int]:
    """The code and the server's cap on promotions per cart."""
    body = await decode_body(request, _promotion)
    server_max: int = request.app.state.max_promotions
    return body.value, server_max


async def _code(request: Request) -> tuple[str]:
    return (request.path_params["code"],)


async def _shipping_method(request: Request) -> tuple[str | None]:
    return ((await decode_body(request, _shipping)).shippingMethodId,)


add_item = _cart_change("add_item", _new_line, service.add_item)
update_item = _cart_change("update_item", _line_changes, service.update_item)
remove_item = _cart_change("remove_item", _line, service.remove_item)
apply_promotion = _cart_change("apply_promotion", _promotion_code, service.apply_promotion)
remove_promotion = _cart_change("remove_promotion", _code, service.remove_promotion)
select_shipping = _cart_change("select_shipping", _shipping_method, service.select_shipping)


routes = [
    Route("/carts", create_cart, methods=["POST"]),
    Route("/carts", list_carts, methods=["GET"]),
    Route("/carts/adopt", adopt_carts, methods=["POST"]),
    Route("/guest-tokens", create_guest_token, methods=["POST"]),
    Route("/carts/{cart_id}", get_cart, methods=["GET"]),
    Route("/carts/{cart_id}/items", add_item, methods=["POST"]),
    Route("/carts/{cart_id}/items/{line_id}", update_item, methods=["PATCH"]),
    Route("/carts/{cart_id}/items/{line_id}", remove_item, methods=["DELETE"]),
    Route("/carts/{cart_id}/promotions", apply_promotion, methods=["POST"]),
    Route("/carts/{cart_id}/promotions/{code}", remove_promotion, methods=["DELETE"]),
    Route("/carts/{cart_id}/shipping", select_shipping, methods=["PUT"]),
]
