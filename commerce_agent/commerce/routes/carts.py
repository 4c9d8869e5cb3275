"""Cart routes: create, read, lines and promotions. Every mutation answers the full cart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

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


def _change(request: Request, principal: Principal,
            change: Callable[..., Awaitable[CartView]], *args: Any
            ) -> Callable[[Transaction], Awaitable[Response]]:
    """A write's work: change the path's cart, `change(tx, principal, cart_id, *args,
    lifetime)`, and answer with the cart it leaves."""
    cart_id = request.path_params["cart_id"]

    async def work(tx: Transaction) -> Response:
        cart = await change(tx, principal, cart_id, *args, _lifetime(request))
        return json_response(cart.render())

    return work


async def add_item(request: Request) -> Response:
    principal = await cart_writer(request)
    body = await decode_body(request, _add)
    return await write(request, principal, _change(
        request, principal, service.add_item, body.itemId, body.quantity, body.variantId or "",
        body.options()))


async def update_item(request: Request) -> Response:
    principal = await cart_writer(request)
    body = await decode_body(request, _update)
    changes = {field: getattr(body, field) for field in body.__struct_fields__
               if getattr(body, field) is not UNSET}
    if isinstance(changes.get("addOnIds"), list):
        changes["addOnIds"] = sorted(set(changes["addOnIds"])) or None
    return await write(request, principal, _change(
        request, principal, service.update_item, request.path_params["line_id"], changes))


async def remove_item(request: Request) -> Response:
    principal = await cart_writer(request)
    return await write(request, principal, _change(
        request, principal, service.remove_item, request.path_params["line_id"]))


async def apply_promotion(request: Request) -> Response:
    principal = await cart_writer(request)
    body = await decode_body(request, _promotion)
    server_max: int = request.app.state.max_promotions
    return await write(request, principal, _change(
        request, principal, service.apply_promotion, body.value, server_max))


async def remove_promotion(request: Request) -> Response:
    principal = await cart_writer(request)
    return await write(request, principal, _change(
        request, principal, service.remove_promotion, request.path_params["code"]))


async def select_shipping(request: Request) -> Response:
    principal = await cart_writer(request)
    body = await decode_body(request, _shipping)
    return await write(request, principal, _change(
        request, principal, service.select_shipping, body.shippingMethodId))


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
