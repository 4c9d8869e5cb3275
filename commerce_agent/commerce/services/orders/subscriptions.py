"""Subscription orders (`dev.commerce.order.subscription`): terms, pause, resume, cancel."""

from __future__ import annotations

import calendar
from datetime import datetime, timedelta
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.services.carts.cart import CartLine
from commerce_agent.commerce.services.fulfillment import lifecycle
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError

SUBSCRIPTION = "dev.commerce.order.subscription"
_DAYS = {"daily": 1, "weekly": 7, "biweekly": 14}
_MONTHS = {"monthly": 1, "quarterly": 3, "annual": 12}
ACTIONS = ("pause", "resume", "cancel")


def add_period(moment: datetime, frequency: str, count: int = 1) -> datetime:
    if frequency in _DAYS:
        return moment + timedelta(days=_DAYS[frequency] * count)
    months = moment.month - 1 + _MONTHS.get(frequency, 1) * count
    year, month = moment.year + months // 12, months % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def attach(doc: dict[str, Any], lines: list[CartLine], now: datetime) -> None:
    """Subscription terms from the first subscription item among the order's lines."""
    ids = {line["id"] for line in doc["items"]}
    for line in lines:
        terms = line.item.doc.get("metadata", {}).get(SUBSCRIPTION) if line.item else None
        if line.id not in ids or not terms:
            continue
        frequency = str(terms.get("frequency", "monthly"))
        trial = int(terms.get("trialDays") or 0)
        first_bill = now + timedelta(days=trial) if trial else add_period(now, frequency)
        doc["metadata"][SUBSCRIPTION] = {
            "_version": "1.0", "cartItemId": line.id, "itemId": line.item_id,
            "frequency": frequency, "startDate": clock.iso(now),
            "nextBillingDate": clock.iso(first_bill), "status": "active",
            "cancellationPolicy": terms.get("cancellationPolicy", {"canCancelAnytime": True}),
            **({"trialDays": trial} if trial else {}),
            "createdAt": clock.iso(now), "updatedAt": clock.iso(now)}
        return


def _cycles(terms: dict[str, Any], now: datetime) -> int:
    start, count = clock.parse(terms["startDate"]), 0
    while add_period(start, terms["frequency"], count + 1) <= now and count < 10_000:
        count += 1
    return count


def problem(doc: dict[str, Any], action: str, now: datetime | None = None
            ) -> CommerceError | None:
    """Why `action` (pause, resume, cancel) is impossible now, or None when it is possible."""
    terms = doc.get("metadata", {}).get(SUBSCRIPTION)
    if not terms:
        return CommerceError(404, "subscription_not_found", "This order has no subscription.")
    status = terms.get("status")
    wanted = {"pause": {"active"}, "resume": {"paused"}, "cancel": {"active", "paused"}}[action]
    if doc.get("status") in ("pending", "cancelled") or status not in wanted:
        return CommerceError(409, "invalid_transition",
                             f"A {status} subscription cannot be {action}d.",
                             params={"from": status, "action": action})
    policy = terms.get("cancellationPolicy", {})
    if action == "cancel" and not policy.get("canCancelAnytime", True):
        commitment = int(policy.get("minimumCommitment") or 0)
        if _cycles(terms, now or clock.now()) < commitment:
            return CommerceError(
                403, "minimum_commitment_not_met",
                f"This subscription can be cancelled after {commitment} billing cycles.",
                params={"minimumCommitment": commitment})
    return None


def _apply(terms: dict[str, Any], action: str, now: datetime) -> None:
    stamp = clock.iso(now)
    if action == "pause":
        terms.update(status="paused", pausedAt=stamp)
    elif action == "resume":
        terms.update(status="active")
        terms.pop("pausedAt", None)
        if terms.get("nextBillingDate", "") <= stamp:
            terms["nextBillingDate"] = clock.iso(add_period(now, terms["frequency"]))
    else:
        terms.update(status="cancelled", cancelledAt=stamp)
        terms.pop("nextBillingDate", None)
    terms["updatedAt"] = stamp


def end(doc: dict[str, Any], now: datetime) -> None:
    """Stop billing when the whole order is cancelled."""
    terms = doc.get("metadata", {}).get(SUBSCRIPTION)
    if terms and terms.get("status") in ("active", "paused"):
        _apply(terms, "cancel", now)


async def change(tx: Transaction, owner_id: str, order_id: str, action: str
                 ) -> dict[str, Any]:
    _, doc = await lifecycle.load(tx, order_id, owner_id)
    now = clock.now()
    error = problem(doc, action, now)
    if error is not None:
        raise error
    return await lifecycle.change_order(
        tx, order_id, lambda order: _apply(order["metadata"][SUBSCRIPTION], action, now),
        owner_id=owner_id)
