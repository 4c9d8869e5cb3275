"""What may be done to an order now: pure functions of the order document.

One answer whichever route asks: the Commerce API, the admin API, the agent tools, the MCP
tools and the rendered `actions` all call these, and the writers (`lifecycle`, `cancellation`,
`feedback`, `subscriptions`, returns) refuse exactly what they refuse. Nothing here writes or
imports a module that does.

The order state machine:

    pending → confirmed → processing → in_transit → completed
    confirmed → completed           (orders with nothing to ship: digital, pickup)
    pending | confirmed → cancelled
"""

from __future__ import annotations

import calendar
from datetime import datetime, timedelta
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.orders.model import (
    CANCELLABLE,
    CANCELLED,
    COMPLETED,
    CONFIRMED,
    FULFILLMENT_INTENT,
    IN_TRANSIT,
    KITCHEN_CONFIRMED,
    KITCHEN_STATUS,
    PENDING,
    PROCESSING,
    RATINGS,
    SUBSCRIPTION,
    TIPPING,
    MerchantActionId,
    OrderDoc,
    OrderStatus,
)
from commerce_agent.errors import CommerceError

_MOVES: dict[str, frozenset[str]] = {
    PENDING: frozenset({CONFIRMED, CANCELLED}),
    CONFIRMED: frozenset({PROCESSING, COMPLETED, CANCELLED}),
    PROCESSING: frozenset({IN_TRANSIT}),
    IN_TRANSIT: frozenset({COMPLETED}),
}
TIPPED_METHODS = {"local_delivery": "driver", "kitchen_pickup": "restaurant",
                  "appointment": "split"}
SUBSCRIPTION_ACTIONS = ("pause", "resume", "cancel")
_DAYS = {"daily": 1, "weekly": 7, "biweekly": 14}
_MONTHS = {"monthly": 1, "quarterly": 3, "annual": 12}


# --- the state machine -----------------------------------------------------------------------

def ships(doc: OrderDoc) -> bool:
    """True when something in the order travels to the customer (physical or hybrid part)."""
    intent = doc.get("metadata", {}).get(FULFILLMENT_INTENT)
    if isinstance(intent, dict) and intent.get("fulfillmentType") == "pickup":
        return False
    for item in doc.get("items", []):
        kind = item.get("fulfillmentType")
        if kind == "physical":
            return True
        if kind == "hybrid" and any(component.get("type") == "physical"
                                    for component in item.get("fulfillmentComponents", [])):
            return True
    return False


def can_move(doc: OrderDoc, to: str) -> bool:
    current = str(doc.get("status"))
    if to not in _MOVES.get(current, frozenset()):
        return False
    return not (current == CONFIRMED and to == COMPLETED and ships(doc))


def move_problem(doc: OrderDoc, to: str) -> CommerceError | None:
    if can_move(doc, to):
        return None
    current = doc.get("status")
    return CommerceError(
        409, "invalid_transition", f"An order cannot go from {current} to {to}.",
        details=[{"type": "business_logic", "field": "/status", "value": to,
                  "resourceId": doc.get("id"), "reason": f"not allowed from {current}"}],
        params={"from": current, "to": to})


PICKUP_METHODS = ("store_pickup", "kitchen_pickup")
# The merchant's next status by hand (the console's "advance" button; `ship` sets tracking).
_NEXT: dict[str, OrderStatus] = {"processing": "in_transit", "in_transit": "completed"}


def merchant_next_status(doc: OrderDoc) -> OrderStatus | None:
    """Where the merchant's plain "advance" takes the order (None: nowhere by hand). A pending
    order waits for its payment, so the merchant never advances it."""
    status = str(doc.get("status"))
    if status == "confirmed":
        return "processing" if ships(doc) else "completed"
    return _NEXT.get(status)


def merchant_actions(doc: OrderDoc) -> list[MerchantActionId]:
    """What the store's merchant may do with the order now, in the order a console shows them:
    ship it with a tracking number, say a pickup order is ready, move it on, cancel it. Each
    appears exactly when the admin route it names would accept it."""
    status = doc.get("status")
    found: list[MerchantActionId] = []
    if status in ("confirmed", "processing") and ships(doc):
        found.append("ship")
    if status == "confirmed" and doc.get("fulfillment", {}).get("method") in PICKUP_METHODS:
        found.append("ready_for_pickup")
    if merchant_next_status(doc) is not None:
        found.append("advance")
    if cancel_problem(doc) is None:
        found.append("cancel")
    return found


def kitchen_status(doc: OrderDoc) -> str:
    """Where the kitchen is with a restaurant order ("confirmed" for every other order)."""
    return str(doc.get("metadata", {}).get(KITCHEN_STATUS, {}).get("status", KITCHEN_CONFIRMED))


# --- subscriptions ---------------------------------------------------------------------------

def add_period(moment: datetime, frequency: str, count: int = 1) -> datetime:
    if frequency in _DAYS:
        return moment + timedelta(days=_DAYS[frequency] * count)
    months = moment.month - 1 + _MONTHS.get(frequency, 1) * count
    year, month = moment.year + months // 12, months % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def billing_cycles(terms: dict[str, Any], now: datetime) -> int:
    """Whole billing cycles since the subscription started."""
    start, count = clock.parse(terms["startDate"]), 0
    while add_period(start, terms["frequency"], count + 1) <= now and count < 10_000:
        count += 1
    return count


def cancellable_from(terms: dict[str, Any]) -> datetime | None:
    """When a plan with a minimum commitment may first be cancelled (its start plus that
    many billing periods); None when it may be cancelled at any time."""
    policy = terms.get("cancellationPolicy") or {}
    commitment = int(policy.get("minimumCommitment") or 0)
    if policy.get("canCancelAnytime", True) or not commitment or not terms.get("startDate"):
        return None
    return add_period(clock.parse(str(terms["startDate"])), str(terms.get("frequency")),
                      commitment)


def commitment_problem(doc: OrderDoc, now: datetime | None = None) -> CommerceError | None:
    """Why ending this order's running subscription now breaks its minimum commitment, with
    the day it becomes possible."""
    terms = doc.get("metadata", {}).get(SUBSCRIPTION)
    if not terms or terms.get("status") not in ("active", "paused"):
        return None
    policy = terms.get("cancellationPolicy", {})
    if policy.get("canCancelAnytime", True):
        return None
    commitment = int(policy.get("minimumCommitment") or 0)
    if billing_cycles(terms, now or clock.now()) < commitment:
        start = cancellable_from(terms)
        return CommerceError(
            403, "minimum_commitment_not_met",
            f"This subscription can be cancelled after {commitment} billing cycles.",
            params={"minimumCommitment": commitment,
                    "cancellableFrom": start.date().isoformat() if start else None})
    return None


def subscription_problem(doc: OrderDoc, action: str, now: datetime | None = None
                         ) -> CommerceError | None:
    """Why `action` (pause, resume, cancel) is impossible now, or None when it is possible."""
    terms = doc.get("metadata", {}).get(SUBSCRIPTION)
    if not terms:
        return CommerceError(404, "subscription_not_found", "This order has no subscription.")
    status = terms.get("status")
    wanted = {"pause": {"active"}, "resume": {"paused"}, "cancel": {"active", "paused"}}[action]
    if doc.get("status") in (PENDING, CANCELLED) or status not in wanted:
        return CommerceError(409, "invalid_transition",
                             f"A {status} subscription cannot be {action}d.",
                             params={"from": status, "action": action})
    return commitment_problem(doc, now) if action == "cancel" else None


# --- cancelling the order --------------------------------------------------------------------

def cancel_problem(doc: OrderDoc, now: datetime | None = None) -> CommerceError | None:
    """Why the order cannot be cancelled now, or None when it can: from pending and confirmed
    only, not once the kitchen started, and not, once paid, while it carries a subscription
    whose minimum commitment is unmet (cancelling the order ends the subscription; an unpaid
    order has not started it)."""
    status = doc.get("status")
    if status == CANCELLED:
        return CommerceError(403, "order_already_cancelled", "This order is already cancelled.",
                             params={"id": doc.get("id")})
    if status not in CANCELLABLE or kitchen_status(doc) != KITCHEN_CONFIRMED:
        return CommerceError(403, "cancellation_window_expired",
                             f"This order is {status} and can no longer be cancelled.",
                             params={"id": doc.get("id"), "status": status})
    return None if status == PENDING else commitment_problem(doc, now)


# --- ratings and tips ------------------------------------------------------------------------

def rating_problem(doc: OrderDoc) -> CommerceError | None:
    if doc.get("status") != COMPLETED:
        return CommerceError(409, "order_not_completed", "Only completed orders can be rated.",
                             params={"id": doc.get("id"), "status": doc.get("status")})
    if RATINGS in doc.get("metadata", {}):
        return CommerceError(409, "order_already_rated", "This order has already been rated.",
                             params={"id": doc.get("id")})
    return None


def tip_problem(doc: OrderDoc) -> CommerceError | None:
    method = doc.get("fulfillment", {}).get("method")
    status = doc.get("status")
    if TIPPING in doc.get("metadata", {}):
        return CommerceError(409, "order_already_tipped", "This order already has a tip.",
                             params={"id": doc.get("id")})
    under_way = method == "local_delivery" and status == IN_TRANSIT
    if method not in TIPPED_METHODS or not (status == COMPLETED or under_way):
        return CommerceError(409, "tip_not_allowed",
                             "Tips are for completed deliveries, restaurant orders and "
                             "sessions.", params={"id": doc.get("id"), "status": status})
    return None


# --- returns ---------------------------------------------------------------------------------

def returnable(doc: OrderDoc) -> dict[str, int]:
    """Quantity per order line that no return (other than a rejected one) has claimed."""
    left = {line["id"]: int(line["quantity"]) for line in doc.get("items", [])}
    for summary in doc.get("returns", []):
        if summary.get("status") == "rejected":
            continue
        for item in summary.get("items", []):
            left[item["cartItemId"]] = left.get(item["cartItemId"], 0) - int(item["quantity"])
    return left


def return_problem(doc: OrderDoc, now: str | None = None) -> CommerceError | None:
    """Why no return can be started for this order now, or None."""
    if doc.get("status") != COMPLETED:
        return CommerceError(403, "return_not_allowed", "Only completed orders can be returned.",
                             params={"id": doc.get("id"), "status": doc.get("status")})
    until = doc.get("returnableUntil")
    if not until:
        return CommerceError(403, "return_not_allowed", "This store does not accept returns.",
                             params={"id": doc.get("id")})
    if until <= (now or clock.now_iso()):
        return CommerceError(403, "return_window_expired",
                             f"The return window closed at {until}.",
                             params={"id": doc.get("id"), "returnableUntil": until})
    if not any(quantity > 0 for quantity in returnable(doc).values()):
        return CommerceError(403, "return_not_allowed", "Every item is already being returned.",
                             params={"id": doc.get("id")})
    return None
