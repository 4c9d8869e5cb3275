"""Cart rules: lifecycle (active → submitted | expired), lines, promotions, totals."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import msgspec

from commerce_agent import clock
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce import money
from commerce_agent.commerce.capability_ids import STORE_SHIPPING
from commerce_agent.commerce.services.carts import charges, pricing
from commerce_agent.commerce.services.catalog import store_cache
from commerce_agent.commerce.services.catalog.storefront import StockedItem, group_rows
from commerce_agent.commerce.services.fulfillment import scheduling
from commerce_agent.commerce.storage import carts as storage
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.db import Row, Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.ids import new_id

NEW_CART_ACTION = {"id": "create_new_cart", "href": "/carts", "method": "POST",
                   "title": "Create a new cart"}


@dataclass
class CartLine:
    id: str
    item_id: str
    variant_id: str
    quantity: int
    options: dict[str, Any]
    item: StockedItem | None
    _unit_price: Decimal | None = field(default=None, repr=False, compare=False)

    @property
    def unit_price(self) -> Decimal:
        # Priced once: a cart is rendered and totalled several times per request.
        if self._unit_price is None:
            self._unit_price = pricing.unit_price(self.item, self.variant_id, self.options) \
                if self.item else Decimal(0)
        return self._unit_price

    def change(self, quantity: int, options: dict[str, Any]) -> None:
        self.quantity, self.options, self._unit_price = quantity, options, None

    def render(self, currency: str) -> dict[str, Any]:
        unit = self.unit_price
        available = self.item is not None and self.item.available_quantity(self.variant_id) != 0
        line: dict[str, Any] = {
            "cartItemId": self.id, "itemId": self.item_id, "quantity": self.quantity,
            "name": self.item.doc.get("name", "") if self.item else "",
            "price": money.money(unit, currency),
            "lineTotal": money.money(unit * self.quantity, currency),
            "fulfillmentType": self.item.doc.get("fulfillmentType") if self.item else None,
            "available": available,
        }
        if self.variant_id:
            line["variantId"] = self.variant_id
        line.update(self.options)
        return line


@dataclass
class CartView:
    row: Mapping[str, Any] | Row
    currency: str
    store: dict[str, Any]  # the store's document (shared: read only)
    lines: list[CartLine]
    promotions: dict[str, dict[str, Any]] = field(default_factory=dict)  # shared: read only
    # Computed once per view (functools.cached_property takes a lock on every read in 3.11).
    _codes: list[str] | None = field(default=None, init=False, repr=False, compare=False)
    _prices: tuple[list[pricing.AppliedPromotion], charges.Charges] | None = \
        field(default=None, init=False, repr=False, compare=False)

    @property
    def store_metadata(self) -> dict[str, Any]:
        metadata: dict[str, Any] = self.store.get("metadata", {})
        return metadata

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def codes(self) -> list[str]:
        if self._codes is None:
            self._codes = msgspec.json.decode(self.row["promotion_codes"])
        return self._codes

    @property
    def subtotal(self) -> Decimal:
        return sum((line.unit_price * line.quantity for line in self.lines), Decimal(0))

    @property
    def ships(self) -> bool:
        """Whether anything in the cart is sent to an address (and so carries shipping)."""
        return any(line.item is not None and charges.ships(line.item.doc)
                   for line in self.lines)

    @property
    def shipping_method_id(self) -> str | None:
        """The shopper's stored choice, while the store still offers it (else the default)."""
        chosen = self.row["shipping_method_id"]
        offered = self.store_metadata.get(STORE_SHIPPING, {}).get("shippingOptions", [])
        return str(chosen) if chosen and any(
            isinstance(option, dict) and option.get("id") == chosen for option in offered) \
            else None

    def charges_for(self, lines: list[CartLine], discount: Decimal, method_id: str | None,
                    field: str = "/shippingMethodId", *, shipped: bool = True
                    ) -> charges.Charges:
        """The charges of some of the lines (a fulfillment group) after their discount;
        `shipped` False: the group is collected, so nothing of it carries shipping."""
        subtotal = sum((line.unit_price * line.quantity for line in lines), Decimal(0))
        needed = shipped and any(line.item is not None and charges.ships(line.item.doc)
                                 for line in lines)
        return charges.compute(self.store_metadata, self.currency, subtotal, discount, needed,
                               method_id, field)

    @property
    def _priced(self) -> tuple[list[pricing.AppliedPromotion], charges.Charges]:
        # Priced once per view: an order asks for its totals several times. The services
        # change a view's lines only before `_saved`, which answers with a new view.
        if self._prices is None:
            subtotal = self.subtotal
            applied = pricing.evaluate(self.codes, self.promotions, subtotal, self.currency)
            discount = sum((p.discount for p in applied), Decimal(0))
            self._prices = applied, self.charges_for(self.lines, discount,
                                                     self.shipping_method_id)
        return self._prices

    def applied_promotions(self) -> list[pricing.AppliedPromotion]:
        return self._priced[0]

    def priced(self) -> charges.Charges:
        """Subtotal, discount, shipping (the chosen or default option) and tax."""
        return self._priced[1]

    def totals(self) -> tuple[Decimal, Decimal, Decimal]:
        """Subtotal, discount and total (shipping and tax included)."""
        priced = self._priced[1]
        return priced.subtotal, priced.discount, priced.total

    def render(self) -> dict[str, Any]:
        applied, priced = self._priced
        cart: dict[str, Any] = {
            "id": self.id, "storeId": self.row["store_id"], "status": self.row["status"],
            "items": [line.render(self.currency) for line in self.lines],
            "promotions": [p.render(self.currency) for p in applied],
            "subtotal": money.money(priced.subtotal, self.currency),
            "discount": money.money(priced.discount, self.currency),
            **priced.render(self.currency),
            "total": money.money(priced.total, self.currency),
            "itemCount": sum(line.quantity for line in self.lines),
            "createdAt": self.row["created_at"], "updatedAt": self.row["updated_at"],
            "expiresAt": self.row["expires_at"],
        }
        if self.row["guest_info"]:
            cart["guestInfo"] = json.loads(self.row["guest_info"])
        cart["actions"] = [
            {"id": "add_item", "href": f"/carts/{self.id}/items", "method": "POST",
             "rel": "create", "title": "Add an item"},
            {"id": "apply_promotion", "href": f"/carts/{self.id}/promotions", "method": "POST",
             "title": "Apply a promotion code"},
        ]
        if self.ships:
            cart["shippingOptions"] = charges.options(self.store_metadata, priced.merchandise,
                                                      self.currency)
            cart["actions"].append({"id": "select_shipping", "href": f"/carts/{self.id}/shipping",
                                    "method": "PUT", "title": "Choose a shipping option"})
        if self.lines:
            cart["actions"].append({"id": "checkout", "href": "/orders", "method": "POST",
                                    "rel": "create", "title": "Place the order"})
        return cart


def checked_open(cart: CartView | None, cart_id: str) -> CartView:
    """`cart` while it can still change: 404 when there is none or it was submitted, 410
    once it expired."""
    if cart is None or cart.row["status"] == "submitted":
        raise CommerceError(404, "cart_not_found", f"No active cart with id {cart_id!r}.",
                            params={"id": cart_id})
    if cart.row["status"] == "expired" or cart.row["expires_at"] <= clock.now_iso():
        raise CommerceError(410, "cart_expired",
                            "This cart expired after a period of inactivity.",
                            next_actions=[NEW_CART_ACTION], params={"id": cart_id})
    return cart


def _lines(rows: list[Row]) -> list[CartLine]:
    """The lines of storage.cart_with_lines rows, each with its item and the item's stock."""
    lines: dict[str, CartLine] = {}
    items: dict[str, StockedItem] = {}
    for row in rows:
        line_id = row["line_id"]
        if line_id is None:
            continue  # the one row of a cart without lines
        line = lines.get(line_id)
        if line is None:
            item_id = row["item_id"]
            item = items.get(item_id)
            if item is None and row["doc"] is not None:  # no doc: the item is no longer sold
                item = items[item_id] = StockedItem(item_id, msgspec.json.decode(row["doc"]),
                                                    row["item_store_id"], row["catalog_id"])
            line = lines[line_id] = CartLine(line_id, item_id, row["line_variant"],
                                             row["line_quantity"],
                                             msgspec.json.decode(row["options"]), item)
        if line.item is not None and row["variant_id"] is not None:
            line.item.stock[row["variant_id"]] = int(row["quantity"])
    return list(lines.values())


async def view(db: Any, row: Mapping[str, Any] | Row, lines: list[CartLine]
               ) -> CartView:
    """A cart row with its lines, priced by its store's rules (kept by store_cache)."""
    store = await store_cache.rules(db, row["store_id"])
    assert store is not None
    return CartView(row, store.currency, store.doc, lines, store.promotions)


async def read_cart(db: Any, cart_id: str, principal: Principal) -> CartView | None:
    """The caller's cart whatever its status, or None (absent, another owner's)."""
    rows = await storage.cart_with_lines(db, cart_id, principal.user_id)
    return await view(db, rows[0], _lines(rows)) if rows else None


async def open_cart(db: Any, cart_id: str, principal: Principal) -> CartView:
    """The caller's active cart, or 404 (absent, another owner's, submitted) / 410 (expired)."""
    return checked_open(await read_cart(db, cart_id, principal), cart_id)


async def create_cart(tx: Transaction, principal: Principal, store_id: str,
                      guest_info: dict[str, Any] | None, lifetime: int) -> CartView:
    if await store_cache.rules(tx, store_id) is None:
        raise validation_error("/storeId", "names no store", store_id)
    cart_id = new_id("cart")
    await storage.insert_cart(tx, {
        "id": cart_id, "owner_id": principal.user_id, "store_id": store_id,
        "guest_info": json.dumps(guest_info) if guest_info is not None else None,
        "now": clock.now_iso(), "expires_at": clock.later_iso(lifetime)})
    return await open_cart(tx, cart_id, principal)


async def _saved(tx: Transaction, cart: CartView, lifetime: int, **row: Any) -> CartView:
    """Touch the changed cart (its lifetime restarts) and return it as it now stands: the
    caller has changed `cart.lines` to match what it wrote, so nothing is read again."""
    now, expires = clock.now_iso(), clock.later_iso(lifetime)
    await storage.touch(tx, cart.id, now, expires)
    kept = {column: cart.row[column] for column in storage.CART_COLUMNS}
    return CartView({**kept, **row, "updated_at": now, "expires_at": expires},
                    cart.currency, cart.store, cart.lines, cart.promotions)


def _check_stock(item: StockedItem, variant_id: str, wanted: int) -> None:
    on_hand = item.available_quantity(variant_id)
    if on_hand is None:
        return
    if on_hand == 0:
        raise CommerceError(400, "product_unavailable", f"{item.doc.get('name')} is out of stock.",
                            details=[{"type": "business_logic", "resourceId": item.id,
                                      "reason": "out_of_stock", "availableQuantity": 0}],
                            params={"itemId": item.id})
    if wanted > on_hand:
        raise CommerceError(409, "insufficient_stock",
                            f"Only {on_hand} of {item.doc.get('name')} left in stock.",
                            details=[{"type": "business_logic", "resourceId": item.id,
                                      "reason": "insufficient_stock",
                                      "availableQuantity": on_hand}],
                            params={"itemId": item.id, "availableQuantity": on_hand})


async def add_item(tx: Transaction, principal: Principal, cart_id: str, item_id: str,
                   quantity: int, variant_id: str, options: dict[str, Any],
                   lifetime: int) -> CartView:
    # The item is read beside the cart (one round trip on PostgreSQL).
    rows, item_rows = await storage.cart_with_lines_and_items(tx, cart_id, principal.user_id,
                                                              [item_id])
    cart = checked_open(await view(tx, rows[0], _lines(rows)) if rows else None, cart_id)
    pricing.check_quantity(quantity)
    item = next((line.item for line in cart.lines if line.item_id == item_id), None) \
        or group_rows(item_rows).get(item_id)
    if item is None or item.store_id != cart.row["store_id"]:
        raise validation_error("/itemId", "names no item of this cart's store", item_id)
    pricing.check_options(item, variant_id, options)
    scheduling.check_slot(item, options)
    same = next((line for line in cart.lines if line.item_id == item_id
                 and line.variant_id == variant_id and line.options == options), None)
    total_quantity = quantity + (same.quantity if same else 0)
    pricing.check_quantity(total_quantity)
    _check_stock(item, variant_id, total_quantity)
    if same is not None:
        await storage.set_quantity(tx, same.id, total_quantity)
        same.quantity = total_quantity
    else:
        limit = pricing.max_cart_items(cart.store_metadata)
        if limit is not None and len(cart.lines) >= limit:
            raise CommerceError(
                400, "max_cart_items_exceeded",
                f"This store allows at most {limit} different items in a cart.",
                details=[{"type": "business_logic", "reason": "max_cart_items",
                          "value": limit}], params={"maxCartItems": limit})
        line = CartLine(new_id("line"), item_id, variant_id, quantity, options, item)
        await storage.insert_line(tx, cart.id, {"id": line.id, "itemId": item_id,
                                                "variantId": variant_id, "quantity": quantity,
                                                "options": options})
        cart.lines.append(line)
    return await _saved(tx, cart, lifetime)


def _line(cart: CartView, line_id: str) -> CartLine:
    line = next((line for line in cart.lines if line.id == line_id), None)
    if line is None:
        raise CommerceError(404, "cart_item_not_found",
                            f"This cart has no line {line_id!r}.", params={"id": line_id})
    return line


async def update_item(tx: Transaction, principal: Principal, cart_id: str, line_id: str,
                      changes: dict[str, Any], lifetime: int) -> CartView:
    cart = await open_cart(tx, cart_id, principal)
    line = _line(cart, line_id)
    # `changes` is read, never changed: a write retried after a conflict passes it again.
    quantity = changes.get("quantity")
    options = dict(line.options)
    for key, value in changes.items():
        if key == "quantity":
            continue
        if value is None:
            options.pop(key, None)
        else:
            options[key] = value
    new_quantity = line.quantity if quantity is None else quantity
    pricing.check_quantity(new_quantity)
    if line.item is None:
        raise CommerceError(409, "order_items_unavailable", "This item is no longer sold.")
    pricing.check_options(line.item, line.variant_id, options)
    if new_quantity > line.quantity:
        _check_stock(line.item, line.variant_id, new_quantity)
    await storage.update_line(tx, line.id, new_quantity, options)
    line.change(new_quantity, options)
    return await _saved(tx, cart, lifetime)


async def remove_item(tx: Transaction, principal: Principal, cart_id: str, line_id: str,
                      lifetime: int) -> CartView:
    cart = await open_cart(tx, cart_id, principal)
    line = _line(cart, line_id)
    await storage.delete_line(tx, line.id)
    cart.lines.remove(line)
    return await _saved(tx, cart, lifetime)


async def apply_promotion(tx: Transaction, principal: Principal, cart_id: str, code: str,
                          server_max: int, lifetime: int) -> CartView:
    cart = await open_cart(tx, cart_id, principal)
    code = code.strip().upper()
    if code in cart.codes:
        return cart
    problem = pricing.promotion_problem(cart.promotions.get(code), cart.subtotal)
    if problem is not None:
        detail: dict[str, Any] = {"type": "business_logic", "reason": problem, "value": code}
        minimum = (cart.promotions.get(code) or {}).get("minimumSubtotal")
        if problem == "minimum_subtotal_not_met" and minimum:  # how much the code needs
            detail["minimumSubtotal"] = money.money(money.parse(minimum), cart.currency)
        raise CommerceError(400, "promotion_invalid", f"The code {code!r} cannot be applied.",
                            details=[detail], params={"code": code})
    await check_per_user_limits(tx, principal.user_id, cart, [code])
    if cart.codes and not pricing.stacking_allowed(cart.store_metadata):
        raise CommerceError(409, "promotion_stacking_not_allowed",
                            "This store allows only one promotion per cart.",
                            params={"code": code})
    if len(cart.codes) >= server_max:
        raise CommerceError(409, "promotion_stacking_not_allowed",
                            f"At most {server_max} promotions can be combined.",
                            params={"code": code})
    codes = [*cart.codes, code]
    await storage.set_promotions(tx, cart.id, codes)
    return await _saved(tx, cart, lifetime, promotion_codes=json.dumps(codes))


async def check_per_user_limits(db: Any, user_id: str, cart: CartView, codes: list[str]
                                ) -> None:
    """A code with a `perUserLimit` applies to at most that many of the customer's orders in
    the store (cancelled ones given back): the cart, the order and every front end ask here."""
    for code in codes:
        limit = cart.promotions.get(code, {}).get("perUserLimit")
        if limit is None:
            continue
        used = await order_storage.promotion_uses(db, user_id, str(cart.row["store_id"]), code)
        if used >= int(limit):
            raise CommerceError(
                400, "promotion_invalid", f"The code {code!r} cannot be applied.",
                details=[{"type": "business_logic", "reason": "per_user_limit_reached",
                          "value": code}], params={"code": code})


async def select_shipping(tx: Transaction, principal: Principal, cart_id: str,
                          method_id: str | None, lifetime: int) -> CartView:
    """Choose one of the store's shipping options for what the cart ships (None: go back to
    the store's default); 400 shipping_method_invalid for an id the store does not offer."""
    cart = await open_cart(tx, cart_id, principal)
    if method_id is not None:
        offered = charges.options(cart.store_metadata, cart.priced().merchandise,
                                  cart.currency)
        charges.choose(offered, method_id, "/shippingMethodId")
    await storage.set_shipping_method(tx, cart.id, method_id)
    return await _saved(tx, cart, lifetime, shipping_method_id=method_id)


async def remove_promotion(tx: Transaction, principal: Principal, cart_id: str, code: str,
                           lifetime: int) -> CartView:
    cart = await open_cart(tx, cart_id, principal)
    code = code.strip().upper()
    if code not in cart.codes:
        raise CommerceError(404, "promotion_not_applied", f"The code {code!r} is not applied.")
    codes = [c for c in cart.codes if c != code]
    await storage.set_promotions(tx, cart.id, codes)
    return await _saved(tx, cart, lifetime, promotion_codes=json.dumps(codes))
