"""Approval prompts: what a CHANGES tool will do, written from the data it will act on.

Each writer reads what the call would act on through the services the tool itself uses (the
cart or the order, the store, the items' variants, customizations, add-ons and time slots),
refuses a call that cannot happen by the service's own rule (nobody is asked to approve what
would fail), and writes the prompt in the shopper's locale from the i18n catalog
(`approval.*` keys of commerce_agent/i18n/catalogs; English when a locale lacks one).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from babel import Locale, dates

from commerce_agent import clock
from commerce_agent.commerce import money
from commerce_agent.commerce.address import stored
from commerce_agent.commerce.capability_ids import PRODUCT_ADDONS as ADDONS
from commerce_agent.commerce.capability_ids import PRODUCT_CUSTOMIZATION as CUSTOMIZATION
from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.commerce.orders import feedback, model, refunds, rules
from commerce_agent.commerce.orders.model import SCHEDULING
from commerce_agent.commerce.services.carts import cart as carts
from commerce_agent.commerce.services.catalog import storefront
from commerce_agent.commerce.services.catalog.storefront import StockedItem
from commerce_agent.commerce.services.checkout.placement import (
    OrderRequest,
    amount_due,
    preflight,
)
from commerce_agent.commerce.services.returns import handling as returns
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import orders as order_storage
from commerce_agent.errors import CommerceError, not_found
from commerce_agent.i18n.messages import translate
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE
from commerce_agent.operations.base import ToolContext, ToolFailure


def text(locale: str, key: str, **params: Any) -> str:
    """One catalog message in `locale`, else in English (every key has an English text)."""
    found = translate(locale, key, params) or translate(DEFAULT_LOCALE, key, params)
    if found is None:
        raise KeyError(f"The i18n catalog has no usable {key!r}.")
    return found


# -- the pieces every prompt shares ----------------------------------------------------------

def _when(start: str, locale: str) -> str:
    """A slot's start as the locale writes a day and a time, in the slot's own time zone."""
    moment = datetime.fromisoformat(start)
    day = dates.format_date(moment, "long", locale=locale)
    return f"{day} {dates.format_time(moment, 'short', tzinfo=moment.tzinfo, locale=locale)}"


def _slot(item: StockedItem, slot_id: str, locale: str) -> str:
    terms = item.doc.get("metadata", {}).get(SCHEDULING, {})
    slot = next((entry for entry in terms.get("timeSlots", []) if entry.get("id") == slot_id),
                None)
    if slot is None or not slot.get("startTime"):
        return slot_id
    return text(locale, "approval.slot", start=_when(slot["startTime"], locale),
                place=terms.get("location", ""))


@dataclass(frozen=True)
class Store:
    """The store a prompt names, in the prompt's locale: its name, its items' names and the
    names of their variants, options and add-ons (where the store has them translated: its
    `translations` table's `items` and `options`), so a French or Japanese shopper approves
    what they can read."""

    name: str
    translations: str | dict[str, Any]
    locale: str

    def item_name(self, item_id: str, fallback: str) -> str:
        found = storefront.translation(self.translations, self.locale, "items", item_id)
        return str(found.get("name") or fallback)

    def option(self, name: str) -> str:
        """A variant's, option's or add-on's name as the store writes it in the locale."""
        found = storefront.translation(self.translations, self.locale, "options")
        return str(found.get(name) or name)


def _variant(item: StockedItem, variant_id: str, store: Store) -> str:
    variant = item.variant(variant_id) or {}
    names = item.doc.get("metadata", {}).get(VARIANTS, {}).get("options", [])
    values = [store.option(str(value)) for value in variant.get("values", [])]
    if len(names) == len(values):
        return ", ".join(text(store.locale, "approval.option", name=store.option(str(name)),
                              value=value) for name, value in zip(names, values, strict=True))
    return ", ".join(values) or variant_id


def _customizations(item: StockedItem, chosen: dict[str, Any], store: Store) -> list[str]:
    groups = {group["id"]: group for group in
              item.doc.get("metadata", {}).get(CUSTOMIZATION, {}).get("groups", [])}
    described = []
    for group_id, selection in chosen.items():
        group = groups.get(group_id, {})
        names = {option["id"]: store.option(str(option.get("name", option["id"])))
                 for option in group.get("options", [])}
        picked = [selection] if isinstance(selection, str) else list(selection)
        described.append(text(store.locale, "approval.option",
                              name=store.option(str(group.get("name", group_id))),
                              value=", ".join(names.get(option, option) for option in picked)))
    return described


async def _store(ctx: ToolContext, store_id: str, locale: str) -> Store:
    row = await catalog_storage.get_store(ctx.db, store_id)
    if row is None:
        raise not_found("store", store_id)
    doc = storefront.render_store(row, locale)
    return Store(str(doc.get("name") or store_id), row["translations"], locale)


def line_text(line: dict[str, Any], item: StockedItem | None, store: Store) -> str:
    """One cart or order line: quantity, name, variant, customizations, add-ons, time slot and
    its price (the line total)."""
    locale = store.locale
    details: list[str] = []
    if item is not None:
        if line.get("variantId"):
            details.append(_variant(item, line["variantId"], store))
        details += _customizations(item, line.get("customizations") or {}, store)
        addons = {entry["id"]: store.option(str(entry.get("name", entry["id"]))) for entry in
                  item.doc.get("metadata", {}).get(ADDONS, {}).get("items", [])}
        if line.get("addOnIds"):
            details.append(text(locale, "approval.addons", names=", ".join(
                addons.get(addon, addon) for addon in line["addOnIds"])))
        if line.get("timeSlotId"):
            details.append(_slot(item, line["timeSlotId"], locale))
    elif line.get("variantId"):
        details.append(str(line["variantId"]))
    if line.get("notes"):
        details.append(str(line["notes"]))
    extra = f" ({'; '.join(details)})" if details else ""
    name = store.item_name(str(line.get("itemId", "")), line.get("name") or line.get("itemId", ""))
    return text(locale, "approval.line", quantity=int(line["quantity"]), name=name, details=extra,
                price=line.get("lineTotal") or line.get("price"))


def _lines(lines: list[dict[str, Any]], items: dict[str, StockedItem], store: Store
           ) -> list[str]:
    return [text(store.locale, "approval.items"),
            *(f"- {line_text(line, items.get(line['itemId']), store)}" for line in lines)]


def _where(order: dict[str, Any], store: dict[str, Any] | None, locale: str) -> str:
    """Where the goods go: the delivery address, else the pickup place, else digital (a booked
    session's line already names its place)."""
    address = (order.get("deliveryAddress") or {}).get("address")
    if address:
        return text(locale, "approval.delivery", address=address)
    lines = [line for line in order.get("items", []) if not line.get("timeSlotId")]
    if not lines:
        return ""
    kinds = {line.get("fulfillmentType") for line in lines}
    if kinds <= {"digital"}:
        return text(locale, "approval.digital")
    place = (order.get("fulfillment") or {}).get("location")
    if place is None and store is not None:
        location = store.get("location") or {}
        place = _country_named(location.get("address"), location.get("countryCode"),
                               locale) or store.get("name")
    return text(locale, "approval.pickup", place=place) if place else ""


def _country_named(address: Any, code: Any, locale: str) -> str | None:
    """A store's address (written in English) with its country named in `locale`: a pickup
    place in a French or Japanese prompt ends « États-Unis », 「アメリカ合衆国」."""
    if not isinstance(address, str) or not address:
        return None
    if not isinstance(code, str) or locale.split("-")[0] == "en":
        return address
    try:
        english = Locale.parse("en").territories.get(code.upper())
        own = Locale.parse(locale.replace("-", "_")).territories.get(code.upper())
    except (ValueError, TypeError):
        return address
    if not english or not own or english == own:
        return address
    return re.sub(rf"\b{re.escape(english)}\b", own, address)


async def _order(ctx: ToolContext, order_id: str,
                 problem_of: Callable[[model.OrderDoc], CommerceError | None]
                 ) -> dict[str, Any]:
    """The caller's order, when `problem_of` (a rule of orders/rules.py) finds nothing against
    the call; else that problem is raised."""
    row = await order_storage.get_order(ctx.db, order_id, ctx.user().user_id)
    if row is None:
        raise ToolFailure("order_not_found", f"No order with id {order_id!r}.")
    doc = model.decode(row["doc"])
    problem = problem_of(doc)
    if problem is not None:
        raise problem
    return doc


async def _order_prompt(ctx: ToolContext, doc: dict[str, Any], store: Store, head: str,
                        lines: list[dict[str, Any]], tail: list[str]) -> str:
    items = await storefront.load_items(ctx.db, sorted({line["itemId"] for line in lines}))
    where = _where(doc, None, store.locale)
    return "\n".join([head, *_lines(lines, items, store), *([where] if where else []),
                      *tail])


def _money(amount: Decimal, currency: str) -> dict[str, str]:
    return money.money(amount, currency)


def _plan_terms(item: StockedItem, store: Store, line: dict[str, Any], locale: str
                ) -> list[str]:
    """What starting a plan commits to: its recurring price and frequency, its free trial,
    and its minimum term (empty for an item that is no plan)."""
    terms = item.doc.get("metadata", {}).get(model.SUBSCRIPTION)
    if not terms:
        return []
    name = store.item_name(str(line["itemId"]), line.get("name") or line["itemId"])
    frequency = str(terms.get("frequency", "monthly"))
    every = translate(locale, f"approval.every_{frequency}", {}) or translate(
        DEFAULT_LOCALE, f"approval.every_{frequency}", {}) or frequency
    found = [text(locale, "approval.plan_renews", name=name, frequency=every,
                  price=line.get("lineTotal") or line.get("price"))]
    if terms.get("trialDays"):
        found.append(text(locale, "approval.plan_trial", days=int(terms["trialDays"])))
    policy = terms.get("cancellationPolicy", {})
    commitment = int(policy.get("minimumCommitment") or 0)
    if commitment and not policy.get("canCancelAnytime", True):
        found.append(text(locale, "approval.commitment_rule", count=commitment))
    return found


# -- one writer per CHANGES tool ------------------------------------------------------------

def order_request_from_args(args: dict[str, Any]) -> OrderRequest:
    """The order a `place_order` call asks for (its prompt, the tool and MCP's checkout)."""
    return OrderRequest(args["cartId"], None, None, None, stored(args.get("deliveryAddress")), None,
                        {}, None, shipping_method_id=args.get("shippingMethodId"))


async def place_order(ctx: ToolContext, args: dict[str, Any], locale: str) -> str:
    cart = await carts.open_cart(ctx.db, args["cartId"], ctx.user())
    priced = preflight(cart, order_request_from_args(args))
    rendered = cart.render()
    store_id = str(cart.row["store_id"])
    store = await _store(ctx, store_id, locale)
    head = text(locale, "approval.place_order", store=store.name)
    items = {line.item_id: line.item for line in cart.lines if line.item is not None}
    draft = {"items": rendered["items"], "deliveryAddress": args.get("deliveryAddress")}
    where = _where(draft, cart.store, locale)
    tail = [where] if where else []
    for line in rendered["items"]:
        stocked = items.get(line["itemId"])
        if stocked is not None:
            tail += _plan_terms(stocked, store, line, locale)
    if Decimal(str(rendered["discount"]["amount"])) > 0:
        codes = [str(entry["code"]) for entry in rendered.get("promotions", [])
                 if entry.get("applicable") and entry.get("code")]
        tail.append(text(locale, "approval.discount_codes", codes=", ".join(codes),
                         amount=rendered["discount"]) if codes else
                    text(locale, "approval.discount", amount=rendered["discount"]))
    for entry in priced:  # the same charges the order will carry (and the 402 asks)
        if entry.method is not None:
            tail.append(text(locale, "approval.shipping", method=store.option(entry.method["name"]),
                             amount=_money(entry.shipping, cart.currency)))
        if entry.rate is not None:
            tail.append(text(locale, "approval.tax", rate=entry.rate,
                             amount=_money(entry.tax, cart.currency)))
    tail.append(text(locale, "approval.total",
                     total=_money(amount_due(priced), cart.currency)))
    return "\n".join([head, *_lines(rendered["items"], items, store), *tail])


async def cancel_order(ctx: ToolContext, args: dict[str, Any], locale: str) -> str:
    doc = await _order(ctx, args["orderId"], rules.cancel_problem)
    currency = doc["total"]["currency"]
    refund = refunds.refundable(doc)
    tail = [text(locale, "approval.refund", amount=_money(refund, currency)) if refund > 0
            else text(locale, "approval.no_refund")]
    store = await _store(ctx, doc["storeId"], locale)
    head = text(locale, "approval.cancel_order", order=doc["id"],
                store=store.name)
    return await _order_prompt(ctx, doc, store, head, doc["items"], tail)


async def start_return(ctx: ToolContext, args: dict[str, Any], locale: str) -> str:
    doc = await _order(ctx, args["orderId"], rules.return_problem)
    requested = args.get("items") or [
        {"cartItemId": line_id, "quantity": left}
        for line_id, left in rules.returnable(doc).items() if left > 0]
    returned = returns.estimate(doc, requested)
    by_id = {line["id"]: line for line in doc["items"]}
    lines = [{**by_id[entry["cartItemId"]], "quantity": entry["quantity"],
              "lineTotal": entry["refundAmount"]} for entry in returned]
    currency = doc["total"]["currency"]
    value = sum((money.parse(entry["refundAmount"]["amount"]) for entry in returned),
                Decimal(0))
    resolution = args.get("preferredResolution") or "refund"
    method = args.get("returnMethod") or "ship"
    tail = [text(locale, f"approval.return_{resolution}", amount=_money(value, currency)),
            text(locale, f"approval.return_method_{method}")]
    store = await _store(ctx, doc["storeId"], locale)
    head = text(locale, "approval.start_return", order=doc["id"],
                store=store.name)
    items = await storefront.load_items(ctx.db, sorted({line["itemId"] for line in lines}))
    return "\n".join([head, *_lines(lines, items, store), *tail])


def tip_request(args: dict[str, Any]) -> dict[str, str] | None:
    """A tip_order call's fixed amount as the service takes it (None for a percentage)."""
    amount = args.get("amount")
    return None if amount is None else {"amount": str(amount["amount"]),
                                        "currency": str(amount["currency"]).upper()}


def tip_value(doc: dict[str, Any], args: dict[str, Any]) -> dict[str, str]:
    """The tip a tip_order call gives, in the order's currency (the service's arithmetic)."""
    if args.get("amount") is None and args.get("percentage") is None:
        raise ToolFailure("invalid_arguments", "Give an amount or a percentage.")
    currency = doc["total"]["currency"]
    return _money(feedback.tip_amount(doc, tip_request(args), args.get("percentage")),
                  currency)


async def tip_order(ctx: ToolContext, args: dict[str, Any], locale: str) -> str:
    doc = await _order(ctx, args["orderId"], rules.tip_problem)
    store = await _store(ctx, doc["storeId"], locale)
    head = text(locale, "approval.tip_order", amount=tip_value(doc, args), order=doc["id"],
                store=store.name)
    return await _order_prompt(ctx, doc, store, head, doc["items"], [])


async def rate_order(ctx: ToolContext, args: dict[str, Any], locale: str) -> str:
    doc = await _order(ctx, args["orderId"], rules.rating_problem)
    store = await _store(ctx, doc["storeId"], locale)
    head = text(locale, "approval.rate_order", stars=int(args["overall"]), order=doc["id"],
                store=store.name)
    tail = [text(locale, "approval.comment", comment=args["comment"])] \
        if args.get("comment") else []
    return await _order_prompt(ctx, doc, store, head, doc["items"], tail)


def _day(stamp: str, locale: str) -> str:
    return str(dates.format_date(clock.parse(stamp), "long", locale=locale))


async def change_subscription(ctx: ToolContext, args: dict[str, Any], locale: str) -> str:
    action = args["action"]
    now = clock.now()
    doc = await _order(ctx, args["orderId"],
                       lambda order: rules.subscription_problem(order, action, now))
    terms = doc["metadata"][model.SUBSCRIPTION]
    line = next((entry for entry in doc["items"] if entry["id"] == terms.get("cartItemId")),
                doc["items"][0])
    tail = []
    if action == "pause":
        tail.append(text(locale, "approval.pause_billing",
                         date=_day(terms.get("nextBillingDate") or clock.iso(now), locale)))
    elif action == "resume":
        upcoming = terms.get("nextBillingDate", "")
        if upcoming <= clock.iso(now):
            upcoming = clock.iso(rules.add_period(now, terms["frequency"]))
        tail.append(text(locale, "approval.resume_billing", amount=line["lineTotal"],
                         date=_day(upcoming, locale)))
    else:
        tail.append(text(locale, "approval.cancel_billing"))
    policy = terms.get("cancellationPolicy", {})
    commitment = int(policy.get("minimumCommitment") or 0)
    if commitment and not policy.get("canCancelAnytime", True):
        # The services refuse to cancel before it is met (problem() above), so a cancel
        # prompt can say it was; a pause or resume prompt says what cancelling will need.
        key = "approval.commitment_met" if action == "cancel" else "approval.commitment_rule"
        tail.append(text(locale, key, count=commitment))
    store = await _store(ctx, doc["storeId"], locale)
    head = text(locale, f"approval.{action}_subscription", order=doc["id"],
                store=store.name)
    return await _order_prompt(ctx, doc, store, head, [line], tail)
