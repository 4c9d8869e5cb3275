"""POST /shop/cart: the cart page's and the product page's forms, for a browser without
JavaScript (the scripts call the Commerce API instead, with the same services behind it).

One route, the change named by the form's `action` field: `add` (from a product page: to the
shopper's open cart at that store, or a new one), `update` (a line's quantity), `remove` (a
line), `promotion` (a code) and `shipping` (one of the store's options). Every form carries
the page's CSRF token. The shopper is the signed-in user, else the browser's guest cart token
(a guest's first `add` gives the browser one, in the same HttpOnly cookie the scripts get).
A change that worked answers 303 to the cart page (post/redirect/get); one the services refuse
shows the cart page again with the reason as an alert and the error's status.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import guests
from commerce_agent.auth.tokens import Principal
from commerce_agent.auth.web import (
    Browser,
    bad_form,
    form_expired,
    read_form_fields,
    redirect,
    set_guest_cookie,
)
from commerce_agent.commerce.pagination import Page
from commerce_agent.commerce.services.carts import cart as service
from commerce_agent.commerce.services.carts import shopper
from commerce_agent.db import Transaction, retry_conflicts
from commerce_agent.digits import whole_number
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.web import paths
from commerce_agent.web.pages import CART_CHANGES, cart_page_response, shopper_of

ACTIONS = tuple(CART_CHANGES)  # what the cart page then says: fixed texts, never the request's
NEEDS_SCRIPT = ("Paying by card runs in the page's script: turn JavaScript on to check out "
                "(the cart is kept).")
MAX_OPEN = 50  # the open carts looked through for the store's cart on `add`


def _field(form: dict[str, str], name: str, limit: int = 100) -> str:
    value = form.get(name, "").strip()
    if not value:
        raise validation_error(f"/{name}", "is required")
    if len(value) > limit:
        raise validation_error(f"/{name}", f"must be at most {limit} characters")
    return value


def _quantity(form: dict[str, str]) -> int:
    text = _field(form, "quantity", 10)
    quantity = whole_number(text)
    if quantity is None:
        raise validation_error("/quantity", "must be a whole number", text)
    return quantity


def _line_options(form: dict[str, str], fields: dict[str, list[str]]) -> dict[str, Any]:
    """The product form's choices as the cart routes' canonical line options (as
    AddItemRequest.options makes them)."""
    options: dict[str, Any] = {}
    add_ons = sorted(set(fields.get("addon", [])))
    if add_ons:
        options["addOnIds"] = add_ons
    multiple = set(fields.get("multiple", []))  # the groups where several may be chosen
    customizations: dict[str, Any] = {}
    for name, values in fields.items():
        group = name.removeprefix("group:")
        if name.startswith("group:") and values:
            customizations[group] = sorted(set(values)) if group in multiple else values[0]
    if customizations:
        options["customizations"] = customizations
    if form.get("notes", "").strip():
        options["notes"] = form["notes"].strip()[:1000]
    if form.get("slot"):
        options["timeSlotId"] = form["slot"][:100]
    return options


async def _add(tx: Transaction, owner: Principal, form: dict[str, str],
               fields: dict[str, list[str]], lifetime: int) -> None:
    item_id, store_id = _field(form, "item_id"), _field(form, "store_id")
    carts, _ = await shopper.open_carts(tx, owner, Page(MAX_OPEN))
    cart = next((cart for cart in carts if cart.row["store_id"] == store_id), None)
    if cart is None:
        cart = await service.create_cart(tx, owner, store_id, None, lifetime)
    await service.add_item(tx, owner, cart.id, item_id, _quantity(form),
                           form.get("variant", "")[:100], _line_options(form, fields),
                           lifetime)


async def _change(tx: Transaction, request: Request, owner: Principal, action: str,
                  fields: dict[str, list[str]]) -> None:
    lifetime: int = request.app.state.settings.cart_lifetime_seconds
    form = {key: values[0] for key, values in fields.items()}
    if action == "add":
        await _add(tx, owner, form, fields, lifetime)
        return
    cart_id = _field(form, "cart_id")
    if action == "update":
        await service.update_item(tx, owner, cart_id, _field(form, "line_id"),
                                  {"quantity": _quantity(form)}, lifetime)
    elif action == "remove":
        await service.remove_item(tx, owner, cart_id, _field(form, "line_id"), lifetime)
    elif action == "promotion":
        await service.apply_promotion(tx, owner, cart_id, _field(form, "code", 64),
                                      request.app.state.max_promotions, lifetime)
    else:
        method = form.get("shippingMethodId", "").strip()[:100]
        await service.select_shipping(tx, owner, cart_id, method or None, lifetime)


async def cart_form(request: Request) -> Response:
    """Apply one form's change to the shopper's carts; 303 to the cart page."""
    browser = await Browser.of(request)
    fields = await read_form_fields(request)
    if fields is None:
        return bad_form(request)
    form = {key: values[0] for key, values in fields.items()}
    if not browser.csrf_ok(form):
        return form_expired(browser, paths.CART)
    action = form.get("action", "")
    minted = None
    owner = shopper_of(request, browser)
    if owner is None and action == "add":  # a guest's first cart: the browser keeps its token
        minted = guests.mint_guest_token()
        owner = guests.guest_principal(minted)
    if action == "checkout":  # the checkout form, posted without its script
        return await cart_page_response(request, browser, problem=NEEDS_SCRIPT, status=400)
    try:
        if action not in ACTIONS:
            raise validation_error("/action", f"must be one of {', '.join(ACTIONS)}", action)
        if owner is None:
            raise CommerceError(404, "cart_not_found", "This browser holds no cart.",
                                params={"id": form.get("cart_id", "")[:100]})
        db, shopper_now = request.app.state.db, owner

        async def run() -> None:
            async with db.transaction() as tx:
                await _change(tx, request, shopper_now, action, fields)

        await retry_conflicts(run)
    except CommerceError as error:
        return await cart_page_response(request, browser, problem=error.message,
                                        status=error.status)
    response = redirect(f"{paths.CART}?done={action}")
    if minted is not None:
        set_guest_cookie(request, response, minted)
    return browser.respond(response)
