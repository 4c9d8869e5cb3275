"""What a merchant changes about a store, whichever front end asks (the admin API, the
console's forms): settings (name, currency, location, shipping, policies, constraints, tax,
the simulator) and promotion codes. Each runs inside the caller's transaction, after the
caller checked the merchant owns the store.

Changing the currency follows Shopify (docs/decisions.md "Changing a store's currency"):
amounts are not converted; every price keeps its number in the new currency. It is refused
once the store has orders (their totals, refunds and reports stay in the old currency), and
for any amount the new currency cannot hold (18.50 in JPY), naming the item.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from commerce_agent.commerce import money
from commerce_agent.commerce.address import Address
from commerce_agent.commerce.capability_ids import (
    STORE_CONSTRAINTS,
    STORE_INFO,
    STORE_POLICIES,
    STORE_SHIPPING,
    STORE_TAXATION,
)
from commerce_agent.commerce.services.carts import charges
from commerce_agent.commerce.shop import checks, writes
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.commerce.storage import merchant_orders
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.struct_rules import Rule, Ruled

Name = Annotated[str, Meta(min_length=1, max_length=checks.MAX_NAME)]
Description = Annotated[str, Meta(max_length=checks.MAX_DESCRIPTION)]
Document = Annotated[dict[str, Any], Meta(max_length=100)]
# checks.currency_problem refuses the codes outside the enum (with its own reason)
Currency = Annotated[str, Meta(pattern="^[A-Z]{3}$",
                               extra_json_schema={"enum": sorted(money.CURRENCIES)})]
INFO, POLICIES, SHIPPING = STORE_INFO, STORE_POLICIES, STORE_SHIPPING
CONSTRAINTS = STORE_CONSTRAINTS
ITEMS_RELABELLED = 10_000


class Taxation(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The store's one tax rate (`dev.commerce.store.taxation`; services/carts/charges.py)."""

    rate: Annotated[str, Meta(pattern=r"^(100(\.0+)?|\d{1,2}(\.\d+)?)$")] | \
        Annotated[float, Meta(ge=0, le=100)]  # a percentage
    taxOnShipping: bool = False
    name: str = ""


class StorePatch(msgspec.Struct, forbid_unknown_fields=True):
    """Fields to change. info, policies, shipping and constraints replace the store's
    dev.commerce.store.* documents (docs/sample-data.md, "Store metadata"). A new currency
    relabels every amount of the store, unconverted (refused once the store has orders)."""

    name: Name | UnsetType = UNSET
    description: Description | UnsetType = UNSET
    currency: Currency | UnsetType = UNSET
    location: Address | UnsetType = UNSET
    info: Document | UnsetType = UNSET
    policies: Document | UnsetType = UNSET
    shipping: Document | UnsetType = UNSET
    constraints: Document | UnsetType = UNSET
    # Let the fulfillment simulator move this store's new orders (the sample stores do).
    simulateFulfillment: bool | UnsetType = UNSET
    taxation: Taxation | UnsetType = UNSET


class PromotionPut(Ruled, forbid_unknown_fields=True, omit_defaults=True):
    # (a fixed amount's digits depend on the store's currency: checks.promotion_problems)
    rules = (Rule({"if": {"properties": {"type": {"const": "percentage"}}},
                   "then": {"properties": {"value": {"pattern": checks.PERCENTAGE.pattern}}}},
                  lambda: validation_error("/value", "must be a percentage from 0.01 to 100")),)

    type: Literal["percentage", "fixed_amount"]
    value: Annotated[str, Meta(max_length=20)]
    description: Annotated[str, Meta(max_length=500)] = ""
    minimumSubtotal: Annotated[str, Meta(max_length=20)] | None = None
    startsAt: Annotated[str, Meta(max_length=40)] | None = None
    expiresAt: Annotated[str, Meta(max_length=40)] | None = None
    # How many of one customer's orders may use the code (not cancelled ones); none: no limit.
    perUserLimit: Annotated[int, Meta(ge=1, le=1_000_000)] | None = None


def _check_shipping(shipping: dict[str, Any]) -> None:
    areas = shipping.get("deliveryAreas", [])
    if not isinstance(areas, list):
        raise validation_error("/shipping/deliveryAreas", "must be a list of country codes")
    for index, area in enumerate(areas):
        if not isinstance(area, str) or not re.fullmatch(r"[A-Z]{2}", area):
            raise validation_error(f"/shipping/deliveryAreas/{index}",
                                   "must be an ISO 3166 alpha-2 country code", str(area))
    problem = charges.shipping_problem(shipping)
    if problem is not None:
        raise validation_error(f"/shipping{problem[0]}", problem[1])


def _check_constraints(constraints: dict[str, Any], currency: str) -> None:
    minimum = constraints.get("minimumOrderValue")
    if minimum is not None:
        if not isinstance(minimum, dict):
            raise validation_error("/constraints/minimumOrderValue", "must be Money")
        reason = checks.amount_problem(minimum.get("amount"), currency)
        if reason or minimum.get("currency") != currency:
            raise validation_error("/constraints/minimumOrderValue/amount",
                                   reason or f"must be in the store's currency {currency}")
    items = constraints.get("maxCartItems")
    if items is not None and (not isinstance(items, int) or isinstance(items, bool)
                              or not 1 <= items <= 1000):
        raise validation_error("/constraints/maxCartItems", "must be 1 to 1000")
    stacking = constraints.get("promotions", {}).get("stackingPolicy")
    if stacking is not None and stacking not in ("none", "all"):
        raise validation_error("/constraints/promotions/stackingPolicy", "must be none or all",
                               str(stacking))


def relabel(value: Any, old: str, new: str) -> Any:
    """`value` with every amount ({amount, currency: old}) in `new`, its number unchanged."""
    if isinstance(value, dict):
        if value.get("currency") == old and "amount" in value:
            return {**value, "currency": new}
        return {key: relabel(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [relabel(item, old, new) for item in value]
    return value


async def change_currency(tx: Transaction, store_id: str, currency: str) -> None:
    """Give the store a new currency: every amount of its items and settings keeps its number
    (nothing is converted). Refused (409 currency_locked) once the store has orders."""
    reason = checks.currency_problem(currency)
    if reason:
        raise validation_error("/currency", reason, currency)
    row = await catalog_storage.get_store(tx, store_id)
    assert row is not None
    old = str(row["currency"])
    if old == currency:
        return
    if await merchant_orders.count_orders(tx, [store_id], None, 1):
        raise CommerceError(
            409, "currency_locked",
            f"This store has orders in {old}, so its currency stays {old}: orders, refunds "
            "and reports keep the currency they were paid in.",
            details=[{"type": "business_logic", "field": "/currency", "value": currency,
                      "reason": f"the store has orders in {old}"}],
            params={"currency": old})
    items = writes.admin_items(await storage.store_items(tx, store_id, None, ITEMS_RELABELLED))
    for item in items:
        doc = relabel({key: value for key, value in item.items()
                       if key not in ("status", "storeId", "catalogId")}, old, currency)
        problems = checks.item_problems(doc, currency)
        if problems:
            raise validation_error("/currency", f"cannot hold the price of {item['name']} "
                                   f"({problems[0].reason})", currency)
        await writes.put_item(tx, store_id, item["catalogId"], doc, item["status"])
    doc = relabel(msgspec.json.decode(row["doc"]), old, currency)
    doc["currency"] = currency
    await storage.set_store_currency(tx, store_id, currency)
    await writes.update_store(tx, store_id, {key: doc[key] for key in ("currency", "metadata")
                                             if key in doc})


async def update(tx: Transaction, store_id: str, body: StorePatch) -> dict[str, Any]:
    """Apply the settings `body` sets; the store as its merchant sees it."""
    if body.currency is not UNSET:
        await change_currency(tx, store_id, body.currency)
    row = await catalog_storage.get_store(tx, store_id)
    assert row is not None
    changes: dict[str, Any] = {}
    metadata: dict[str, Any] = {}
    for key, value in msgspec.structs.asdict(body).items():
        if value is UNSET or key == "currency":
            continue
        name = {"info": INFO, "policies": POLICIES, "shipping": SHIPPING,
                "constraints": CONSTRAINTS, "taxation": STORE_TAXATION}.get(key)
        if name is None:
            changes[key] = msgspec.to_builtins(value)
        else:
            metadata[name] = {**msgspec.to_builtins(value), "_version": "1.0"}
    if SHIPPING in metadata:
        _check_shipping(metadata[SHIPPING])
    if STORE_TAXATION in metadata:
        problem = charges.taxation_problem(metadata[STORE_TAXATION])
        if problem is not None:
            raise validation_error(f"/taxation{problem[0]}", problem[1])
    if CONSTRAINTS in metadata:
        _check_constraints(metadata[CONSTRAINTS], str(row["currency"]))
    if metadata:
        changes["metadata"] = metadata
    return await writes.update_store(tx, store_id, changes)


async def put_promotion(tx: Transaction, store_id: str, code: str, body: PromotionPut
                        ) -> tuple[dict[str, Any], bool]:
    """Create or replace a promotion code; (the promotion, whether it is new)."""
    promotion = {"code": code.upper(), **msgspec.to_builtins(body)}
    problems = checks.promotion_problems(promotion, await _currency(tx, store_id))
    if problems:
        raise checks.refusal(problems)
    return promotion, await writes.put_promotion(tx, store_id, promotion)


async def _currency(tx: Transaction, store_id: str) -> str:
    row = await catalog_storage.get_store(tx, store_id)
    assert row is not None
    return str(row["currency"])
