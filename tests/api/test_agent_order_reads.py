"""The order-reading tools (`get_order`, `list_orders`) as a turn calls them: only the caller's
own orders, a status filter, and a summary that carries what the after-sale replies read
(shipments, the estimated arrival, the subscription, rating and tip), and `order_summary`
on plain documents."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.orders import model
from commerce_agent.operations import ToolFailure
from commerce_agent.operations.orders import order_summary
from tests.support.agent_support import run
from tests.support.lifecycle_support import advance, complete, edit_doc, mug_order

pytestmark = pytest.mark.both_backends

BOB = Principal("user_bob", "bob@example.com", "Bob")


async def test_get_order_answers_only_the_callers_own_order(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    mine = await run(app, "get_order", {"orderId": placed["id"]})
    assert mine["orderId"] == placed["id"] and mine["status"] == placed["status"]
    assert [line["itemId"] for line in mine["items"]] == ["item_limited_glaze_mug"]
    assert mine["total"] == placed["total"]
    with pytest.raises(ToolFailure) as theirs:
        await run(app, "get_order", {"orderId": placed["id"]}, principal=BOB)
    assert theirs.value.code == "order_not_found"
    with pytest.raises(ToolFailure) as missing:
        await run(app, "get_order", {"orderId": "ord_nope"})
    assert missing.value.code == "order_not_found" and "ord_nope" in str(missing.value)


async def test_list_orders_counts_the_callers_orders_and_filters_by_status(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    first = await mug_order(client, alice)
    second = await mug_order(client, alice)
    listed = await run(app, "list_orders", {})
    assert listed["total"] == 2
    assert {order["orderId"] for order in listed["orders"]} == {first["id"], second["id"]}
    await complete(app, first["id"])
    done = await run(app, "list_orders", {"status": "completed"}, key="list-completed")
    assert [order["orderId"] for order in done["orders"]] == [first["id"]]
    assert done["total"] == 1
    none = await run(app, "list_orders", {"status": "cancelled"}, key="list-cancelled")
    assert none == {"orders": [], "total": 0}
    assert (await run(app, "list_orders", {}, principal=BOB)) == {"orders": [], "total": 0}


async def test_a_shipped_order_summary_names_its_carrier_and_tracking_number(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    await advance(app, placed["id"], "in_transit")
    summary = await run(app, "get_order", {"orderId": placed["id"]})
    assert summary["status"] == "in_transit"
    [shipment] = summary["shipments"]
    assert shipment["trackingNumber"]
    assert set(shipment) <= {"carrier", "trackingNumber", "status", "shippedAt", "deliveredAt"}


async def test_the_summary_carries_the_rating_of_a_rated_order(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)

    def rated(doc: dict[str, Any]) -> None:
        doc["status"] = "completed"
        doc.setdefault("metadata", {})[model.RATINGS] = {"overall": 5}
        doc["metadata"][model.TIPPING] = {"amount": {"amount": "2.00", "currency": "USD"}}

    await edit_doc(app, placed["id"], rated)
    summary = await run(app, "get_order", {"orderId": placed["id"]})
    assert summary["rating"] == {"overall": 5}
    assert summary["tip"] == {"amount": {"amount": "2.00", "currency": "USD"}}
    assert "subscription" not in summary


# --- order_summary on plain documents -------------------------------------------------------

def _doc(**extra: Any) -> dict[str, Any]:
    return {"id": "ord_1", "status": "confirmed", "storeId": "store_x",
            "items": [{"id": "line_1", "itemId": "item_a", "name": "A", "quantity": 2,
                       "lineTotal": {"amount": "4.00", "currency": "USD"}}],
            "total": {"amount": "4.00", "currency": "USD"}, "actions": [], **extra}


def test_a_summary_keeps_only_the_line_fields_an_agent_reads() -> None:
    doc = _doc()
    doc["items"][0].update(variantId="var_red", secret="kept out", timeSlotId="slot_1")
    [line] = order_summary(doc)["items"]
    assert line == {"cartItemId": "line_1", "itemId": "item_a", "name": "A", "quantity": 2,
                    "lineTotal": {"amount": "4.00", "currency": "USD"},
                    "variantId": "var_red", "timeSlotId": "slot_1"}


def test_a_summary_lists_the_ids_of_the_actions_open_now() -> None:
    doc = _doc(actions=[{"id": "cancel", "href": "/x"}, {"id": "rate", "href": "/y"}])
    assert order_summary(doc)["actions"] == ["cancel", "rate"]


def test_the_estimated_arrival_comes_from_the_detailed_status_first() -> None:
    both = _doc(metadata={
        model.DETAILED_STATUS: {"estimatedCompletionAt": "2026-01-02T00:00:00Z"},
        model.DELIVERY_TRACKING: {"estimatedArrivalAt": "2026-01-05T00:00:00Z"}})
    assert order_summary(both)["estimatedCompletionAt"] == "2026-01-02T00:00:00Z"
    tracking_only = _doc(metadata={
        model.DELIVERY_TRACKING: {"estimatedArrivalAt": "2026-01-05T00:00:00Z"}})
    assert order_summary(tracking_only)["estimatedCompletionAt"] == "2026-01-05T00:00:00Z"
    assert "estimatedCompletionAt" not in order_summary(_doc(metadata={}))


def test_a_summary_without_shipments_says_none() -> None:
    summary = order_summary(_doc(metadata={model.SHIPMENT_TRACKING: []}))
    assert "shipments" not in summary
    shipped = order_summary(_doc(metadata={model.SHIPMENT_TRACKING: [
        {"carrier": "UPS", "trackingNumber": "1Z", "internal": "no"}]}))
    assert shipped["shipments"] == [{"carrier": "UPS", "trackingNumber": "1Z"}]


def test_a_summary_passes_the_payment_address_and_returns_through() -> None:
    doc = _doc(payment={"scheme": "fiat_intent"}, deliveryAddress={"countryCode": "US"},
               returns=[{"id": "ret_1"}])
    summary = order_summary(doc)
    assert summary["payment"] == {"scheme": "fiat_intent"}
    assert summary["deliveryAddress"] == {"countryCode": "US"}
    assert summary["returns"] == [{"id": "ret_1"}]
    assert "refunds" not in summary and "tracking" not in summary
