"""Order actions: cancel, rate, tip, subscription pause/resume/cancel, downloads — each action
present exactly when its route accepts it, and bad input refused on every route."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.commerce.services.fulfillment.plans import Context
from tests.support.helpers import assert_error
from tests.support.lifecycle_support import (
    PORTLAND_NEARBY,
    action_ids,
    advance,
    complete,
    digital_order,
    edit_doc,
    get_order,
    kitchen_order,
    mug_order,
    order,
    stock,
)

pytestmark = pytest.mark.both_backends

REFUNDS = "dev.commerce.order.refunds"
SUBSCRIPTION = "dev.commerce.order.subscription"


async def _post(client: httpx.AsyncClient, headers: dict[str, str], path: str,
                body: Any = None, raw: bytes | None = None) -> httpx.Response:
    if raw is not None:
        return await client.post(path, content=raw, headers={
            **headers, "Content-Type": "application/json"})
    return await client.post(path, json=body, headers=headers)


async def _step(app: Starlette, order_id: str) -> dict[str, Any]:
    """One plan step, as the simulator would run it when due."""
    async with app.state.db.transaction() as tx:
        after = await simulator.run_step(tx, order_id, Context(clock.now(), 1.0, "http://test"),
                                         force=True)
    assert after is not None
    return after


# --- cancel ----------------------------------------------------------------------------------

async def test_cancel_restocks_refunds_and_removes_the_action(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    before = await stock(app, "item_limited_glaze_mug")
    placed = await mug_order(client, alice)
    assert "cancel" in action_ids(placed)
    cancel = next(a for a in placed["actions"] if a["id"] == "cancel")
    assert cancel["href"] == f"/orders/{placed['id']}/cancel" and cancel["method"] == "POST"
    assert await stock(app, "item_limited_glaze_mug") == before - 1
    response = await client.post(cancel["href"], json={"reason": "Changed my mind"},
                                 headers=alice)
    assert response.status_code == 200, response.text
    cancelled = response.json()
    assert cancelled["status"] == "cancelled" and cancelled["cancelledAt"]
    assert cancelled["cancellation"] == {"cancelledBy": "customer", "reason": "Changed my mind"}
    assert await stock(app, "item_limited_glaze_mug") == before
    [refund] = cancelled["metadata"][REFUNDS]
    assert refund["amount"] == cancelled["total"] and refund["status"] == "succeeded"
    assert refund["reason"] == "Cancellation" and refund["id"] and refund["processedAt"]
    assert refund["_version"] == "1.0"
    assert action_ids(cancelled) == set()
    again = await client.post(cancel["href"], headers=alice)
    assert_error(again, 403, "order_already_cancelled")
    assert await stock(app, "item_limited_glaze_mug") == before


async def test_cancel_without_a_body(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    response = await client.post(f"/orders/{placed['id']}/cancel", headers=alice)
    assert response.status_code == 200 and response.json()["status"] == "cancelled"


@pytest.mark.parametrize("status", ["processing", "in_transit", "completed"])
async def test_cancel_window_expired(app: Starlette, client: httpx.AsyncClient,
                                     alice: dict[str, str], status: str) -> None:
    placed = await mug_order(client, alice)
    moved = await advance(app, placed["id"], status)
    assert "cancel" not in action_ids(await get_order(client, alice, moved["id"]))
    response = await client.post(f"/orders/{placed['id']}/cancel", json={}, headers=alice)
    assert_error(response, 403, "cancellation_window_expired")


async def test_cancel_pending_order(app: Starlette, client: httpx.AsyncClient,
                                    alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    await edit_doc(app, placed["id"], lambda doc: doc.update(status="pending"))
    assert "cancel" in action_ids(await get_order(client, alice, placed["id"]))
    response = await client.post(f"/orders/{placed['id']}/cancel", headers=alice)
    assert response.status_code == 200 and response.json()["status"] == "cancelled"


async def test_kitchen_started_closes_the_window(app: Starlette, client: httpx.AsyncClient,
                                                 alice: dict[str, str]) -> None:
    placed = await kitchen_order(client, alice)
    assert "cancel" in action_ids(placed)
    preparing = await _step(app, placed["id"])
    assert preparing["status"] == "confirmed"
    shown = await get_order(client, alice, placed["id"])
    assert "cancel" not in action_ids(shown)
    response = await client.post(f"/orders/{placed['id']}/cancel", headers=alice)
    assert_error(response, 403, "cancellation_window_expired")


async def test_cancel_bad_input(client: httpx.AsyncClient, alice: dict[str, str],
                                bob: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    path = f"/orders/{placed['id']}/cancel"
    assert_error(await _post(client, alice, path, raw=b"{nope"), 400, "bad_request")
    unknown = assert_error(await _post(client, alice, path, {"why": "x"}), 400, "bad_request")
    assert unknown["details"][0]["field"] == "/why"
    assert_error(await _post(client, alice, path, {"reason": "x" * 501}), 400, "bad_request")
    assert_error(await _post(client, bob, path, {}), 404, "order_not_found")
    assert_error(await _post(client, alice, "/orders/ord_nope/cancel", {}), 404,
                 "order_not_found")
    assert_error(await client.post(path), 401, "unauthorized")
    assert (await get_order(client, alice, placed["id"]))["status"] == "confirmed"


# --- ratings ---------------------------------------------------------------------------------

async def test_rating_only_completed_and_once(app: Starlette, client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    path = f"/orders/{placed['id']}/ratings"
    assert "rate_order" not in action_ids(placed)
    assert_error(await _post(client, alice, path, {"overall": 5}), 409, "order_not_completed")
    await complete(app, placed["id"])
    shown = await get_order(client, alice, placed["id"])
    rate = next(a for a in shown["actions"] if a["id"] == "rate_order")
    assert rate["href"] == path
    body = {"overall": 4, "delivery": 5, "packaging": 3, "comment": "Lovely glaze",
            "wouldRecommend": True}
    response = await _post(client, alice, path, body)
    assert response.status_code == 201, response.text
    rated = response.json()
    rating = rated["metadata"]["dev.commerce.order.ratings"]
    assert {k: rating[k] for k in body} == body
    assert rating["_version"] == "1.0" and rating["submittedAt"]
    assert "rate_order" not in action_ids(rated)
    assert_error(await _post(client, alice, path, {"overall": 1}), 409, "order_already_rated")


async def test_rating_bad_input(app: Starlette, client: httpx.AsyncClient,
                                alice: dict[str, str], bob: dict[str, str]) -> None:
    placed = await digital_order(client, alice)
    await complete(app, placed["id"])
    path = f"/orders/{placed['id']}/ratings"
    for body in ({"overall": 6}, {"food": 0}, {"overall": "5"}, {"stars": 5}, {},
                 {"comment": "no stars"}, {"overall": 5, "comment": "x" * 1001}):
        assert_error(await _post(client, alice, path, body), 400, "bad_request")
    assert_error(await _post(client, alice, path, raw=b"[1,"), 400, "bad_request")
    assert_error(await _post(client, alice, path, raw=b""), 400, "bad_request")
    assert_error(await _post(client, bob, path, {"overall": 5}), 404, "order_not_found")
    upstream = await _post(client, alice, path, {"food": 5, "delivery": 4, "restaurant": 5,
                                                 "comment": "Great"})
    assert upstream.status_code == 201


# --- tips ------------------------------------------------------------------------------------

async def test_tip_a_courier_on_the_way(app: Starlette, client: httpx.AsyncClient,
                                        alice: dict[str, str], bob: dict[str, str]) -> None:
    placed = await mug_order(client, alice, PORTLAND_NEARBY)
    assert placed["fulfillment"]["method"] == "local_delivery"
    assert "add_tip" not in action_ids(placed)
    path = f"/orders/{placed['id']}/tips"
    assert_error(await _post(client, alice, path, {"amount": {"amount": "2.00",
                                                              "currency": "USD"}}),
                 409, "tip_not_allowed")
    await advance(app, placed["id"], "in_transit")
    shown = await get_order(client, alice, placed["id"])
    assert "add_tip" in action_ids(shown)
    for body in ({"amount": {"amount": "2.00", "currency": "EUR"}},
                 {"amount": {"amount": "2.001", "currency": "USD"}},
                 {"amount": {"amount": "0", "currency": "USD"}},
                 {"amount": {"amount": "500.00", "currency": "USD"}},
                 {"amount": {"amount": "2.00", "currency": "USD"}, "percentage": 10},
                 {}, {"percentage": 0}, {"percentage": 101}, {"tip": 5},
                 {"percentage": 10, "recipient": "chef"}):
        assert_error(await _post(client, alice, path, body), 400, "bad_request")
    assert_error(await _post(client, alice, path, raw=b"{"), 400, "bad_request")
    assert_error(await _post(client, bob, path, {"percentage": 10}), 404, "order_not_found")
    response = await _post(client, alice, path, {"amount": {"amount": "3.50", "currency": "USD"},
                                                 "message": "Thanks!"})
    assert response.status_code == 201, response.text
    tipped = response.json()
    assert tipped["metadata"]["dev.commerce.order.tipping"]["tip"] == {"amount": "3.50",
                                                                       "currency": "USD"}
    assert tipped["metadata"]["dev.commerce.order.tipping"]["recipient"] == "driver"
    assert "add_tip" not in action_ids(tipped)
    assert_error(await _post(client, alice, path, {"percentage": 10}), 409,
                 "order_already_tipped")


async def test_tip_a_restaurant_by_percentage(app: Starlette, client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    placed = await kitchen_order(client, alice)
    assert "add_tip" not in action_ids(placed)
    await complete(app, placed["id"])
    response = await _post(client, alice, f"/orders/{placed['id']}/tips",
                           {"percentage": 20, "recipient": "restaurant"})
    assert response.status_code == 201, response.text
    tip = response.json()["metadata"]["dev.commerce.order.tipping"]
    assert tip["tip"] == {"amount": "4.40", "currency": "USD"} and tip["percentage"] == 20


async def test_no_tips_for_parcels(app: Starlette, client: httpx.AsyncClient,
                                   alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    done = await complete(app, placed["id"])
    assert "add_tip" not in action_ids(await get_order(client, alice, done["id"]))
    response = await _post(client, alice, f"/orders/{placed['id']}/tips", {"percentage": 10})
    assert_error(response, 409, "tip_not_allowed")


# --- subscriptions ---------------------------------------------------------------------------

async def test_subscription_terms_and_actions(app: Starlette, client: httpx.AsyncClient,
                                              alice: dict[str, str],
                                              bob: dict[str, str]) -> None:
    placed = await digital_order(client, alice, "item_folio_unlimited_monthly")
    terms = placed["metadata"][SUBSCRIPTION]
    assert terms["_version"] == "1.0" and terms["status"] == "active"
    assert terms["frequency"] == "monthly" and terms["trialDays"] == 14
    assert terms["cancellationPolicy"] == {"canCancelAnytime": True}
    start, due = clock.parse(terms["startDate"]), clock.parse(terms["nextBillingDate"])
    assert (due - start).days == 14
    assert {"pause_subscription", "cancel_subscription"} <= action_ids(placed)
    assert "resume_subscription" not in action_ids(placed)
    base = f"/orders/{placed['id']}/subscription"
    assert_error(await _post(client, alice, f"{base}/resume"), 409, "invalid_transition")
    assert_error(await _post(client, bob, f"{base}/pause"), 404, "order_not_found")
    assert_error(await _post(client, alice, f"{base}/explode"), 404, "action_not_found")
    paused = await _post(client, alice, f"{base}/pause")
    assert paused.status_code == 200, paused.text
    assert paused.json()["metadata"][SUBSCRIPTION]["status"] == "paused"
    assert action_ids(paused.json()) >= {"resume_subscription", "cancel_subscription"}
    assert "pause_subscription" not in action_ids(paused.json())
    assert_error(await _post(client, alice, f"{base}/pause"), 409, "invalid_transition")
    resumed = await _post(client, alice, f"{base}/resume")
    assert resumed.json()["metadata"][SUBSCRIPTION]["status"] == "active"
    ended = await _post(client, alice, f"{base}/cancel")
    assert ended.status_code == 200
    terms = ended.json()["metadata"][SUBSCRIPTION]
    assert terms["status"] == "cancelled" and "nextBillingDate" not in terms
    assert not action_ids(ended.json()) & {"pause_subscription", "resume_subscription",
                                           "cancel_subscription"}
    assert_error(await _post(client, alice, f"{base}/cancel"), 409, "invalid_transition")


async def test_subscription_with_a_commitment(client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    placed = await order(client, alice, "store_lumen_studio",
                         [("item_unlimited_studio_monthly", 1)])
    terms = placed["metadata"][SUBSCRIPTION]
    assert terms["cancellationPolicy"]["minimumCommitment"] == 3
    assert "cancel_subscription" not in action_ids(placed)
    assert "pause_subscription" in action_ids(placed)
    response = await _post(client, alice, f"/orders/{placed['id']}/subscription/cancel")
    assert_error(response, 403, "minimum_commitment_not_met")


async def test_the_commitment_also_holds_when_the_order_is_cancelled(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    """Cancelling the order ends its subscription, so it asks the same rule: one answer."""
    placed = await order(client, alice, "store_lumen_studio",
                         [("item_unlimited_studio_monthly", 1)])
    assert "cancel" not in action_ids(placed)
    response = await _post(client, alice, f"/orders/{placed['id']}/cancel")
    assert_error(response, 403, "minimum_commitment_not_met")
    after = (await client.get(f"/orders/{placed['id']}", headers=alice)).json()
    assert after["status"] == placed["status"]
    assert after["metadata"][SUBSCRIPTION]["status"] == "active"
    assert "dev.commerce.order.refunds" not in after["metadata"]


async def test_cancelling_the_order_ends_the_subscription(client: httpx.AsyncClient,
                                                          alice: dict[str, str]) -> None:
    placed = await digital_order(client, alice, "item_folio_unlimited_monthly")
    cancelled = (await _post(client, alice, f"/orders/{placed['id']}/cancel")).json()
    assert cancelled["metadata"][SUBSCRIPTION]["status"] == "cancelled"
    assert not {a for a in action_ids(cancelled) if a.endswith("_subscription")}


async def test_orders_without_subscription(client: httpx.AsyncClient,
                                           alice: dict[str, str]) -> None:
    placed = await mug_order(client, alice)
    assert not {a for a in action_ids(placed) if a.endswith("_subscription")}
    response = await _post(client, alice, f"/orders/{placed['id']}/subscription/pause")
    assert_error(response, 404, "subscription_not_found")


# --- downloads -------------------------------------------------------------------------------

async def test_downloads_for_the_owner_only(app: Starlette, client: httpx.AsyncClient,
                                            alice: dict[str, str], bob: dict[str, str]) -> None:
    placed = await digital_order(client, alice)
    line = placed["items"][0]["id"]
    path = f"/orders/{placed['id']}/downloads/{line}"
    assert_error(await client.get(path, headers=alice), 404, "download_not_found")
    done = await complete(app, placed["id"])
    [entry] = done["metadata"]["dev.commerce.order.digital_access"]
    assert entry["type"] == "download" and entry["url"] == f"http://test{path}"
    assert entry["name"] == placed["items"][0]["name"] and entry["_version"] == "1.0"
    response = await client.get(path, headers=alice)
    assert response.status_code == 200
    assert placed["id"] in response.text and "alice" in response.text.lower()
    assert response.headers["content-disposition"].startswith("attachment")
    assert_error(await client.get(path, headers=bob), 404, "order_not_found")
    assert_error(await client.get(path), 401, "unauthorized")
    assert_error(await client.get(f"/orders/{placed['id']}/downloads/line_x", headers=alice),
                 404, "download_not_found")


async def test_licence_keys(app: Starlette, client: httpx.AsyncClient,
                            alice: dict[str, str]) -> None:
    placed = await digital_order(client, alice, "item_pixelforge_license")
    done = await complete(app, placed["id"])
    [entry] = done["metadata"]["dev.commerce.order.digital_access"]
    assert entry["type"] == "license" and len(entry["code"]) == 29 and "url" not in entry
    response = await client.get(f"/orders/{placed['id']}/downloads/{entry['assetId']}",
                                headers=alice)
    assert_error(response, 404, "download_not_found")
