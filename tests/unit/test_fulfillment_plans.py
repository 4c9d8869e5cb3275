"""The simulator's plans as pure functions of the order document: which plan an order gets
(by its fulfillment method, else by what it holds), the statuses each step expects and
leaves, a pre-order's release date holding the first step, an appointment waiting for its
end, and the bare forward move for an order moved off its plan by hand."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from commerce_agent import clock
from commerce_agent.commerce.orders import model
from commerce_agent.commerce.services.fulfillment import plans

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def order(status: str = "confirmed", *kinds: str, method: str | None = None,
          metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": "ord_1", "status": status,
        "items": [{"id": f"l{n}", "itemId": f"i{n}", "quantity": 1, "fulfillmentType": kind}
                  for n, kind in enumerate(kinds or ("physical",))],
        "metadata": dict(metadata or {})}
    if method is not None:
        doc["fulfillment"] = {"method": method}
    return doc


def statuses(doc: dict[str, Any]) -> list[str | None]:
    return [step.status for step in plans.plan(doc)]


@pytest.mark.parametrize(("doc", "moves"), [
    (order(method="digital"), ["completed"]),
    (order(method="kitchen_pickup"), [None, None, "completed"]),
    (order(method="store_pickup"), [None, "completed"]),
    (order(method="appointment"), ["completed"]),
])
def test_each_method_has_its_plan(doc: dict[str, Any], moves: list[str | None]) -> None:
    assert statuses(doc) == moves


def test_an_order_without_a_known_method_is_planned_by_what_it_holds() -> None:
    shipped = plans.plan(order("confirmed", "physical", method="teleport"))
    digital = plans.plan(order("confirmed", "digital"))
    assert [step.status for step in digital] == ["completed"]
    assert shipped[-1].status == "completed" and len(shipped) > len(digital)
    assert statuses(order("confirmed", "physical")) == statuses(
        order("confirmed", "physical", method="shipping"))


def test_the_statuses_a_plan_expects_start_from_confirmed() -> None:
    steps = plans.plan(order(method="shipping"))
    expected = plans.statuses_before(steps)
    assert expected[0] == "confirmed" and len(expected) == len(steps)
    # Each step finds the status the one before it left (or the same, if it left none).
    current = "confirmed"
    for step, found in zip(steps, expected, strict=True):
        assert found == current
        current = step.status or current
    assert current == "completed"
    assert plans.statuses_before([]) == []


def test_a_preorder_waits_for_its_release_date() -> None:
    release = "2026-06-01T00:00:00Z"
    steps = plans.plan(order(method="digital", metadata={model.PREORDER: {"releaseDate": release}}))
    assert steps[0].not_before == clock.iso(clock.parse(release))
    plain = plans.plan(order(method="digital"))
    assert plain[0].not_before is None


def test_an_appointment_completes_after_its_last_booking_ends() -> None:
    doc = order("confirmed", "service", method="appointment", metadata={model.SCHEDULING: {
        "bookings": [{"startTime": "2026-03-02T10:00:00Z", "endTime": "2026-03-02T11:00:00Z"},
                     {"startTime": "2026-03-03T10:00:00Z", "endTime": "2026-03-03T12:00:00Z"}]}})
    [step] = plans.plan(doc)
    assert step.not_before == clock.iso(clock.parse("2026-03-03T12:00:00Z"))
    assert step.status == "completed" and step.delay == 0
    [unbooked] = plans.plan(order("confirmed", "service", method="appointment"))
    assert unbooked.not_before is None


@pytest.mark.parametrize(("status", "kinds", "to"), [
    ("pending", ("physical",), "confirmed"),
    ("confirmed", ("physical",), "processing"),
    ("confirmed", ("digital",), "completed"),
    ("processing", ("physical",), "in_transit"),
    ("in_transit", ("physical",), "completed"),
    ("completed", ("physical",), None),
    ("cancelled", ("physical",), None),
])
def test_an_order_off_its_plan_moves_one_status_forward(status: str, kinds: tuple[str, ...],
                                                        to: str | None) -> None:
    step = plans.fallback_step(order(status, *kinds))
    assert (step.status if step else None) == to


def test_a_pickup_intent_never_ships_even_with_physical_items() -> None:
    doc = order("confirmed", "physical", metadata={model.FULFILLMENT_INTENT: {
        "fulfillmentType": "pickup"}})
    step = plans.fallback_step(doc)
    assert step is not None and step.status == "completed"


def test_later_is_scaled_by_the_speed() -> None:
    slow = plans.Context(NOW, 1.0, "http://test")
    fast = plans.Context(NOW, 60.0, "http://test")
    assert clock.parse(slow.later(120)) == clock.parse("2026-03-01T12:02:00Z")
    assert clock.parse(fast.later(120)) == clock.parse("2026-03-01T12:00:02Z")


def test_a_digital_step_completes_the_order_and_says_it_is_ready() -> None:
    doc = order(method="digital")
    [step] = plans.plan(doc)
    step.apply(doc, plans.Context(NOW, 1.0, "http://test"))
    assert doc["metadata"][model.DETAILED_STATUS] == {
        "_version": "1.0", "title": "Ready", "description": "Your digital items are ready.",
        "progressPercentage": 100}


def test_a_kitchen_order_is_ready_where_the_store_says() -> None:
    doc = order(method="kitchen_pickup")
    doc["fulfillment"]["location"] = "the side window"
    steps = plans.plan(doc)
    ctx = plans.Context(NOW, 1.0, "http://test")
    steps[1].apply(doc, ctx)
    assert doc["metadata"][model.DETAILED_STATUS]["description"] == \
        "Collect it at the side window."
    steps[2].apply(doc, ctx)
    assert doc["metadata"][model.DETAILED_STATUS]["progressPercentage"] == 100
