"""What a merchant may do with an order is decided once, in orders/rules.merchant_actions:
the admin API carries it on every order (`merchantActions`, in its OpenAPI document), and
each action it lists is one the admin route accepts, for every kind of order."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.orders import rules, view
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.lifecycle_support import digital_order, kitchen_order, mug_order

pytestmark = pytest.mark.both_backends

SHIPPED_LINE = {"id": "li_1", "itemId": "item_mug", "quantity": 1, "fulfillmentType": "physical",
                "price": {"amount": "18.00", "currency": "USD"}}
DIGITAL_LINE = {**SHIPPED_LINE, "fulfillmentType": "digital"}


def doc(status: str, *, line: dict[str, Any] = SHIPPED_LINE, method: str = "shipping",
        **extra: Any) -> dict[str, Any]:
    return {"id": "ord_1", "status": status, "items": [line],
            "fulfillment": {"method": method}, "metadata": {}, **extra}


@pytest.mark.parametrize(("order", "expected", "to"), [
    (doc("pending"), ["cancel"], None),
    (doc("confirmed"), ["ship", "advance", "cancel"], "processing"),
    (doc("processing"), ["ship", "advance"], "in_transit"),
    (doc("in_transit"), ["advance"], "completed"),
    (doc("completed"), [], None),
    (doc("cancelled"), [], None),
    (doc("confirmed", line=DIGITAL_LINE, method="digital"), ["advance", "cancel"], "completed"),
    (doc("confirmed", method="store_pickup",
         metadata={"dev.commerce.order.fulfillment_intent": {"fulfillmentType": "pickup"}}),
     ["ready_for_pickup", "advance", "cancel"], "completed"),
    # The kitchen started: no cancelling any more (rules.cancel_problem).
    (doc("confirmed", line=DIGITAL_LINE, method="kitchen_pickup",
         metadata={"dev.commerce.order.kitchen_status": {"status": "preparing"}}),
     ["ready_for_pickup", "advance"], "completed"),
])
def test_the_rules_name_the_merchants_actions(order: dict[str, Any], expected: list[str],
                                              to: str | None) -> None:
    assert rules.merchant_actions(order) == expected
    assert rules.merchant_next_status(order) == to
    rendered = view.merchant_actions(order)
    assert [action.id for action in rendered] == expected
    for action in rendered:
        assert action.href.startswith("/admin/orders/ord_1/")
        if action.id == "advance":
            assert action.to == to


async def test_every_listed_action_is_accepted_by_its_route(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    owner = await merchant_headers(app, "owner@hearth.example", CERAMICS)
    placed = await mug_order(client, alice)
    listed = (await client.get("/admin/orders", headers=owner)).json()["orders"]
    order = next(o for o in listed if o["id"] == placed["id"])
    assert [a["id"] for a in order["merchantActions"]] == ["ship", "advance", "cancel"]
    ship = order["merchantActions"][0]
    assert ship["fields"] == ["carrier", "trackingNumber", "trackingUrl"]
    shipped = await client.post(ship["href"], headers=owner,
                                json={"carrier": "UPS", "trackingNumber": "1Z999"})
    assert shipped.status_code == 200, shipped.text
    assert shipped.json()["status"] == "in_transit"
    # Each answer carries the next actions: only "Mark delivered" is left.
    [deliver] = shipped.json()["merchantActions"]
    assert (deliver["id"], deliver["to"], deliver["title"]) == (
        "advance", "completed", "Mark delivered")
    done = await client.post(deliver["href"], headers=owner)
    assert done.status_code == 200 and done.json()["status"] == "completed"
    assert done.json()["merchantActions"] == []
    # An action the rules do not list is refused by its route.
    refused = await client.post(ship["href"], headers=owner, json={"trackingNumber": "1Z9"})
    assert refused.status_code == 409


async def test_digital_and_kitchen_orders_move_on_as_listed(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    ebooks = await merchant_headers(app, "owner@ebooks.example", "store_ebooks")
    placed = await digital_order(client, alice)
    one = (await client.get(f"/admin/orders/{placed['id']}", headers=ebooks)).json()
    actions = {a["id"]: a for a in one["merchantActions"]}
    assert "ship" not in actions and actions["advance"]["to"] == "completed"
    moved = await client.post(actions["advance"]["href"], headers=ebooks)
    assert moved.json()["status"] == "completed"

    kitchen = await merchant_headers(app, "owner@trattoria.example", "store_trattoria")
    placed = await kitchen_order(client, alice)
    one = (await client.get(f"/admin/orders/{placed['id']}", headers=kitchen)).json()
    actions = {a["id"]: a for a in one["merchantActions"]}
    assert list(actions) == ["ready_for_pickup", "advance", "cancel"]
    ready = await client.post(actions["ready_for_pickup"]["href"], headers=kitchen)
    assert ready.status_code == 200, ready.text


async def test_the_openapi_document_types_merchant_actions(client: httpx.AsyncClient) -> None:
    document = (await client.get("/openapi.json")).json()
    schemas = document["components"]["schemas"]
    assert "merchantActions" in schemas["MerchantOrder"]["properties"]
    action = schemas["MerchantAction"]
    assert set(action["properties"]["id"]["enum"]) == {"ship", "ready_for_pickup", "advance",
                                                      "cancel"}
    listed = document["paths"]["/admin/orders"]["get"]["responses"]["200"]
    assert "AdminOrderList" in str(listed)
