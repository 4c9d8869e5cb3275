"""Each kind of order moves the way its fulfillment does, and its capability metadata shows it."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.services.fulfillment import simulator, tracking
from commerce_agent.commerce.services.fulfillment.plans import Context
from tests.support.helpers import US_ADDRESS
from tests.support.lifecycle_support import (
    JP_ADDRESS,
    PORTLAND_NEARBY,
    action_ids,
    advance,
    digital_order,
    get_order,
    kitchen_order,
    mug_order,
    order,
)

pytestmark = pytest.mark.both_backends

DETAILED = "dev.commerce.order.detailed_status"
SHIPMENT = "dev.commerce.order.shipment_tracking"
DELIVERY = "dev.commerce.order.delivery_tracking"
KITCHEN = "dev.commerce.order.kitchen_status"
PREORDER = "dev.commerce.order.preorder"
SCHEDULING = "dev.commerce.service.scheduling"


async def _step(app: Starlette, order_id: str) -> dict[str, Any]:
    async with app.state.db.transaction() as tx:
        after = await simulator.run_step(tx, order_id, Context(clock.now(), 1.0, "http://test"),
                                         force=True)
    assert after is not None
    return after


async def test_capabilities_are_advertised(client: httpx.AsyncClient) -> None:
    listed = {c["id"]: c for c in (await client.get("/capabilities")).json()["capabilities"]}
    for name in ("order.kitchen_status", "order.delivery_tracking", "order.shipment_tracking",
                 "order.tipping", "order.ratings", "order.digital_access",
                 "order.detailed_status", "order.subscription", "order.customer_fields",
                 "order.cancellation", "order.returns", "order.refunds",
                 "order.fulfillment_intent", "order.preorder", "service.scheduling"):
        capability = listed[f"dev.commerce.{name}@1.0"]
        schema = await client.get(capability["schemaUrl"].removeprefix("http://test"))
        assert schema.status_code == 200, name


async def test_parcel_shipment(app: Starlette, client: httpx.AsyncClient,
                               alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    assert placed["fulfillment"]["method"] == "shipping"
    assert placed["fulfillment"]["carrier"] == "USPS"
    assert placed["metadata"][DETAILED]["progressPercentage"] == 10
    processing = await _step(app, placed["id"])
    assert processing["status"] == "processing"
    assert processing["metadata"][DETAILED]["title"] == "Packing your order"
    shipped = await _step(app, placed["id"])
    assert shipped["status"] == "in_transit"
    [parcel] = shipped["metadata"][SHIPMENT]
    assert parcel["carrier"] == "USPS" and parcel["_version"] == "1.0"
    assert parcel["trackingNumber"].startswith("U") and len(parcel["trackingNumber"]) == 13
    assert parcel["trackingUrl"].startswith("https://www.usps.com/")
    assert parcel["trackingNumber"] in parcel["trackingUrl"]
    assert shipped["metadata"][DETAILED]["estimatedCompletionAt"] > shipped["updatedAt"]
    out = await _step(app, placed["id"])
    assert out["status"] == "in_transit" and out["metadata"][DETAILED]["progressPercentage"] == 85
    delivered = await _step(app, placed["id"])
    assert delivered["status"] == "completed"
    assert delivered["metadata"][SHIPMENT][0]["status"] == "delivered"
    assert delivered["metadata"][DETAILED] == {
        "_version": "1.0", "title": "Delivered", "description": "Your parcel arrived.",
        "progressPercentage": 100}
    assert delivered == {k: v for k, v in (await get_order(client, alice, placed["id"])).items()
                         if k != "actions"}


async def test_courier_moves_toward_the_address(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice, PORTLAND_NEARBY)
    assert placed["fulfillment"]["method"] == "local_delivery"
    target = (PORTLAND_NEARBY["latitude"], PORTLAND_NEARBY["longitude"])
    assert (await _step(app, placed["id"]))["status"] == "processing"
    distances, arrivals = [], []
    doc = await _step(app, placed["id"])
    while doc["status"] == "in_transit":
        tracking_doc = doc["metadata"][DELIVERY]
        assert tracking_doc["driver"]["name"] and tracking_doc["driver"]["vehicle"]
        assert tracking_doc["_version"] == "1.0"
        location = tracking_doc["liveLocation"]
        distances.append(tracking.distance_km((location["latitude"], location["longitude"]),
                                              target))
        arrivals.append(tracking_doc["estimatedArrivalAt"])
        doc = await _step(app, placed["id"])
    assert len(distances) >= 3
    assert distances == sorted(distances, reverse=True) and distances[0] > distances[-1]
    assert all(arrival > doc["createdAt"] for arrival in arrivals)
    assert doc["status"] == "completed"
    final = doc["metadata"][DELIVERY]["liveLocation"]
    assert tracking.distance_km((final["latitude"], final["longitude"]), target) < 0.01
    assert doc["metadata"][DELIVERY]["status"] == "arriving_soon"


async def test_kitchen_pickup(app: Starlette, client: httpx.AsyncClient,
                              alice: dict[str, str]) -> None:
    placed = await kitchen_order(client, alice)
    assert placed["fulfillment"]["method"] == "kitchen_pickup"
    assert placed["metadata"][KITCHEN]["status"] == "confirmed"
    assert placed["metadata"][KITCHEN]["estimatedReadyAt"] > placed["createdAt"]
    docs = [await _step(app, placed["id"]) for _ in range(3)]
    assert [(doc["status"], doc["metadata"][KITCHEN]["status"]) for doc in docs] == [
        ("confirmed", "preparing"), ("confirmed", "ready_for_pickup"),
        ("completed", "ready_for_pickup")]
    assert "Chicago" in docs[1]["metadata"][DETAILED]["description"]
    assert [doc["metadata"][DETAILED]["progressPercentage"] for doc in docs] == [40, 80, 100]


async def test_store_pickup_and_hybrid_digital_parts(app: Starlette, client: httpx.AsyncClient,
                                                     alice: dict[str, str]) -> None:
    box = await order(client, alice, "store_ceramics", [("item_studio_seconds_box", 1)])
    assert box["fulfillment"]["method"] == "store_pickup" and "deliveryAddress" not in box
    ready = await _step(app, box["id"])
    assert ready["status"] == "confirmed"
    assert ready["metadata"][DETAILED]["title"] == "Ready for pickup"
    assert "Portland" in ready["metadata"][DETAILED]["description"]
    assert (await _step(app, box["id"]))["status"] == "completed"
    kit = await order(client, alice, "store_ceramics", [("item_pottery_starter_kit", 1)],
                      deliveryAddress=US_ADDRESS)
    packed = await _step(app, kit["id"])
    [access] = packed["metadata"]["dev.commerce.order.digital_access"]
    assert access["type"] == "download" and packed["status"] == "processing"


async def test_digital_completes_with_access(app: Starlette, client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    placed = await digital_order(client, alice)
    assert placed["fulfillment"]["method"] == "digital" and "deliveryAddress" not in placed
    assert "dev.commerce.order.digital_access" not in placed["metadata"]
    done = await _step(app, placed["id"])
    assert done["status"] == "completed"
    assert done["metadata"]["dev.commerce.order.digital_access"][0]["url"].startswith(
        f"http://test/orders/{placed['id']}/downloads/")


async def _release_in(app: Starlette, days: int) -> str:
    """Move the sample preorder's release date to `days` from now (the data is dated)."""
    release = clock.iso(clock.now() + timedelta(days=days))
    async with app.state.db.transaction() as tx:
        row = await tx.fetch_one("SELECT doc FROM items WHERE id = 'item_shincha_2027_preorder'")
        assert row is not None
        doc = json.loads(row["doc"])
        doc["metadata"][PREORDER]["releaseDate"] = release
        await tx.execute("UPDATE items SET doc = :doc WHERE id = 'item_shincha_2027_preorder'",
                         {"doc": json.dumps(doc)})
    return release


async def test_preorder_waits_for_its_release(app: Starlette, client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    release = await _release_in(app, 30)
    placed = await order(client, alice, "store_midori", [("item_shincha_2027_preorder", 1)],
                         deliveryAddress=JP_ADDRESS)
    terms = placed["metadata"][PREORDER]
    assert terms["releaseDate"] == release and terms["paymentTiming"] == "immediate"
    assert terms["_version"] == "1.0" and terms["cartItemIds"] == [placed["items"][0]["id"]]
    assert placed["metadata"][DETAILED]["title"] == "Preorder confirmed"
    for _ in range(3):
        await simulator.tick(app.state.db, 1_000_000.0, "http://test")
    job = await app.state.db.fetch_one(
        "SELECT step, due_at FROM fulfillment_jobs WHERE order_id = :id", {"id": placed["id"]})
    assert job["step"] == 0 and job["due_at"] == release
    assert (await get_order(client, alice, placed["id"]))["status"] == "confirmed"
    assert (await advance(app, placed["id"]))["status"] == "processing"


async def test_released_preorder_moves(app: Starlette, client: httpx.AsyncClient,
                                       alice: dict[str, str]) -> None:
    await _release_in(app, -1)
    placed = await order(client, alice, "store_midori", [("item_shincha_2027_preorder", 1)],
                         deliveryAddress=JP_ADDRESS)
    for _ in range(3):
        await simulator.tick(app.state.db, 1_000_000.0, "http://test")
    assert (await get_order(client, alice, placed["id"]))["status"] != "confirmed"


async def _slot(client: httpx.AsyncClient, item_id: str, slot_id: str) -> dict[str, Any]:
    item = (await client.get(f"/items/{item_id}")).json()
    slots = item["metadata"][SCHEDULING]["timeSlots"]
    found: dict[str, Any] = next(slot for slot in slots if slot["id"] == slot_id)
    return found


async def test_booked_slot_is_no_longer_available(app: Starlette, client: httpx.AsyncClient,
                                                  alice: dict[str, str],
                                                  bob: dict[str, str]) -> None:
    item, slot = "item_vinyasa_drop_in", "slot_vinyasa_20270111_0700"
    assert (await _slot(client, item, slot))["available"] is True
    bobs_cart = (await client.post("/carts", json={"storeId": "store_lumen_studio"},
                                   headers=bob)).json()
    added = await client.post(f"/carts/{bobs_cart['id']}/items",
                              json={"itemId": item, "quantity": 1, "timeSlotId": slot},
                              headers=bob)
    assert added.status_code == 200
    placed = await order(client, alice, "store_lumen_studio",
                         [(item, 1, {"timeSlotId": slot})])
    assert placed["fulfillment"]["method"] == "appointment"
    [booking] = placed["metadata"][SCHEDULING]["bookings"]
    assert booking["timeSlotId"] == slot and booking["duration"] == 60
    assert booking["startTime"] == "2027-01-11T07:00:00+00:00" and "Columbia" in \
        booking["location"]
    assert (await _slot(client, item, slot))["available"] is False
    catalog_id = (await client.get(f"/items/{item}")).json()["catalogId"]
    catalog = (await client.get(f"/catalogs/{catalog_id}")).json()
    listed = next(i for i in catalog["items"] if i["id"] == item)
    assert next(s for s in listed["metadata"][SCHEDULING]["timeSlots"]
                if s["id"] == slot)["available"] is False
    refused = await client.post(f"/carts/{bobs_cart['id']}/items",
                                json={"itemId": item, "quantity": 1, "timeSlotId": slot,
                                      "notes": "again"}, headers=bob)
    assert refused.status_code == 400 and refused.json()["code"] == "product_unavailable"
    stale = await client.post("/orders", json={"cartId": bobs_cart["id"]}, headers=bob)
    assert stale.status_code == 409 and stale.json()["code"] == "order_items_unavailable"
    assert stale.json()["details"][0]["reason"] == "time_slot_booked"
    again = await client.post("/orders", json={"orderType": "direct", "items": [
        {"itemId": item, "quantity": 1, "timeSlotId": slot}]}, headers=alice)
    assert again.status_code == 409
    cancelled = await client.post(f"/orders/{placed['id']}/cancel", headers=alice)
    assert cancelled.status_code == 200
    assert (await _slot(client, item, slot))["available"] is True
    assert (await client.post("/orders", json={"cartId": bobs_cart["id"]},
                              headers=bob)).status_code == 402


async def test_appointment_completes_after_the_session(app: Starlette,
                                                       client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    placed = await order(client, alice, "store_lumen_studio",
                         [("item_vinyasa_drop_in", 1,
                           {"timeSlotId": "slot_vinyasa_20270113_0700"})])
    assert placed["metadata"][DETAILED]["title"] == "Booked"
    for _ in range(2):
        await simulator.tick(app.state.db, 1_000_000.0, "http://test")
    job = await app.state.db.fetch_one(
        "SELECT due_at FROM fulfillment_jobs WHERE order_id = :id", {"id": placed["id"]})
    assert job["due_at"] == "2027-01-13T08:00:00.000Z"
    done = await advance(app, placed["id"])
    assert done["status"] == "completed" and "add_tip" in action_ids(
        await get_order(client, alice, placed["id"]))
