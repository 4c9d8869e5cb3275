"""Placing orders: the POST /orders rules, the x402 payment step, stock and the order record.

Everything after the cart checks runs in the caller's one transaction: the payment proof is
spent, stock is taken with conditional UPDATEs and the order inserted together, so a failure
at any step leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from commerce_agent import clock
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce import money
from commerce_agent.commerce.orders import lifecycle
from commerce_agent.commerce.orders.model import (
    APPLIED_PROMOTIONS,
    CONFIRMED,
    FULFILLMENT_INTENT,
    PENDING,
)
from commerce_agent.commerce.payments import (
    exact,
    proofs,
    providers,
    settlement,
    x402,
    x402_v2,
)
from commerce_agent.commerce.services.carts import cart as carts
from commerce_agent.commerce.services.carts import charges, pricing
from commerce_agent.commerce.services.carts.cart import CartLine, CartView
from commerce_agent.commerce.services.catalog.storefront import group_rows
from commerce_agent.commerce.services.checkout import setup as order_setup
from commerce_agent.commerce.services.fulfillment import intent as fulfillment_intent
from commerce_agent.commerce.services.fulfillment import shipping
from commerce_agent.commerce.services.fulfillment.intent import Group
from commerce_agent.commerce.storage import carts as cart_storage
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import orders as storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.ids import new_id


@dataclass
class OrderRequest:
    """A decoded POST /orders body: from a cart, or direct items (dev.commerce.order.direct)."""

    cart_id: str | None
    direct_items: list[dict[str, Any]] | None
    store_id: str | None
    promotion_code: str | None
    delivery_address: dict[str, Any] | None
    billing_address: dict[str, Any] | None
    metadata: dict[str, Any]
    notes: str | None
    guest_info: dict[str, Any] | None = None
    # One of the store's shipping options for what ships (None: the cart's choice, else the
    # store's default). A fulfillment intent names one per physical group instead.
    shipping_method_id: str | None = None


@dataclass
class Payment:
    """Proof sent in X-PAYMENT or PAYMENT-SIGNATURE, checked before the transaction where it
    can be."""

    proof: x402.PaymentProof
    transfer: exact.VerifiedTransfer | None = None


@dataclass
class PlacedOrder:
    status: int
    body: Any
    headers: dict[str, str]


def _needs_delivery(line: CartLine) -> bool:
    assert line.item is not None
    return charges.ships(line.item.doc)


def order_charges(cart: CartView, request: OrderRequest, groups: list[Group] | None
                  ) -> list[charges.Charges]:
    """What the order costs (one entry per order it becomes): lines, discount, shipping and
    tax; their totals together are the amount due (the 402 amount)."""
    if groups is not None:
        return fulfillment_intent.group_charges(cart, groups, _intent_key(request))
    if request.shipping_method_id is None:
        return [cart.priced()]
    return [cart.charges_for(cart.lines, cart.priced().discount, request.shipping_method_id)]


def _intent_key(request: OrderRequest) -> str:
    return next((key for key in request.metadata
                 if key.split("@", 1)[0] == FULFILLMENT_INTENT), FULFILLMENT_INTENT)


def amount_due(priced: list[charges.Charges]) -> Decimal:
    return sum((entry.total for entry in priced), Decimal(0))


def order_type(lines: list[CartLine]) -> str:
    """physical, digital, pickup or mixed, from what the lines need."""
    kinds = {str(line.item.doc.get("fulfillmentType")) for line in lines if line.item}
    if kinds == {"hybrid"} or (len(kinds) > 1):
        return "mixed"
    return next(iter(kinds), "physical")


async def _cart_for_order(tx: Transaction | Database, principal: Principal, cart_id: str
                          ) -> CartView:
    cart = await carts.read_cart(tx, cart_id, principal)
    if cart is None:
        raise CommerceError(404, "cart_not_found", f"No cart with id {cart_id!r}.",
                            params={"id": cart_id})
    if cart.row["status"] == "submitted":
        raise CommerceError(409, "cart_already_submitted",
                            "This cart has already been turned into an order.",
                            params={"id": cart_id})
    return carts.checked_open(cart, cart_id)


async def _direct_cart(tx: Transaction | Database, principal: Principal,
                       request: OrderRequest) -> CartView:
    """An in-memory cart for a Buy Now order; nothing of it is stored."""
    assert request.direct_items is not None
    item_ids = [line["itemId"] for line in request.direct_items]
    items = group_rows(await catalog_storage.items_with_stock(tx, item_ids))
    stores = {item.store_id for item in items.values()}
    for index, line in enumerate(request.direct_items):
        if line["itemId"] not in items:
            raise validation_error(f"/items/{index}/itemId", "names no item", line["itemId"])
        pricing.check_quantity(line["quantity"], f"/items/{index}/quantity")
        item = items[line["itemId"]]
        pricing.check_options(item, line.get("variantId") or "", line["options"],
                              prefix=f"/items/{index}")
    if len(stores) != 1:
        raise validation_error("/items", "must all come from one store")
    store_id = stores.pop()
    now = clock.now_iso()
    codes = [request.promotion_code.strip().upper()] if request.promotion_code else []
    row = {"id": None, "store_id": store_id, "status": "active", "guest_info": None,
           "promotion_codes": json.dumps(codes), "shipping_method_id": None,
           "created_at": now, "updated_at": now, "expires_at": now}
    view = await carts.view(tx, row, [])
    view.lines = [CartLine(new_id("line"), line["itemId"], line.get("variantId") or "",
                           line["quantity"], line["options"], items[line["itemId"]])
                  for line in request.direct_items]
    for promotion in view.applied_promotions():
        if not promotion.applicable:
            raise CommerceError(400, "promotion_invalid",
                                f"The code {promotion.code!r} cannot be applied.",
                                details=[{"type": "business_logic", "reason": promotion.reason,
                                          "value": promotion.code}])
    return view


async def _order_cart(db: Transaction | Database, principal: Principal,
                      request: OrderRequest) -> CartView:
    if request.direct_items is not None:
        return await _direct_cart(db, principal, request)
    assert request.cart_id is not None
    return await _cart_for_order(db, principal, request.cart_id)


def _check_lines(cart: CartView) -> None:
    if not cart.lines:
        raise CommerceError(400, "cart_empty", "The cart has no items to order.",
                            next_actions=[{"id": "add_item", "href": f"/carts/{cart.id}/items",
                                           "method": "POST", "title": "Add an item"}])
    unavailable = [line for line in cart.lines
                   if line.item is None or line.item.available_quantity(line.variant_id) == 0]
    if unavailable:
        raise CommerceError(
            409, "order_items_unavailable", "Some items in the cart are no longer available.",
            details=[{"type": "business_logic", "resourceId": line.item_id,
                      "field": f"/items/{line.id}", "reason": "unavailable",
                      "availableQuantity": 0} for line in unavailable])
    short = [(line, line.item.available_quantity(line.variant_id)) for line in cart.lines
             if line.item is not None]
    short = [(line, on_hand) for line, on_hand in short
             if on_hand is not None and on_hand < line.quantity]
    if short:
        raise CommerceError(
            409, "insufficient_stock", "Some quantities exceed what is in stock.",
            details=[{"type": "business_logic", "resourceId": line.item_id,
                      "reason": "insufficient_stock", "availableQuantity": on_hand,
                      "value": line.quantity} for line, on_hand in short])


def _check_rules(cart: CartView, request: OrderRequest, *, planned: bool = False) -> None:
    # With a fulfillment intent (`planned`), each physical group carries its own address.
    needs_address = not planned and any(_needs_delivery(line) for line in cart.lines)
    if needs_address and request.delivery_address is None:
        raise CommerceError(
            400, "delivery_address_required",
            "A delivery address is required for physical items.",
            details=[{"type": "validation", "field": "/deliveryAddress",
                      "reason": "required for physical items"}])
    if needs_address and request.delivery_address is not None:
        shipping.check_deliverable(cart.store_metadata, request.delivery_address)
    minimum = pricing.minimum_order_value(cart.store_metadata)
    total = cart.priced().merchandise  # what the goods come to: shipping and tax aside
    if minimum is not None and total < minimum:
        least = money.money(minimum, cart.currency)["amount"]
        raise CommerceError(
            400, "minimum_order_value",
            f"The items of an order from this store must come to at least {least} "
            f"{cart.currency} (shipping and tax not counted).",
            details=[{"type": "business_logic", "reason": "below_minimum",
                      "value": money.money(total, cart.currency)["amount"]}],
            params={"minimum": money.money(minimum, cart.currency)})


def preflight(cart: CartView, request: OrderRequest) -> list[charges.Charges]:
    """The checks placing `request` runs before any payment, without writing anything: what
    an approval prompt asks before the person is asked to pay (400/409 as place_order).
    Returns what the order will cost (order_charges)."""
    _check_lines(cart)
    _, groups = order_setup.check_request(request.metadata, cart)
    _check_rules(cart, request, planned=groups is not None)
    return order_charges(cart, request, groups)


def _order_document(order_id: str, cart: CartView, request: OrderRequest,
                    payment: dict[str, Any] | None, priced: list[charges.Charges]
                    ) -> dict[str, Any]:
    subtotal, discount, total = cart.priced().subtotal, cart.priced().discount, \
        amount_due(priced)
    now = clock.now_iso()
    items = []
    for line in cart.lines:
        rendered = line.render(cart.currency)
        rendered["id"] = line.id
        rendered.pop("available", None)
        assert line.item is not None
        if line.item.doc.get("fulfillmentComponents"):
            rendered["fulfillmentComponents"] = line.item.doc["fulfillmentComponents"]
        items.append(rendered)
    metadata = dict(request.metadata)
    promotions = [p.render(cart.currency) for p in cart.applied_promotions() if p.applicable]
    if promotions:
        metadata[APPLIED_PROMOTIONS] = {"_version": "1.0", "promotions": promotions,
                                        "totalDiscount": money.money(discount, cart.currency)}
    doc: dict[str, Any] = {
        "id": order_id, "status": CONFIRMED if payment is not None else PENDING,
        "orderType": order_type(cart.lines), "storeId": cart.row["store_id"],
        "items": items, "subtotal": money.money(subtotal, cart.currency),
        "discount": money.money(discount, cart.currency),
        **(priced[0].render(cart.currency) if len(priced) == 1 else {}),
        "total": money.money(total, cart.currency), "createdAt": now, "updatedAt": now,
        "metadata": metadata,
    }
    if cart.row["id"] is not None:
        doc["cartId"] = cart.row["id"]
    for key, value in (("deliveryAddress", request.delivery_address),
                       ("billingAddress", request.billing_address), ("notes", request.notes)):
        if value is not None:
            doc[key] = value
    if cart.row["guest_info"]:
        doc["guestInfo"] = json.loads(cart.row["guest_info"])
    if payment is not None:
        doc["payment"] = payment
    return doc


async def _take_payment(tx: Transaction, principal: Principal, cart: CartView,
                        payment: Payment, order_id: str, pay_to: str, total: Decimal
                        ) -> dict[str, Any]:
    """Spend the proof inside the order transaction; returns the order's payment record."""
    proof = payment.proof
    if proof.scheme == "fiat_intent":
        intent_id = str(proof.payload.get("paymentIntentId", ""))[:200]
        await providers.active().take(tx, owner_id=principal.user_id, intent_id=intent_id,
                                      amount=total, currency=cart.currency)
        await x402.spend_proof(tx, scheme="fiat_intent", proof=intent_id, order_id=order_id)
        return {"scheme": "fiat_intent", "network": proof.network, "reference": intent_id,
                "amount": money.money(total, cart.currency), "payer": principal.user_id}
    transfer = payment.transfer
    assert transfer is not None
    _check_covers(transfer, cart.currency, total)
    await x402.spend_proof(tx, scheme="exact", proof=f"{transfer.payer}:{transfer.nonce}",
                            order_id=order_id)
    # `settled`: the reference is a mined transaction (a facilitator settled it); false: the
    # signature was only checked here and the reference is no chain's.
    return {"scheme": "exact", "network": proof.network, "reference": transfer.transaction,
            "amount": money.money(total, cart.currency), "payer": transfer.payer,
            "payTo": pay_to, "settled": transfer.settled}


def _check_covers(transfer: exact.VerifiedTransfer, currency: str, total: Decimal) -> None:
    """An `exact` authorization pays a USD order of `total` (400 otherwise)."""
    if currency != "USD":
        raise CommerceError(400, "payment_method_unsupported",
                            "The exact (USDC) scheme is offered only for USD orders.")
    needed = x402.usdc_units(total)
    if transfer.value < needed:
        raise CommerceError(400, "payment_failed",
                            f"The authorization covers {transfer.value} units; {needed} needed.",
                            details=[{"type": "business_logic", "reason": "insufficient_value"}])


async def _take_stock(tx: Transaction, cart: CartView) -> None:
    # In one order of rows for every order: two orders taking the same items never wait for
    # each other's row locks crosswise (a deadlock) on PostgreSQL. Deferred with checks: the
    # lines' statements travel together (docs/postgres.md), checked before COMMIT.
    for line in sorted(cart.lines, key=lambda line: (line.item_id, line.variant_id)):
        assert line.item is not None
        item_id = line.item_id

        def taken(count: int, item_id: str = item_id) -> None:
            if count != 1:
                raise CommerceError(
                    409, "insufficient_stock", "An item sold out while the order was placed.",
                    details=[{"type": "business_logic", "resourceId": item_id,
                              "reason": "insufficient_stock"}])

        await catalog_storage.take_stock(
            tx, item_id, line.variant_id, line.quantity,
            counted=line.variant_id in line.item.stock, check=taken)


async def _payment_required(tx: Transaction, principal: Principal, cart: CartView,
                            base_url: str, pay_to: str, idempotency: str | None,
                            total: Decimal) -> PlacedOrder:
    resource = f"{base_url}/orders"
    cart_id = None if cart.row["id"] is None else str(cart.row["id"])
    key = providers.offer_key(principal.user_id, cart_id,
                              f"{cart.row['updated_at']}/{total}/{cart.currency}", idempotency)
    fiat = await providers.active().offer(
        tx, owner_id=principal.user_id, amount=total, currency=cart.currency,
        resource=resource, base_url=base_url, key=key)
    offer_exact = cart.currency == "USD" and exact.exact_available()
    settled = settlement.active() is not None
    body = x402.payment_requirements(
        amount=total, currency=cart.currency, resource=resource,
        description=f"Order of {len(cart.lines)} item(s) from {cart.row['store_id']}",
        fiat=fiat, exact={"payTo": pay_to, "settled": settled} if offer_exact else None)
    version_2 = x402_v2.payment_required(body)
    headers = {"PAYMENT-REQUIRED": x402_v2.encode(version_2)} if version_2 else {}
    return PlacedOrder(402, body, headers)


async def place_order(tx: Transaction, principal: Principal, request: OrderRequest,
                      payment: Payment | None, *, base_url: str, pay_to: str,
                      idempotency: str | None = None) -> PlacedOrder:
    cart = await _order_cart(tx, principal, request)
    _check_lines(cart)
    await carts.check_per_user_limits(tx, principal.user_id, cart, [
        promotion.code for promotion in cart.applied_promotions() if promotion.applicable])
    metadata, groups = order_setup.check_request(request.metadata, cart)
    request = dataclasses.replace(request, metadata=metadata)
    _check_rules(cart, request, planned=groups is not None)
    priced = order_charges(cart, request, groups)
    total = amount_due(priced)
    order_id = new_id("ord")
    record = None
    if total > Decimal(0):
        if payment is None:
            return await _payment_required(tx, principal, cart, base_url, pay_to,
                                           idempotency, total)
        record = await _take_payment(tx, principal, cart, payment, order_id, pay_to, total)
    doc = _order_document(order_id, cart, request, record, priced)
    if record is None:
        doc["status"] = CONFIRMED
    docs = await order_setup.prepare(tx, principal.user_id, doc, cart, groups, base_url,
                                     priced)
    for placed in docs:
        await storage.insert_order(tx, principal.user_id, placed)
    if cart.row["id"] is not None:
        cart_id = str(cart.row["id"])

        def submitted(changed: int) -> None:
            if changed != 1:
                raise CommerceError(409, "cart_already_submitted",
                                    "This cart has already been turned into an order.",
                                    params={"id": cart_id})

        await cart_storage.mark_submitted(tx, cart_id, doc["createdAt"], submitted)
    rendered = [await lifecycle.order_created(tx, principal.user_id, placed)
                for placed in docs]
    # Stock last: on PostgreSQL a popular item's row stays locked from this UPDATE to the
    # COMMIT, so nothing else of the order should run in between (orders of one item take
    # turns on that lock, not on the whole order).
    await _take_stock(tx, cart)
    headers = {"Location": f"/orders/{order_id}"} if len(docs) == 1 else {}
    if payment is not None and record is not None:
        paid = (payment.transfer.value if payment.transfer
                else money.to_minor(total, cart.currency))
        headers.update(proofs.receipt_headers(
            payment.proof, transaction=str(record["reference"]), payer=str(record["payer"]),
            amount=paid, settled=payment.transfer.settled if payment.transfer else True))
    body = rendered[0] if len(docs) == 1 else rendered
    return PlacedOrder(201, body, headers)


async def prepare_payment(db: Database, header: str | None, pay_to: str, *, base_url: str,
                          principal: Principal, request: OrderRequest,
                          signature: str | None = None) -> Payment | None:
    """`preverify`, then, with a facilitator (--x402-facilitator), an `exact` proof is
    verified and settled on chain before the order's transaction starts (settlement.py):
    what every front end calls before `place_order`.

    Money moves only for an order that would be placed: before settling, the order is read
    and checked as `place_order` checks it (cart, rules, address, stock, the amount the
    authorization covers), so a request refused for any reason but a race settles nothing."""
    if settlement.active() is None:
        return preverify(header, pay_to, signature=signature)
    proof = proofs.read_proof(header, signature)
    if proof is None or proof.scheme != "exact":
        return None if proof is None else Payment(proof)
    transfer = exact.verify_exact(proof, pay_to=pay_to, min_value=0, now=None)
    if await settlement.paid_an_order(db, transfer) or await _settles_nothing(
            db, principal, request, transfer):
        return Payment(proof, transfer)
    return Payment(proof, await settlement.settle(db, proof, transfer, pay_to=pay_to,
                                                  resource=f"{base_url}/orders"))


async def _settles_nothing(db: Database, principal: Principal, request: OrderRequest,
                           transfer: exact.VerifiedTransfer) -> bool:
    """Check the order as place_order will, reading only: raises what it would refuse with;
    True when the order costs nothing (place_order then takes no payment)."""
    cart = await _order_cart(db, principal, request)
    _check_lines(cart)
    await carts.check_per_user_limits(db, principal.user_id, cart, [
        promotion.code for promotion in cart.applied_promotions() if promotion.applicable])
    total = amount_due(preflight(cart, request))
    if total <= Decimal(0):
        return True
    _check_covers(transfer, cart.currency, total)
    return False


def preverify(header: str | None, pay_to: str, *, signature: str | None = None
              ) -> Payment | None:
    """Decode X-PAYMENT (`header`) or PAYMENT-SIGNATURE (`signature`) and check an `exact`
    signature before taking the writer lock: one check for both x402 versions."""
    proof = proofs.read_proof(header, signature)
    if proof is None:
        return None
    if proof.scheme == "exact":
        transfer = exact.verify_exact(proof, pay_to=pay_to, min_value=0,
                                      now=int(clock.now().timestamp()))
        return Payment(proof, transfer)
    return Payment(proof)
