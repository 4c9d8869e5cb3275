"""Cart pricing (commerce/services/carts/pricing.py) without a database: line options refused
by field, the unit price of a line with its variant, slot, add-ons and modifiers, promotions
in the order they were applied (unknown and expired codes among them), the store's
constraints, and guest tokens. Quantity bounds and discount caps are properties in
test_money_properties.py."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest

from commerce_agent import clock
from commerce_agent.auth import guests
from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.capability_ids import (
    PRODUCT_ADDONS,
    PRODUCT_CUSTOMIZATION,
    PRODUCT_VARIANTS,
    STORE_CONSTRAINTS,
)
from commerce_agent.commerce.orders.model import SCHEDULING
from commerce_agent.commerce.services.carts import pricing
from commerce_agent.commerce.services.catalog.storefront import StockedItem
from commerce_agent.errors import CommerceError


def _usd(amount: str) -> dict[str, str]:
    return {"amount": amount, "currency": "USD"}


PIZZA = StockedItem("item_pizza", {"id": "item_pizza", "price": _usd("10.00"), "metadata": {
    PRODUCT_ADDONS: {"items": [{"id": "olives", "price": _usd("1.25")},
                               {"id": "basil", "price": _usd("0.50")}]},
    PRODUCT_CUSTOMIZATION: {"groups": [
        {"id": "size", "selectionType": "single", "required": True, "options": [
            {"id": "small"}, {"id": "large", "priceModifier": _usd("4.00")}]},
        {"id": "toppings", "selectionType": "multiple", "options": [
            {"id": "ham", "priceModifier": _usd("2.00")},
            {"id": "egg", "priceModifier": _usd("1.00")}]}]}}})
SHIRT = StockedItem("item_shirt", {"id": "item_shirt", "price": _usd("20.00"), "metadata": {
    PRODUCT_VARIANTS: {"options": ["Size"], "variants": [
        {"id": "v_s", "values": ["S"]},
        {"id": "v_xl", "values": ["XL"], "price": _usd("24.00")}]}}})
LESSON = StockedItem("item_lesson", {"id": "item_lesson", "price": _usd("50.00"), "metadata": {
    SCHEDULING: {"timeSlots": [{"id": "mon"}, {"id": "sun", "price": _usd("65.00")},
                               {"start": "no id: not a slot"}]}}})


def _refusal(item: StockedItem, variant_id: str, options: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(CommerceError) as raised:
        pricing.check_options(item, variant_id, options, prefix="/items/0")
    detail = raised.value.details[0]
    return detail["field"], detail["reason"]


@pytest.mark.parametrize(("item", "variant", "options", "field", "reason"), [
    (SHIRT, "", {}, "/items/0/variantId", "is required for an item with variants"),
    (SHIRT, "v_m", {}, "/items/0/variantId", "is not a variant of this item"),
    (PIZZA, "v_s", {"customizations": {"size": "small"}}, "/items/0/variantId",
     "is not a variant of this item"),
    (PIZZA, "", {"addOnIds": ["basil", "anchovies"], "customizations": {"size": "small"}},
     "/items/0/addOnIds/1", "is not an add-on of this item"),
    (PIZZA, "", {"customizations": {"crust": "thin"}}, "/items/0/customizations/crust",
     "is not a customization group of this item"),
    (PIZZA, "", {"customizations": {"size": ["small", "large"]}},
     "/items/0/customizations/size", "takes exactly one option"),
    (PIZZA, "", {"customizations": {"size": "medium"}}, "/items/0/customizations/size",
     "names an option this group does not have"),
    (PIZZA, "", {"customizations": {"toppings": ["ham"]}}, "/items/0/customizations/size",
     "is required"),
    (PIZZA, "", {"customizations": {"size": []}}, "/items/0/customizations/size",
     "takes exactly one option"),
    (LESSON, "", {}, "/items/0/timeSlotId", "is required to book this service"),
    (LESSON, "", {"timeSlotId": "tue"}, "/items/0/timeSlotId",
     "is not a time slot of this service"),
])
def test_options_the_item_does_not_offer_are_refused_by_field(
        item: StockedItem, variant: str, options: dict[str, Any], field: str,
        reason: str) -> None:
    assert _refusal(item, variant, options) == (field, reason)


def test_options_the_item_offers_pass() -> None:
    pricing.check_options(PIZZA, "", {"addOnIds": ["olives"], "customizations": {
        "size": "large", "toppings": ["ham", "egg"]}})
    pricing.check_options(SHIRT, "v_xl", {})
    pricing.check_options(LESSON, "", {"timeSlotId": "sun"})


@pytest.mark.parametrize(("item", "variant", "options", "price"), [
    (PIZZA, "", {"customizations": {"size": "small"}}, "10.00"),
    (PIZZA, "", {"customizations": {"size": "large"}}, "14.00"),
    (PIZZA, "", {"addOnIds": ["olives", "basil"], "customizations": {
        "size": "large", "toppings": ["ham", "egg"]}}, "18.75"),
    (SHIRT, "v_s", {}, "20.00"),  # a variant without its own price: the item's
    (SHIRT, "v_xl", {}, "24.00"),
    (LESSON, "", {"timeSlotId": "mon"}, "50.00"),
    (LESSON, "", {"timeSlotId": "sun"}, "65.00"),  # the slot's own price
])
def test_unit_price(item: StockedItem, variant: str, options: dict[str, Any],
                    price: str) -> None:
    assert pricing.unit_price(item, variant, options) == Decimal(price)


# --- promotions ------------------------------------------------------------------------------

def _iso(days: int) -> str:
    return clock.iso(clock.now() + timedelta(days=days))


PROMOTIONS = {
    "TEN": {"type": "percentage", "value": "10", "description": "10% off"},
    "FIVE": {"type": "fixed_amount", "value": "5.00"},
    "BIG": {"type": "fixed_amount", "value": "500.00"},
    "THIRD": {"type": "percentage", "value": "33.33"},
    "OLD": {"type": "percentage", "value": "50", "expiresAt": _iso(-1)},
    "SOON": {"type": "percentage", "value": "50", "startsAt": _iso(1)},
    "MIN": {"type": "fixed_amount", "value": "1.00", "minimumSubtotal": "100.00"},
}


@pytest.mark.parametrize(("code", "subtotal", "problem"), [
    ("TEN", "1.00", None), ("NOPE", "1.00", "unknown_code"), ("OLD", "1.00", "expired"),
    ("SOON", "1.00", "not_started"), ("MIN", "99.99", "minimum_subtotal_not_met"),
    ("MIN", "100.00", None),
])
def test_promotion_problem(code: str, subtotal: str, problem: str | None) -> None:
    assert pricing.promotion_problem(PROMOTIONS.get(code), Decimal(subtotal)) == problem


def test_discounts_apply_in_order_and_never_pass_what_is_left() -> None:
    applied = pricing.evaluate(["TEN", "NOPE", "FIVE", "BIG", "FIVE"], PROMOTIONS,
                               Decimal("40.00"), "USD")
    assert [(a.code, a.discount, a.applicable, a.reason) for a in applied] == [
        ("TEN", Decimal("4.00"), True, ""),
        ("NOPE", Decimal(0), False, "unknown_code"),
        ("FIVE", Decimal("5.00"), True, ""),
        ("BIG", Decimal("31.00"), True, ""),  # only what is left to pay
        ("FIVE", Decimal(0), True, ""),
    ]
    assert applied[0].render("USD") == {"code": "TEN", "description": "10% off",
                                        "discount": {"amount": "4.00", "currency": "USD"},
                                        "applicable": True}
    assert applied[1].render("USD")["reason"] == "unknown_code"


def test_a_percentage_discount_is_rounded_to_the_currency() -> None:
    [usd] = pricing.evaluate(["THIRD"], PROMOTIONS, Decimal("10.00"), "USD")
    [jpy] = pricing.evaluate(["THIRD"], PROMOTIONS, Decimal("1000"), "JPY")
    assert usd.discount == Decimal("3.33") and jpy.discount == Decimal("333")


def test_the_stores_constraints() -> None:
    constraints = {STORE_CONSTRAINTS: {"minimumOrderValue": _usd("15.00"), "maxCartItems": 20,
                                       "promotions": {"stackingPolicy": "none"}}}
    assert pricing.minimum_order_value(constraints) == Decimal("15.00")
    assert pricing.max_cart_items(constraints) == 20
    assert not pricing.stacking_allowed(constraints)
    assert pricing.minimum_order_value({}) is None and pricing.max_cart_items({}) is None
    assert pricing.stacking_allowed({})
    assert pricing.stacking_allowed({STORE_CONSTRAINTS: {"promotions": {
        "stackingPolicy": "all"}}})


# --- guest tokens ----------------------------------------------------------------------------

def test_a_minted_guest_token_is_well_formed_and_names_a_stable_owner() -> None:
    token = guests.mint_guest_token()
    assert guests.is_guest_token(token) and guests.well_formed(token)
    owner = guests.guest_principal(token)
    assert owner == guests.guest_principal(token)  # the same token, the same carts
    assert owner.user_id.startswith("guest_") and len(owner.user_id) == len("guest_") + 32
    assert guests.is_guest(owner)
    assert owner != guests.guest_principal(guests.mint_guest_token())


@pytest.mark.parametrize("token", [
    "cgt_" + "a" * 42, "cgt_" + "a" * 44, "cgt_" + "a" * 42 + "!", "cgt_" + "a" * 42 + "é",
    "xyz_" + "a" * 43, "a" * 47,
])
def test_a_token_this_server_could_not_have_minted_is_not_well_formed(token: str) -> None:
    assert not guests.well_formed(token)


def test_a_signed_in_user_is_not_a_guest() -> None:
    assert not guests.is_guest(Principal("user_alice", "alice@example.com", "Alice"))
