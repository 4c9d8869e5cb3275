"""What a cart or order costs beyond its lines: the shipping fee and the store's tax.

Pure functions of the store's document and the lines (no I/O), shared by the cart, the order,
the fulfillment intent's split, the 402 amount, receipts, e-mails and approval prompts, so the
amount is computed in one place.

- Shipping applies only to what ships: a `physical` item, or a `hybrid` one with a physical
  component. Pickup, digital and booked items carry none; an order with nothing that ships has
  no shipping line.
- The shopper picks one of the store's `dev.commerce.store.shipping` options by id; without a
  choice, the store's first priceable option is the default. An option costs its `flat` rate,
  or under `tiered` the rate of the highest threshold the merchandise total reaches, plus the
  store's `additionalFees.handlingFee`. Options priced by weight or distance cannot be priced
  from what a store states today and are not offered.
- Tax: `dev.commerce.store.taxation` `{rate, taxOnShipping, name}` (an origin rate, in
  percent) is added on the merchandise after discounts, and on the shipping fee when
  `taxOnShipping` is true. No rate, no tax line.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from commerce_agent.commerce import money
from commerce_agent.commerce.capability_ids import STORE_SHIPPING as SHIPPING
from commerce_agent.commerce.capability_ids import STORE_TAXATION as TAXATION
from commerce_agent.errors import CommerceError

# The fields Charges.render adds to a cart or order.
RENDERED = ("shipping", "shippingMethod", "tax", "taxRate")


def ships(item_doc: dict[str, Any]) -> bool:
    """Whether an item is sent to an address (and so carries shipping)."""
    kind = item_doc.get("fulfillmentType")
    if kind == "physical":
        return True
    components = item_doc.get("fulfillmentComponents", [])
    return kind == "hybrid" and any(c.get("type") == "physical" for c in components)


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        found = Decimal(str(value))
    except InvalidOperation:
        return None
    return found if found.is_finite() and found >= 0 else None


def option_rate(option: dict[str, Any], merchandise: Decimal) -> Decimal | None:
    """The option's own rate for this merchandise total (None: it cannot be priced)."""
    calculation = option.get("costCalculation") or {"type": "flat", "flatRate": 0}
    kind = calculation.get("type")
    if kind == "flat":
        return _decimal(calculation.get("flatRate", 0))
    if kind == "tiered":
        tiers = [(_decimal(tier.get("threshold")), _decimal(tier.get("rate")))
                 for tier in calculation.get("tiers", []) if isinstance(tier, dict)]
        reached = [(threshold, rate) for threshold, rate in tiers
                   if threshold is not None and rate is not None and threshold <= merchandise]
        return max(reached)[1] if reached else None
    return None


def _handling(shipping: dict[str, Any]) -> Decimal:
    fees = shipping.get("additionalFees")
    fee = _decimal(fees.get("handlingFee", 0)) if isinstance(fees, dict) else None
    return fee or Decimal(0)


def options(store_metadata: dict[str, Any], merchandise: Decimal, currency: str
            ) -> list[dict[str, Any]]:
    """The store's shipping options a shopper may choose, each with its price."""
    shipping = store_metadata.get(SHIPPING) or {}
    offered = []
    for option in shipping.get("shippingOptions", []):
        if not isinstance(option, dict) or not option.get("id"):
            continue
        rate = option_rate(option, merchandise)
        if rate is None:
            continue
        entry: dict[str, Any] = {
            "id": str(option["id"]), "name": str(option.get("name") or option["id"]),
            "amount": money.money(rate + _handling(shipping), currency)}
        if option.get("description"):
            entry["description"] = str(option["description"])
        if isinstance(option.get("processingTime"), dict):
            entry["processingTime"] = option["processingTime"]
        offered.append(entry)
    return offered


def choose(offered: list[dict[str, Any]], method_id: str | None, field: str
           ) -> dict[str, Any] | None:
    """The chosen option (`method_id`), else the default; 400 for an id not offered."""
    if method_id is None:
        return offered[0] if offered else None
    found = next((option for option in offered if option["id"] == method_id), None)
    if found is None:
        known = [option["id"] for option in offered]
        raise CommerceError(
            400, "shipping_method_invalid",
            f"This store has no shipping option {method_id!r}"
            + (f"; it offers {', '.join(known)}." if known else "."),
            details=[{"type": "validation", "field": field, "value": method_id,
                      "reason": "is not a shipping option of this store"}],
            params={"shippingMethodId": method_id, "options": known})
    return found


Problem = tuple[str, str]  # (JSON pointer below the document, reason)


def shipping_problem(shipping: dict[str, Any]) -> Problem | None:
    """Why a store's shipping document cannot be priced, or None."""
    listed = shipping.get("shippingOptions", [])
    if not isinstance(listed, list):
        return "/shippingOptions", "must be a list of options"
    seen: set[str] = set()
    for index, option in enumerate(listed):
        at = f"/shippingOptions/{index}"
        if not isinstance(option, dict) or not isinstance(option.get("id"), str) \
                or not option["id"] or not isinstance(option.get("name"), str):
            return at, "needs an id and a name"
        if option["id"] in seen:
            return f"{at}/id", "is used by another option"
        seen.add(option["id"])
        calculation = option.get("costCalculation")
        if calculation is None:
            continue
        if not isinstance(calculation, dict) or calculation.get("type") not in ("flat", "tiered"):
            return f"{at}/costCalculation/type", "must be flat or tiered"
        if calculation["type"] == "flat" and _decimal(calculation.get("flatRate")) is None:
            return f"{at}/costCalculation/flatRate", "must be an amount of 0 or more"
        if calculation["type"] == "tiered" and option_rate(option, Decimal(0)) is None:
            return f"{at}/costCalculation/tiers", "must list {threshold, rate} from 0 up"
    fees = shipping.get("additionalFees")
    if fees is not None and (not isinstance(fees, dict) or _decimal(
            fees.get("handlingFee", 0)) is None):
        return "/additionalFees/handlingFee", "must be an amount of 0 or more"
    return None


def taxation_problem(taxation: dict[str, Any]) -> Problem | None:
    rate = _decimal(taxation.get("rate"))
    if rate is None or rate > 100:
        return "/rate", "must be a percentage from 0 to 100"
    if not isinstance(taxation.get("taxOnShipping", False), bool):
        return "/taxOnShipping", "must be true or false"
    if not isinstance(taxation.get("name", ""), str):
        return "/name", "must be text"
    return None


def tax_rate(store_metadata: dict[str, Any]) -> tuple[Decimal, bool] | None:
    """(rate in percent, whether shipping is taxed), or None when the store sets no tax."""
    taxation = store_metadata.get(TAXATION)
    if not isinstance(taxation, dict):
        return None
    rate = _decimal(taxation.get("rate"))
    if rate is None or rate == 0:
        return None
    return rate, bool(taxation.get("taxOnShipping", False))


@dataclass(frozen=True)
class Charges:
    subtotal: Decimal
    discount: Decimal
    shipping: Decimal
    tax: Decimal
    method: dict[str, Any] | None  # the chosen option (None: nothing ships)
    rate: Decimal | None  # tax rate in percent (None: the store sets none)

    @property
    def merchandise(self) -> Decimal:
        return self.subtotal - self.discount

    @property
    def total(self) -> Decimal:
        return self.subtotal - self.discount + self.shipping + self.tax

    def render(self, currency: str) -> dict[str, Any]:
        """The fields a cart or order shows beside subtotal, discount and total."""
        rendered: dict[str, Any] = {}
        if self.method is not None:
            rendered["shipping"] = money.money(self.shipping, currency)
            rendered["shippingMethod"] = {"id": self.method["id"], "name": self.method["name"],
                                          "amount": money.money(self.shipping, currency)}
        if self.rate is not None:
            rendered["tax"] = money.money(self.tax, currency)
            # Fixed-point text: normalize() alone writes a rate of 10 as "1E+1".
            rendered["taxRate"] = format(self.rate.normalize(), "f")
        return rendered


def compute(store_metadata: dict[str, Any], currency: str, subtotal: Decimal,
            discount: Decimal, shipping_needed: bool, method_id: str | None,
            field: str = "/shippingMethodId") -> Charges:
    """The charges of lines worth `subtotal` (after `discount`), shipped with `method_id`
    (None: the default) when `shipping_needed`."""
    merchandise = subtotal - discount
    method = None
    fee = Decimal(0)
    if shipping_needed:
        method = choose(options(store_metadata, merchandise, currency), method_id, field)
        if method is not None:
            fee = money.parse(method["amount"]["amount"])
    taxation = tax_rate(store_metadata)
    tax = Decimal(0)
    rate = None
    if taxation is not None:
        rate, on_shipping = taxation
        base = merchandise + (fee if on_shipping else Decimal(0))
        tax = money.quantize(base * rate / 100, currency)
    return Charges(subtotal, discount, fee, tax, method, rate)
