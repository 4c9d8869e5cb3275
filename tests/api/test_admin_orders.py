"""Admin orders and returns: the merchant lists its stores' orders, ships with its carrier and
tracking number (seen in the order's update stream), marks pickups ready, cancels with a
refund, and takes returns through approve, receive and refund."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.lifecycle_support import mug_order, order, stock
from tests.support.sse import parse

pytestmark = pytest.mark.both_backends

SHIPMENT = "dev.commerce.order.shipment_tracking"


@pytest.fixture
async def owner(app: Starlette) -> dict[str, str]:
    return await merchant_headers(app, "owner@hearth.example", CERAMICS)


async def admin(client: httpx.AsyncClient, owner: dict[str, str], path: str,
                body: dict[str, Any] | None = None, **headers: str) -> httpx.Response:
    return await client.post(f"/admin{path}", headers={**owner, **headers}, json=body)


async def test_orders_are_listed_with_filters(client: httpx.AsyncClient,
                                              owner: dict[str, str],
                                              alice: dict[str, str]) -> None:
    first = await mug_order(client, alice)
    second = await mug_order(client, alice)
    await order(client, alice, "store_ebooks", [("item_ebook_python_patterns", 1)])
    listed = (await client.get("/admin/orders", headers=owner)).json()
    assert [o["id"] for o in listed["orders"]] == [second["id"], first["id"]]
    assert listed["pagination"]["totalCount"] == 2
    await admin(client, owner, f"/orders/{first['id']}/cancel", {"reason": "Out of glaze"})
    cancelled = (await client.get("/admin/orders", params={"status": "cancelled"},
                                  headers=owner)).json()["orders"]
    assert [o["id"] for o in cancelled] == [first["id"]]
    page = (await client.get("/admin/orders", params={"limit": 1}, headers=owner)).json()
    assert len(page["orders"]) == 1 and page["pagination"]["nextCursor"]
    bad = await client.get("/admin/orders", params={"status": "lost"}, headers=owner)
    assert bad.status_code == 400 and bad.json()["details"][0]["field"] == "status"
    one = await client.get(f"/admin/orders/{second['id']}", headers=owner)
    assert one.status_code == 200 and one.json()["id"] == second["id"]


async def test_shipping_with_a_tracking_number_shows_in_the_update_stream(
        client: httpx.AsyncClient, owner: dict[str, str], alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    shipped = await admin(client, owner, f"/orders/{placed['id']}/advance",
                          {"carrier": "UPS", "trackingNumber": "1Z999AA10123456784",
                           "trackingUrl": "https://www.ups.com/track?tracknum=1Z999AA10123456784"},
                          **{"Idempotency-Key": "ship-1"})
    assert shipped.status_code == 200, shipped.text
    doc = shipped.json()
    assert doc["status"] == "in_transit"
    assert doc["metadata"][SHIPMENT][0]["carrier"] == "UPS"
    assert doc["metadata"][SHIPMENT][0]["trackingNumber"] == "1Z999AA10123456784"
    replay = await admin(client, owner, f"/orders/{placed['id']}/advance",
                         {"carrier": "UPS", "trackingNumber": "1Z999AA10123456784",
                          "trackingUrl": "https://www.ups.com/track?tracknum=1Z999AA10123456784"},
                         **{"Idempotency-Key": "ship-1"})
    assert replay.headers["idempotent-replayed"] == "true" and replay.json() == doc
    seen = await client.get(f"/orders/{placed['id']}", headers=alice)
    assert seen.json()["metadata"][SHIPMENT][0]["trackingNumber"] == "1Z999AA10123456784"
    done = await admin(client, owner, f"/orders/{placed['id']}/advance")
    assert done.json()["status"] == "completed"
    assert done.json()["metadata"][SHIPMENT][0]["status"] == "delivered"
    stream = await client.get(f"/orders/{placed['id']}/updates", headers=alice)
    events, _ = parse(stream.text)
    patches = [event.data for event in events if event.event == "order.patch"]
    assert any("1Z999AA10123456784" in data for data in patches)
    bad = await admin(client, owner, f"/orders/{placed['id']}/advance",
                      {"trackingNumber": "bad number!"})
    assert bad.status_code == 400 and bad.json()["details"][0]["field"] == "/trackingNumber"


async def test_a_digital_order_cannot_take_a_tracking_number(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    placed = await order(client, alice, CERAMICS, [("item_glazing_guide_ebook", 2)])
    refused = await admin(client, owner, f"/orders/{placed['id']}/advance",
                          {"trackingNumber": "1Z1"})
    assert refused.status_code == 400
    assert refused.json()["details"][0]["field"] == "/trackingNumber"


async def test_a_pickup_order_is_marked_ready(client: httpx.AsyncClient, owner: dict[str, str],
                                              alice: dict[str, str]) -> None:
    placed = await order(client, alice, CERAMICS, [("item_studio_seconds_box", 1)])
    assert placed["fulfillment"]["method"] == "store_pickup"
    ready = await admin(client, owner, f"/orders/{placed['id']}/ready-for-pickup")
    assert ready.status_code == 200, ready.text
    status = ready.json()["metadata"]["dev.commerce.order.detailed_status"]
    assert status["title"] == "Ready for pickup"
    seen = await client.get(f"/orders/{placed['id']}", headers=alice)
    assert seen.json()["metadata"]["dev.commerce.order.detailed_status"]["title"] == \
        "Ready for pickup"
    shipped = await mug_order(client, alice)
    refused = await admin(client, owner, f"/orders/{shipped['id']}/ready-for-pickup")
    assert refused.status_code == 409 and refused.json()["code"] == "invalid_transition"


async def test_cancel_refunds_and_restocks(app: Starlette, client: httpx.AsyncClient,
                                           owner: dict[str, str],
                                           alice: dict[str, str]) -> None:
    before = await stock(app, "item_limited_glaze_mug")
    placed = await mug_order(client, alice)
    assert await stock(app, "item_limited_glaze_mug") == before - 1
    cancelled = await admin(client, owner, f"/orders/{placed['id']}/cancel",
                            {"reason": "Broken in the kiln"})
    assert cancelled.status_code == 200, cancelled.text
    doc = cancelled.json()
    assert doc["status"] == "cancelled"
    assert doc["cancellation"] == {"cancelledBy": "merchant", "reason": "Broken in the kiln"}
    refunds = doc["metadata"]["dev.commerce.order.refunds"]
    assert refunds[0]["amount"] == placed["total"]
    assert await stock(app, "item_limited_glaze_mug") == before
    again = await admin(client, owner, f"/orders/{placed['id']}/cancel")
    assert again.status_code == 403 and again.json()["code"] == "order_already_cancelled"


async def test_a_return_is_approved_received_and_refunded(
        app: Starlette, client: httpx.AsyncClient, owner: dict[str, str],
        alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    await admin(client, owner, f"/orders/{placed['id']}/advance", {"to": "completed"})
    started = await client.post("/returns", headers=alice, json={
        "orderId": placed["id"], "items": [{"cartItemId": placed["items"][0]["id"],
                                            "quantity": 1}]})
    assert started.status_code == 201, started.text
    return_id = started.json()["id"]
    listed = (await client.get("/admin/returns", params={"status": "requested"},
                               headers=owner)).json()["returns"]
    assert [r["id"] for r in listed] == [return_id]
    on_hand = await stock(app, "item_limited_glaze_mug")
    early = await admin(client, owner, f"/returns/{return_id}/refund")
    assert early.status_code == 409 and early.json()["code"] == "invalid_transition"
    approved = await admin(client, owner, f"/returns/{return_id}/approve")
    assert approved.json()["status"] == "approved"
    received = await admin(client, owner, f"/returns/{return_id}/receive")
    assert received.json()["status"] == "received"
    assert await stock(app, "item_limited_glaze_mug") == on_hand + 1
    refunded = await admin(client, owner, f"/returns/{return_id}/refund")
    assert refunded.status_code == 200, refunded.text
    assert refunded.json()["status"] == "completed"
    # The goods come back, not the shipping (docs/decisions.md, shipping and tax).
    assert refunded.json()["refund"]["amount"] == placed["subtotal"]
    assert placed["total"]["amount"] == "26.50"
    seen = (await client.get(f"/returns/{return_id}", headers=alice)).json()
    assert seen["status"] == "completed"


async def test_a_return_is_rejected(app: Starlette, client: httpx.AsyncClient,
                                    owner: dict[str, str], alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    await admin(client, owner, f"/orders/{placed['id']}/advance", {"to": "completed"})
    started = await client.post("/returns", headers=alice, json={
        "orderId": placed["id"], "items": [{"cartItemId": placed["items"][0]["id"],
                                            "quantity": 1}]})
    rejected = await admin(client, owner, f"/returns/{started.json()['id']}/reject")
    assert rejected.json()["status"] == "rejected"
