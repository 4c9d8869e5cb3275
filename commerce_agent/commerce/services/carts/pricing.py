"""Line prices, option validation, promotions and totals — all in Decimal, never float."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.capability_ids import PRODUCT_ADDONS as ADDONS
from commerce_agent.commerce.capability_ids import PRODUCT_CUSTOMIZATION as CUSTOMIZATION
from commerce_agent.commerce.capability_ids import STORE_CONSTRAINTS as CONSTRAINTS
from commerce_agent.commerce.orders.model import SCHEDULING
from commerce_agent.commerce.services.catalog.storefront import StockedItem
from commerce_agent.errors import CommerceError, validation_error

MAX_LINE_QUANTITY = 999


def check_quantity(quantity: int, field: str = "/quantity") -> None:
    if quantity < 1 or quantity > MAX_LINE_QUANTITY:
        raise CommerceError(
            400, "invalid_quantity",
            f"Quantity must be between 1 and {MAX_LINE_QUANTITY}, not {quantity}.",
            details=[{"type": "validation", "field": field, "value": quantity,
                      "reason": f"must be between 1 and {MAX_LINE_QUANTITY}"}],
            params={"quantity": quantity, "max": MAX_LINE_QUANTITY})


def _addons(item: StockedItem) -> dict[str, dict[str, Any]]:
    entries = item.doc.get("metadata", {}).get(ADDONS, {}).get("items", [])
    return {entry["id"]: entry for entry in entries}


def _groups(item: StockedItem) -> dict[str, dict[str, Any]]:
    groups = item.doc.get("metadata", {}).get(CUSTOMIZATION, {}).get("groups", [])
    return {group["id"]: group for group in groups}


def _slots(item: StockedItem) -> dict[str, dict[str, Any]]:
    slots = item.doc.get("metadata", {}).get(SCHEDULING, {}).get("timeSlots", [])
    return {slot["id"]: slot for slot in slots if "id" in slot}


def check_options(item: StockedItem, variant_id: str, options: dict[str, Any],
                  prefix: str = "") -> None:
    """Refuse a variant, add-on, customization or time slot the item does not offer."""
    if item.variants and not variant_id:
        raise validation_error(f"{prefix}/variantId", "is required for an item with variants")
    if variant_id and item.variant(variant_id) is None:
        raise validation_error(f"{prefix}/variantId", "is not a variant of this item", variant_id)
    addons = _addons(item)
    for index, addon_id in enumerate(options.get("addOnIds", [])):
        if addon_id not in addons:
            raise validation_error(f"{prefix}/addOnIds/{index}", "is not an add-on of this item",
                                   addon_id)
    groups = _groups(item)
    chosen = options.get("customizations", {})
    for group_id, selection in chosen.items():
        group = groups.get(group_id)
        if group is None:
            raise validation_error(f"{prefix}/customizations/{group_id}",
                                   "is not a customization group of this item")
        picked = [selection] if isinstance(selection, str) else selection
        if group.get("selectionType") == "single" and len(picked) != 1:
            raise validation_error(f"{prefix}/customizations/{group_id}",
                                   "takes exactly one option")
        known = {option["id"] for option in group.get("options", [])}
        for option_id in picked:
            if option_id not in known:
                raise validation_error(f"{prefix}/customizations/{group_id}",
                                       "names an option this group does not have", option_id)
    for group_id, group in groups.items():
        if group.get("required") and not chosen.get(group_id):
            raise validation_error(f"{prefix}/customizations/{group_id}", "is required")
    slots = _slots(item)
    slot_id = options.get("timeSlotId")
    if slots and not slot_id:
        raise validation_error(f"{prefix}/timeSlotId", "is required to book this service")
    if slot_id and slot_id not in slots:
        raise validation_error(f"{prefix}/timeSlotId", "is not a time slot of this service",
                               slot_id)


def unit_price(item: StockedItem, variant_id: str, options: dict[str, Any]) -> Decimal:
    base = item.doc["price"]["amount"]
    if variant_id:
        variant = item.variant(variant_id)
        if variant is not None and "price" in variant:
            base = variant["price"]["amount"]
    slot = _slots(item).get(options.get("timeSlotId") or "")
    if slot is not None and "price" in slot:
        base = slot["price"]["amount"]
    price = money.parse(base)
    addons = _addons(item)
    for addon_id in options.get("addOnIds", []):
        if addon_id in addons:
            price += money.parse(addons[addon_id]["price"]["amount"])
    groups = _groups(item)
    for group_id, selection in options.get("customizations", {}).items():
        picked = [selection] if isinstance(selection, str) else selection
        by_id = {option["id"]: option for option in groups.get(group_id, {}).get("options", [])}
        for option_id in picked:
            modifier = by_id.get(option_id, {}).get("priceModifier")
            if modifier:
                price += money.parse(modifier["amount"])
    return price


@dataclass
class AppliedPromotion:
    code: str
    description: str
    discount: Decimal
    applicable: bool
    reason: str = ""

    def render(self, currency: str) -> dict[str, Any]:
        rendered = {"code": self.code, "description": self.description,
                    "discount": money.money(self.discount, currency),
                    "applicable": self.applicable}
        if self.reason:
            rendered["reason"] = self.reason
        return rendered


def promotion_problem(promotion: dict[str, Any] | None, subtotal: Decimal) -> str | None:
    """Why a code cannot apply now, or None when it does."""
    if promotion is None:
        return "unknown_code"
    expires = promotion.get("expiresAt")
    if expires and expires <= clock.now_iso():
        return "expired"
    starts = promotion.get("startsAt")
    if starts and starts > clock.now_iso():
        return "not_started"
    minimum = promotion.get("minimumSubtotal")
    if minimum and subtotal < money.parse(minimum):
        return "minimum_subtotal_not_met"
    return None


def evaluate(codes: list[str], promotions: dict[str, dict[str, Any]], subtotal: Decimal,
             currency: str) -> list[AppliedPromotion]:
    """Discounts in the order codes were applied; never more than what is left to pay."""
    remaining = subtotal
    applied = []
    for code in codes:
        promotion = promotions.get(code)
        problem = promotion_problem(promotion, subtotal)
        if promotion is None or problem is not None:
            applied.append(AppliedPromotion(code, "", Decimal(0), False, problem or ""))
            continue
        value = money.parse(promotion["value"])
        if promotion["type"] == "percentage":
            discount = money.quantize(subtotal * value / 100, currency)
        else:
            discount = value
        discount = min(discount, remaining)
        remaining -= discount
        applied.append(AppliedPromotion(code, promotion.get("description", ""), discount, True))
    return applied


def minimum_order_value(store_metadata: dict[str, Any]) -> Decimal | None:
    minimum = store_metadata.get(CONSTRAINTS, {}).get("minimumOrderValue")
    return money.parse(minimum["amount"]) if minimum else None


def max_cart_items(store_metadata: dict[str, Any]) -> int | None:
    value = store_metadata.get(CONSTRAINTS, {}).get("maxCartItems")
    return int(value) if value is not None else None


def stacking_allowed(store_metadata: dict[str, Any]) -> bool:
    policy = store_metadata.get(CONSTRAINTS, {}).get("promotions", {}).get("stackingPolicy")
    return bool(policy != "none")
