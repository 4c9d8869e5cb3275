"""The order's one type (commerce/orders/model.py) and its pure rules (rules.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import msgspec
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.orders import model, rules
from commerce_agent.openapi import models as openapi_models
from tests.support.lifecycle_support import complete, digital_order, kitchen_order, mug_order


def _studio(started_days_ago: int, status: str = "active") -> dict[str, Any]:
    start = clock.now() - timedelta(days=started_days_ago)
    return {"id": "ord_1", "status": "confirmed", "items": [], "metadata": {
        model.SUBSCRIPTION: {"frequency": "monthly", "startDate": clock.iso(start),
                             "status": status,
                             "cancellationPolicy": {"canCancelAnytime": False,
                                                    "minimumCommitment": 3}}}}


def test_the_statuses_are_the_literal_and_the_machine_uses_only_them() -> None:
    assert model.STATUSES == ("pending", "confirmed", "processing", "in_transit",
                              "completed", "cancelled")
    assert model.TERMINAL <= set(model.STATUSES) and model.CANCELLABLE <= set(model.STATUSES)
    for current in model.STATUSES:
        for target in model.STATUSES:
            order = {"status": current, "items": [{"fulfillmentType": "digital"}]}
            if rules.can_move(order, target):
                assert current not in model.TERMINAL


def test_one_decoder_and_the_typed_order() -> None:
    raw = msgspec.json.encode({
        "id": "ord_1", "status": "confirmed", "createdAt": "t", "updatedAt": "t",
        "total": {"amount": "1.00", "currency": "USD"}, "extra": {"kept": True},
        "items": [{"id": "l1", "itemId": "i1", "quantity": 1,
                   "price": {"amount": "1.00", "currency": "USD"}}]})
    doc = model.decode(raw)
    assert doc["extra"] == {"kept": True}  # the document keeps what the struct does not name
    typed = model.typed(doc)
    assert typed.status == "confirmed" and typed.items[0].quantity == 1
    with pytest.raises(msgspec.ValidationError):
        model.typed({**doc, "status": "shipped"})
    assert openapi_models.Order is model.Order


def test_the_commitment_is_one_rule_for_both_cancels() -> None:
    young, old = _studio(20), _studio(100)
    for problem in (rules.cancel_problem(young), rules.subscription_problem(young, "cancel")):
        assert problem is not None and problem.code == "minimum_commitment_not_met"
    assert rules.cancel_problem(old) is None
    assert rules.subscription_problem(old, "cancel") is None
    # A subscription that already ended does not hold the order back.
    assert rules.cancel_problem(_studio(20, "cancelled")) is None
    # An unpaid order has not started its subscription: it may be cancelled.
    assert rules.cancel_problem({**young, "status": "pending"}) is None
    # Pausing is not cancelling.
    assert rules.subscription_problem(young, "pause") is None


def test_kitchen_and_window_rules() -> None:
    started = {"id": "o", "status": "confirmed", "metadata": {
        model.KITCHEN_STATUS: {"status": "preparing"}}}
    assert rules.kitchen_status(started) == "preparing"
    refused = rules.cancel_problem(started)
    assert refused is not None and refused.code == "cancellation_window_expired"
    gone = rules.cancel_problem({"id": "o", "status": "cancelled"})
    assert gone is not None and gone.code == "order_already_cancelled"
    assert rules.cancel_problem({"id": "o", "status": "pending"}) is None


@pytest.mark.both_backends
async def test_every_rendered_order_is_an_order(app: Starlette, client: httpx.AsyncClient,
                                               alice: dict[str, str]) -> None:
    placed = [await mug_order(client, alice), await digital_order(client, alice),
              await kitchen_order(client, alice)]
    placed.append(await complete(app, placed[1]["id"]))
    for doc in placed:
        typed = model.typed(doc)
        assert typed.status in model.STATUSES and typed.actions is not None
    listed = (await client.get("/orders", headers=alice)).json()["orders"]
    assert {model.typed(doc).id for doc in listed} >= {doc["id"] for doc in placed}
