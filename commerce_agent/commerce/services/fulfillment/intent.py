"""`dev.commerce.order.fulfillment_intent@1.0`: a per-item fulfillment plan on POST /orders.

The client sends, in the order's `metadata`, a list of groups (upstream schema
order/fulfillment_intent): each says how its cart lines are fulfilled (`physical` to an
address with a shipping method, or `pickup` at the store). Every cart line belongs to exactly
one group, with its whole quantity. Each group becomes its own order; one payment covers them
all, and the cart's discount is shared in proportion to each group's subtotal.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from commerce_agent.commerce import money
from commerce_agent.commerce.address import Address
from commerce_agent.commerce.capability_ids import STORE_SHIPPING
from commerce_agent.commerce.orders.model import APPLIED_PROMOTIONS, FULFILLMENT_INTENT
from commerce_agent.commerce.services.carts import charges
from commerce_agent.commerce.services.carts.cart import CartView
from commerce_agent.commerce.services.carts.customer_fields import pointer_of
from commerce_agent.commerce.services.fulfillment import shipping
from commerce_agent.errors import CommerceError
from commerce_agent.ids import new_id

Identifier = Annotated[str, Meta(min_length=1, max_length=100)]


class ItemRef(msgspec.Struct, forbid_unknown_fields=True):
    cartItemId: Identifier
    quantity: Annotated[int, Meta(ge=1, le=999)]


class DeliveryDetails(msgspec.Struct, forbid_unknown_fields=True):
    deliveryAddress: Address
    shippingMethodId: Identifier


class PickupDetails(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    locationId: Identifier
    pickupAt: Annotated[str, Meta(max_length=40)] | None = None


class Group(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    fulfillmentType: Literal["physical", "pickup"]
    itemRefs: Annotated[list[ItemRef], Meta(min_length=1, max_length=100)]
    deliveryDetails: DeliveryDetails | None = None
    pickupDetails: PickupDetails | None = None


Intent = Annotated[list[Group], Meta(min_length=1, max_length=20)]


def _error(code: str, message: str, field: str, reason: str, value: Any = None
           ) -> CommerceError:
    detail: dict[str, Any] = {"type": "validation", "field": field, "reason": reason}
    if value is not None:
        detail["value"] = value
    return CommerceError(400, code, message, details=[detail], params={"field": field})


def _check_group(group: Group, index: int, cart: CartView, field: str) -> None:
    at = f"{field}/{index}"
    lines = {line.id: line for line in cart.lines}
    if group.fulfillmentType == "physical":
        if group.deliveryDetails is None:
            raise _error("fulfillment_intent_incomplete", "A physical group needs delivery "
                         "details.", f"{at}/deliveryDetails", "is required for physical")
        options = cart.store_metadata.get(STORE_SHIPPING, {}).get("shippingOptions", [])
        method = group.deliveryDetails.shippingMethodId
        if method not in {option.get("id") for option in options}:
            raise _error("fulfillment_method_invalid", f"This store has no shipping method "
                         f"{method!r}.", f"{at}/deliveryDetails/shippingMethodId",
                         "is not a shipping method of this store", method)
        shipping.check_deliverable(cart.store_metadata,
                                   msgspec.to_builtins(group.deliveryDetails.deliveryAddress))
        for ref_index, ref in enumerate(group.itemRefs):
            item = lines[ref.cartItemId].item
            if item is not None and item.doc.get("fulfillmentType") == "pickup":
                raise _error("fulfillment_method_invalid", f"{item.doc.get('name')} cannot be "
                             "shipped.", f"{at}/itemRefs/{ref_index}/cartItemId",
                             "is a pickup-only item", ref.cartItemId)
    elif group.pickupDetails is not None and \
            group.pickupDetails.locationId != cart.row["store_id"]:
        raise _error("fulfillment_method_invalid", "Pickup is only at the store itself.",
                     f"{at}/pickupDetails/locationId", "is not a pickup location of this store",
                     group.pickupDetails.locationId)


def parse(value: Any, key: str, cart: CartView) -> list[Group]:
    """The validated plan, or 400 fulfillment_intent_incomplete / _duplicate_item /
    fulfillment_method_invalid pointing at the offending field."""
    field = f"/metadata/{key}"
    try:
        groups = msgspec.convert(value, Intent)
    except msgspec.ValidationError as exc:
        below, reason = pointer_of(exc)
        raise _error("fulfillment_intent_incomplete", f"Invalid fulfillment intent: {reason}.",
                     field + below, reason) from None
    quantities = {line.id: line.quantity for line in cart.lines}
    seen: set[str] = set()
    for index, group in enumerate(groups):
        for ref_index, ref in enumerate(group.itemRefs):
            at = f"{field}/{index}/itemRefs/{ref_index}"
            if ref.cartItemId not in quantities:
                raise _error("fulfillment_intent_incomplete", "The plan names a line that is "
                             "not in the cart.", f"{at}/cartItemId", "is not a line of this cart",
                             ref.cartItemId)
            if ref.cartItemId in seen:
                raise _error("fulfillment_intent_duplicate_item", "A cart line appears in more "
                             "than one group.", f"{at}/cartItemId", "appears twice",
                             ref.cartItemId)
            seen.add(ref.cartItemId)
            if ref.quantity != quantities[ref.cartItemId]:
                raise _error("fulfillment_intent_incomplete", "Each group takes a line's whole "
                             "quantity.", f"{at}/quantity",
                             f"must be {quantities[ref.cartItemId]}", ref.quantity)
        _check_group(group, index, cart, field)
    missing = [line_id for line_id in quantities if line_id not in seen]
    if missing:
        raise _error("fulfillment_intent_incomplete", "Every cart line needs a fulfillment "
                     "group.", field, "leaves lines without a group", missing)
    return groups


def _order_type(items: list[dict[str, Any]]) -> str:
    kinds = {str(item.get("fulfillmentType")) for item in items}
    if kinds == {"hybrid"} or len(kinds) > 1:
        return "mixed"
    return next(iter(kinds), "physical")


def group_charges(cart: CartView, groups: list[Group], key: str) -> list[charges.Charges]:
    """What each group costs: its lines, its share of the cart's discount (the shares add up
    to the discount exactly, in proportion to each group's subtotal), the shipping option a
    physical group names (pickup groups ship nothing) and the store's tax."""
    currency = cart.currency
    lines = {line.id: line for line in cart.lines}
    members = [[lines[ref.cartItemId] for ref in group.itemRefs] for group in groups]
    subtotals = [sum((line.unit_price * line.quantity for line in group), Decimal(0))
                 for group in members]
    discount, whole = cart.priced().discount, sum(subtotals, Decimal(0))
    priced, given = [], Decimal(0)
    for index, (group, subtotal) in enumerate(zip(groups, subtotals, strict=True)):
        if index == len(subtotals) - 1:
            share = discount - given
        else:
            share = money.quantize(discount * subtotal / whole, currency) if whole else Decimal(0)
        given += share
        details = group.deliveryDetails
        physical = group.fulfillmentType == "physical" and details is not None
        priced.append(cart.charges_for(
            members[index], share, details.shippingMethodId if details else None,
            f"/metadata/{key}/{index}/deliveryDetails/shippingMethodId", shipped=physical))
    return priced


def split(doc: dict[str, Any], groups: list[Group] | None,
          priced: list[charges.Charges] | None = None) -> list[dict[str, Any]]:
    """One order document per group (the first keeps the id the payment was taken for),
    each with its charges (`priced`, from group_charges)."""
    if not groups:
        return [doc]
    assert priced is not None and len(priced) == len(groups)
    currency = doc["total"]["currency"]
    ids = [doc["id"], *(new_id("ord") for _ in groups[1:])]
    group_id = new_id("fgrp")
    orders = []
    for index, (group, part_charges) in enumerate(zip(groups, priced, strict=True)):
        part = copy.deepcopy(doc)
        wanted = {ref.cartItemId for ref in group.itemRefs}
        part["id"] = ids[index]
        part["items"] = [item for item in doc["items"] if item["id"] in wanted]
        part["orderType"] = _order_type(part["items"])
        for key in charges.RENDERED:
            part.pop(key, None)
        part["subtotal"] = money.money(part_charges.subtotal, currency)
        part["discount"] = money.money(part_charges.discount, currency)
        part.update(part_charges.render(currency))
        part["total"] = money.money(part_charges.total, currency)
        intent: dict[str, Any] = {"_version": "1.0", "groupId": group_id, "index": index,
                                  "orderIds": ids, **msgspec.to_builtins(group)}
        intent.pop("itemRefs")
        part["metadata"][FULFILLMENT_INTENT] = intent
        if group.deliveryDetails is not None:
            part["deliveryAddress"] = msgspec.to_builtins(group.deliveryDetails.deliveryAddress)
        elif group.fulfillmentType == "pickup":
            part.pop("deliveryAddress", None)
        if APPLIED_PROMOTIONS in part["metadata"]:
            part["metadata"][APPLIED_PROMOTIONS]["totalDiscount"] = part["discount"]
        if "payment" in part:
            part["payment"]["paymentTotal"] = doc["payment"]["amount"]
            part["payment"]["amount"] = part["total"]
        orders.append(part)
    return orders
