"""Cart tools of the `commerce` connection: create, view, add, update, remove, promotions."""

from __future__ import annotations

from typing import Any

from commerce_agent.commerce import idempotency
from commerce_agent.commerce.pagination import Page
from commerce_agent.commerce.services.carts import cart as service
from commerce_agent.commerce.services.carts import shopper
from commerce_agent.commerce.services.carts.cart import CartView
from commerce_agent.db import Transaction
from commerce_agent.operations.base import CART, COMMERCE, READS, Tool, ToolContext, schema


def cart_summary(cart: dict[str, Any], store_name: str | None = None) -> dict[str, Any]:
    return {
        "cartId": cart["id"], "storeId": cart["storeId"], "storeName": store_name,
        "status": cart["status"],
        "items": [{"cartItemId": line["cartItemId"], "itemId": line["itemId"],
                   "name": line["name"], "quantity": line["quantity"], "price": line["price"],
                   "lineTotal": line["lineTotal"],
                   "fulfillmentType": line.get("fulfillmentType"),
                   **{key: line[key] for key in _LINE_OPTIONS if key in line}}
                  for line in cart["items"]],
        "promotions": [promotion.get("code") for promotion in cart.get("promotions", [])],
        "subtotal": cart["subtotal"], "discount": cart["discount"],
        **{key: cart[key] for key in ("shipping", "shippingMethod", "tax") if key in cart},
        "total": cart["total"], "itemCount": cart["itemCount"],
        **({"shippingOptions": [{key: option[key] for key in
                                 ("id", "name", "amount", "processingTime") if key in option}
                                for option in cart["shippingOptions"]]}
           if cart.get("shippingOptions") else {}),
    }


def line_options(args: dict[str, Any]) -> dict[str, Any]:
    """A line's options in the canonical form the cart route stores (identical lines merge)."""
    options: dict[str, Any] = {}
    if args.get("addOnIds"):
        options["addOnIds"] = sorted(set(args["addOnIds"]))
    if args.get("customizations"):
        options["customizations"] = {
            key: value if isinstance(value, str) else sorted(set(value))
            for key, value in args["customizations"].items()}
    for key in ("notes", "timeSlotId"):
        if args.get(key):
            options[key] = args[key]
    return options


def _lifetime(ctx: ToolContext) -> int:
    return ctx.settings.cart_lifetime_seconds


async def _write(ctx: ToolContext, method: str, route: str, args: dict[str, Any],
                 change: Any, status: int = 200) -> Any:
    async def work(tx: Transaction) -> idempotency.Outcome:
        cart: CartView = await change(tx)
        return idempotency.Outcome(status, cart_summary(cart.render(), cart.store.get("name")))

    outcome = await idempotency.call_once(ctx.db, ctx.scope(method, route), args, work)
    return outcome.body


async def create_cart(ctx: ToolContext, args: dict[str, Any]) -> Any:
    return await _write(ctx, "POST", "/carts", args, lambda tx: service.create_cart(
        tx, ctx.user(), args["storeId"], None, _lifetime(ctx)), status=201)


async def view_cart(ctx: ToolContext, args: dict[str, Any]) -> Any:
    cart = await service.open_cart(ctx.db, args["cartId"], ctx.user())
    return cart_summary(cart.render(), cart.store.get("name"))


async def list_carts(ctx: ToolContext, args: dict[str, Any]) -> Any:
    """The user's open carts, as GET /carts and the web cart page show them."""
    carts, info = await shopper.open_carts(ctx.db, ctx.user(), Page(10))
    return {"carts": [cart_summary(cart.render(), cart.store.get("name")) for cart in carts],
            "total": info["totalCount"]}


async def add_to_cart(ctx: ToolContext, args: dict[str, Any]) -> Any:
    cart_id = args["cartId"]
    return await _write(ctx, "POST", f"/carts/{cart_id}/items", args, lambda tx: service.add_item(
        tx, ctx.user(), cart_id, args["itemId"], args.get("quantity", 1),
        args.get("variantId") or "", line_options(args), _lifetime(ctx)))


async def update_cart_item(ctx: ToolContext, args: dict[str, Any]) -> Any:
    cart_id, line_id = args["cartId"], args["cartItemId"]
    return await _write(
        ctx, "PATCH", f"/carts/{cart_id}/items/{line_id}", args,
        lambda tx: service.update_item(tx, ctx.user(), cart_id, line_id,
                                       {"quantity": args["quantity"]}, _lifetime(ctx)))


async def remove_cart_item(ctx: ToolContext, args: dict[str, Any]) -> Any:
    cart_id, line_id = args["cartId"], args["cartItemId"]
    return await _write(
        ctx, "DELETE", f"/carts/{cart_id}/items/{line_id}", args,
        lambda tx: service.remove_item(tx, ctx.user(), cart_id, line_id, _lifetime(ctx)))


async def apply_promotion(ctx: ToolContext, args: dict[str, Any]) -> Any:
    cart_id = args["cartId"]
    return await _write(
        ctx, "POST", f"/carts/{cart_id}/promotions", args,
        lambda tx: service.apply_promotion(tx, ctx.user(), cart_id, args["code"],
                                           ctx.max_promotions,
                                           _lifetime(ctx)))


_CART = {"type": "string", "description": "The cart's id (cartId)."}
_QUANTITY = {"type": "integer", "minimum": 1, "maximum": 999}
_ID = {"type": "string", "minLength": 1, "maxLength": 200}
_LINE_OPTIONS = ("variantId", "timeSlotId", "customizations", "addOnIds", "notes")


def tools() -> list[Tool]:
    return [
        Tool("create_cart", "Create an empty cart at one store for the signed-in user.",
             schema({"storeId": {"type": "string"}}, ["storeId"]), create_cart, COMMERCE,
             effect=CART),
        Tool("view_cart", "Show a cart: its lines and totals.",
             schema({"cartId": _CART}, ["cartId"]), view_cart, COMMERCE, effect=READS),
        Tool("list_carts", "List the user's open carts (any made on the web, by MCP or "
             "here), most recently changed first.", schema({}, []), list_carts, COMMERCE,
             effect=READS),
        Tool("add_to_cart",
             "Add an item (quantity defaults to 1) to a cart: with its variantId when it has "
             "variants, its required customizations ({groupId: optionId or [optionIds]}), any "
             "addOnIds, and the timeSlotId of a scheduled service.",
             schema({"cartId": _CART, "itemId": {"type": "string"}, "quantity": _QUANTITY,
                     "variantId": {"type": "string"},
                     "customizations": {"type": "object", "maxProperties": 20,
                                        "additionalProperties": {"anyOf": [
                                            _ID, {"type": "array", "items": _ID,
                                                  "maxItems": 20}]}},
                     "addOnIds": {"type": "array", "items": _ID, "maxItems": 20},
                     "timeSlotId": _ID, "notes": {"type": "string", "maxLength": 500}},
                    ["cartId", "itemId"]),
             add_to_cart, COMMERCE, effect=CART),
        Tool("update_cart_item", "Change the quantity of one cart line.",
             schema({"cartId": _CART, "cartItemId": {"type": "string"}, "quantity": _QUANTITY},
                    ["cartId", "cartItemId", "quantity"]), update_cart_item, COMMERCE,
             effect=CART),
        Tool("remove_cart_item", "Remove one line from a cart.",
             schema({"cartId": _CART, "cartItemId": {"type": "string"}},
                    ["cartId", "cartItemId"]), remove_cart_item, COMMERCE,
             effect=CART, destructive=True),
        Tool("apply_promotion", "Apply a promotion code to a cart.",
             schema({"cartId": _CART, "code": {"type": "string", "minLength": 1,
                                               "maxLength": 64}}, ["cartId", "code"]),
             apply_promotion, COMMERCE, effect=CART),
    ]
