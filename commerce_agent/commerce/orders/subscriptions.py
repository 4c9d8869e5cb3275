"""Subscription orders (`dev.commerce.order.subscription`): terms, pause, resume, cancel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.orders import lifecycle, rules
from commerce_agent.commerce.orders.model import SUBSCRIPTION
from commerce_agent.commerce.orders.rules import SUBSCRIPTION_ACTIONS, add_period
from commerce_agent.db import Transaction

ACTIONS = SUBSCRIPTION_ACTIONS


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
    error = rules.subscription_problem(doc, action, now)
    if error is not None:
        raise error
    return await lifecycle.change_order(
        tx, order_id, lambda order: _apply(order["metadata"][SUBSCRIPTION], action, now),
        owner_id=owner_id)
