"""The pure order rules (commerce/orders/rules.py), one case per answer, on plain documents:
the state machine, the merchant's actions, billing periods, ratings, tips and returns."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce_agent import clock
from commerce_agent.commerce.orders import model, rules


def _order(status: str = "confirmed", *kinds: str, method: str | None = None,
           **extra: Any) -> dict[str, Any]:
    items = [{"id": f"l{n}", "itemId": f"i{n}", "quantity": 2, "fulfillmentType": kind}
             for n, kind in enumerate(kinds or ("physical",))]
    doc: dict[str, Any] = {"id": "ord_1", "status": status, "items": items, "metadata": {}}
    if method is not None:
        doc["fulfillment"] = {"method": method}
    return {**doc, **extra}


# --- what ships ------------------------------------------------------------------------------

def test_ships_follows_the_physical_part_of_the_basket() -> None:
    assert rules.ships(_order("confirmed", "physical"))
    assert not rules.ships(_order("confirmed", "digital"))
    assert not rules.ships(_order("confirmed", "digital", "service"))
    assert rules.ships(_order("confirmed", "digital", "physical"))


def test_a_hybrid_item_ships_only_with_a_physical_component() -> None:
    hybrid = _order("confirmed", "hybrid")
    hybrid["items"][0]["fulfillmentComponents"] = [{"type": "digital"}]
    assert not rules.ships(hybrid)
    hybrid["items"][0]["fulfillmentComponents"].append({"type": "physical"})
    assert rules.ships(hybrid)


def test_a_pickup_intent_ships_nothing_even_for_physical_items() -> None:
    doc = _order("confirmed", "physical")
    doc["metadata"][model.FULFILLMENT_INTENT] = {"fulfillmentType": "pickup"}
    assert not rules.ships(doc)
    doc["metadata"][model.FULFILLMENT_INTENT] = {"fulfillmentType": "delivery"}
    assert rules.ships(doc)


# --- the state machine -----------------------------------------------------------------------

@pytest.mark.parametrize(("current", "allowed"), [
    ("pending", {"confirmed", "cancelled"}),
    ("confirmed", {"processing", "cancelled"}),  # it ships: not straight to completed
    ("processing", {"in_transit"}),
    ("in_transit", {"completed"}),
    ("completed", set()),
    ("cancelled", set()),
])
def test_the_moves_of_a_shipped_order(current: str, allowed: set[str]) -> None:
    doc = _order(current, "physical")
    assert {to for to in model.STATUSES if rules.can_move(doc, to)} == allowed


def test_an_order_with_nothing_to_ship_completes_from_confirmed() -> None:
    assert rules.can_move(_order("confirmed", "digital"), "completed")
    assert not rules.can_move(_order("confirmed", "physical"), "completed")


def test_move_problem_names_both_ends_of_the_refused_move() -> None:
    assert rules.move_problem(_order("pending"), "confirmed") is None
    problem = rules.move_problem(_order("completed"), "processing")
    assert problem is not None
    assert (problem.status, problem.code) == (409, "invalid_transition")
    assert problem.params == {"from": "completed", "to": "processing"}
    assert problem.details[0]["field"] == "/status"
    assert problem.details[0]["resourceId"] == "ord_1"


# --- the merchant's actions ------------------------------------------------------------------

@pytest.mark.parametrize(("doc", "actions", "advance_to"), [
    (_order("pending", "physical"), ["cancel"], None),
    (_order("confirmed", "physical"), ["ship", "advance", "cancel"], "processing"),
    (_order("confirmed", "digital"), ["advance", "cancel"], "completed"),
    (_order("confirmed", "physical", method="store_pickup",
            metadata={model.FULFILLMENT_INTENT: {"fulfillmentType": "pickup"}}),
     ["ready_for_pickup", "advance", "cancel"], "completed"),
    (_order("processing", "physical"), ["ship", "advance"], "in_transit"),
    (_order("in_transit", "physical"), ["advance"], "completed"),
    (_order("completed", "physical"), [], None),
    (_order("cancelled", "physical"), [], None),
])
def test_merchant_actions_in_every_status(doc: dict[str, Any], actions: list[str],
                                          advance_to: str | None) -> None:
    assert rules.merchant_actions(doc) == actions
    assert rules.merchant_next_status(doc) == advance_to


def test_a_started_kitchen_takes_cancel_away_from_the_merchant() -> None:
    doc = _order("confirmed", "physical", method="kitchen_pickup")
    doc["metadata"][model.KITCHEN_STATUS] = {"status": "preparing"}
    assert rules.kitchen_status(doc) == "preparing"
    assert "cancel" not in rules.merchant_actions(doc)
    problem = rules.cancel_problem(doc)
    assert problem is not None and problem.code == "cancellation_window_expired"


def test_cancel_problem_per_status() -> None:
    assert rules.cancel_problem(_order("pending")) is None
    assert rules.cancel_problem(_order("confirmed")) is None
    already = rules.cancel_problem(_order("cancelled"))
    assert already is not None and (already.status, already.code) == (
        403, "order_already_cancelled")
    late = rules.cancel_problem(_order("in_transit"))
    assert late is not None and late.code == "cancellation_window_expired"
    assert late.params == {"id": "ord_1", "status": "in_transit"}


# --- billing periods -------------------------------------------------------------------------

def _at(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 12, tzinfo=UTC)


@pytest.mark.parametrize(("start", "frequency", "count", "expected"), [
    (_at(2026, 1, 31), "monthly", 1, _at(2026, 2, 28)),  # the day clamps to the month's end
    (_at(2028, 1, 31), "monthly", 1, _at(2028, 2, 29)),  # a leap year's February
    (_at(2026, 1, 31), "monthly", 3, _at(2026, 4, 30)),
    (_at(2026, 11, 15), "monthly", 2, _at(2027, 1, 15)),  # across the year
    (_at(2026, 11, 30), "quarterly", 1, _at(2027, 2, 28)),
    (_at(2028, 2, 29), "annual", 1, _at(2029, 2, 28)),
    (_at(2026, 3, 1), "daily", 3, _at(2026, 3, 4)),
    (_at(2026, 2, 25), "weekly", 1, _at(2026, 3, 4)),
    (_at(2026, 2, 25), "biweekly", 2, _at(2026, 3, 25)),
    (_at(2026, 5, 10), "fortnightly-ish", 1, _at(2026, 6, 10)),  # unknown: a month
])
def test_add_period(start: datetime, frequency: str, count: int, expected: datetime) -> None:
    assert rules.add_period(start, frequency, count) == expected


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                    timezones=st.just(UTC)),
       st.sampled_from(["daily", "weekly", "biweekly", "monthly", "quarterly", "annual"]),
       st.integers(min_value=1, max_value=36))
def test_a_later_period_never_comes_earlier(start: datetime, frequency: str, count: int
                                            ) -> None:
    later = rules.add_period(start, frequency, count)
    assert later > start
    assert later >= rules.add_period(start, frequency, count - 1)
    assert later.time() == start.time() and later.day <= start.day + 14 * count


def test_billing_cycles_count_whole_periods_only() -> None:
    terms = {"startDate": "2026-01-31T00:00:00Z", "frequency": "monthly"}
    assert rules.billing_cycles(terms, clock.parse("2026-02-27T23:59:59Z")) == 0
    assert rules.billing_cycles(terms, clock.parse("2026-02-28T00:00:00Z")) == 1
    assert rules.billing_cycles(terms, clock.parse("2026-05-01T00:00:00Z")) == 3


def _subscribed(status: str = "active", anytime: bool = False, commitment: int = 3,
                order_status: str = "confirmed") -> dict[str, Any]:
    return _order(order_status, "service", metadata={model.SUBSCRIPTION: {
        "frequency": "monthly", "startDate": "2026-01-01T00:00:00Z", "status": status,
        "cancellationPolicy": {"canCancelAnytime": anytime, "minimumCommitment": commitment}}})


def test_the_commitment_counts_cycles_from_the_start() -> None:
    one_cycle, three_cycles = clock.parse("2026-02-15T00:00:00Z"), clock.parse(
        "2026-04-01T00:00:00Z")
    problem = rules.commitment_problem(_subscribed(), one_cycle)
    assert problem is not None and (problem.status, problem.code) == (
        403, "minimum_commitment_not_met")
    assert problem.params == {"minimumCommitment": 3, "cancellableFrom": "2026-04-01"}
    assert rules.commitment_problem(_subscribed(), three_cycles) is None
    assert rules.commitment_problem(_subscribed(anytime=True), one_cycle) is None
    assert rules.commitment_problem(_subscribed("cancelled"), one_cycle) is None
    assert rules.commitment_problem(_order("confirmed"), one_cycle) is None


def test_an_unpaid_order_cancels_whatever_its_commitment() -> None:
    early = clock.parse("2026-01-02T00:00:00Z")
    assert rules.cancel_problem(_subscribed(order_status="pending"), early) is None
    problem = rules.cancel_problem(_subscribed(), early)
    assert problem is not None and problem.code == "minimum_commitment_not_met"


@pytest.mark.parametrize(("status", "action", "code"), [
    ("active", "pause", None),
    ("active", "resume", "invalid_transition"),
    ("paused", "resume", None),
    ("paused", "pause", "invalid_transition"),
    ("cancelled", "cancel", "invalid_transition"),
    ("paused", "cancel", None),
])
def test_subscription_actions(status: str, action: str, code: str | None) -> None:
    later = clock.parse("2027-01-01T00:00:00Z")
    problem = rules.subscription_problem(_subscribed(status), action, later)
    assert (problem.code if problem else None) == code


def test_subscription_actions_need_a_subscription_on_a_live_order() -> None:
    missing = rules.subscription_problem(_order("confirmed"), "pause")
    assert missing is not None and (missing.status, missing.code) == (
        404, "subscription_not_found")
    for order_status in ("pending", "cancelled"):
        problem = rules.subscription_problem(_subscribed(order_status=order_status), "pause")
        assert problem is not None and problem.code == "invalid_transition"


# --- ratings and tips ------------------------------------------------------------------------

def test_rating_needs_a_completed_order_rated_once() -> None:
    assert rules.rating_problem(_order("completed")) is None
    early = rules.rating_problem(_order("in_transit"))
    assert early is not None and early.code == "order_not_completed"
    rated = _order("completed")
    rated["metadata"][model.RATINGS] = {"overall": 5}
    again = rules.rating_problem(rated)
    assert again is not None and again.code == "order_already_rated"


@pytest.mark.parametrize(("method", "status", "allowed"), [
    ("local_delivery", "completed", True),
    ("local_delivery", "in_transit", True),  # a driver may be tipped on the way
    ("kitchen_pickup", "completed", True),
    ("kitchen_pickup", "in_transit", False),
    ("appointment", "completed", True),
    ("standard", "completed", False),  # parcels: nobody to tip
    (None, "completed", False),
    ("local_delivery", "confirmed", False),
])
def test_who_may_be_tipped(method: str | None, status: str, allowed: bool) -> None:
    problem = rules.tip_problem(_order(status, method=method))
    assert (problem is None) is allowed
    if problem is not None:
        assert (problem.status, problem.code) == (409, "tip_not_allowed")


def test_a_second_tip_is_refused_first() -> None:
    tipped = _order("completed", method="local_delivery")
    tipped["metadata"][model.TIPPING] = {"amount": "2.00"}
    problem = rules.tip_problem(tipped)
    assert problem is not None and problem.code == "order_already_tipped"


# --- returns ---------------------------------------------------------------------------------

def test_returnable_subtracts_every_claim_but_rejected_ones() -> None:
    doc = _order("completed", "physical", "physical")
    doc["returns"] = [
        {"status": "requested", "items": [{"cartItemId": "l0", "quantity": 1}]},
        {"status": "rejected", "items": [{"cartItemId": "l1", "quantity": 2}]},
        {"status": "refunded", "items": [{"cartItemId": "l0", "quantity": 1}]},
    ]
    assert rules.returnable(doc) == {"l0": 0, "l1": 2}


def test_return_problem_in_order_of_the_checks() -> None:
    now = "2026-06-01T00:00:00Z"
    open_window = _order("completed", returnableUntil="2026-07-01T00:00:00Z")
    assert rules.return_problem(open_window, now) is None
    not_done = rules.return_problem({**open_window, "status": "in_transit"}, now)
    assert not_done is not None and not_done.code == "return_not_allowed"
    no_returns = rules.return_problem(_order("completed"), now)
    assert no_returns is not None and no_returns.message == \
        "This store does not accept returns."
    closed = rules.return_problem(open_window, "2026-07-01T00:00:00Z")
    assert closed is not None and closed.code == "return_window_expired"
    assert closed.params["returnableUntil"] == "2026-07-01T00:00:00Z"
    claimed = {**open_window, "returns": [
        {"status": "requested", "items": [{"cartItemId": "l0", "quantity": 2}]}]}
    all_claimed = rules.return_problem(claimed, now)
    assert all_claimed is not None and all_claimed.message == \
        "Every item is already being returned."
