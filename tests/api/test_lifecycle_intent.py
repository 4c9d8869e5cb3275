"""POST /orders extensions: fulfillment_intent (split orders, one payment) and customer_fields."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.helpers import US_ADDRESS, add_item, assert_error, new_cart, pay_and_order
from tests.support.lifecycle_support import action_ids, advance, get_order, order, place

pytestmark = pytest.mark.both_backends

INTENT = "dev.commerce.order.fulfillment_intent"
FIELDS = "dev.commerce.order.customer_fields"
SHIP = {"deliveryAddress": US_ADDRESS, "shippingMethodId": "ship_ceramics_standard"}


async def _mixed_cart(client: httpx.AsyncClient, headers: dict[str, str],
                      promotion: str | None = None) -> dict[str, Any]:
    cart = await new_cart(client, headers, "store_ceramics")
    await add_item(client, headers, cart["id"], "item_limited_glaze_mug", 2)
    await add_item(client, headers, cart["id"], "item_glazing_guide_ebook", 1)
    cart = await add_item(client, headers, cart["id"], "item_studio_seconds_box", 1)
    if promotion:
        response = await client.post(f"/carts/{cart['id']}/promotions",
                                     json={"type": "promo_code", "value": promotion},
                                     headers=headers)
        assert response.status_code == 200, response.text
        cart = response.json()
    return cart


def _lines(cart: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {line["itemId"]: line for line in cart["items"]}


def _plan(cart: dict[str, Any]) -> list[dict[str, Any]]:
    lines = _lines(cart)
    return [
        {"fulfillmentType": "physical", "deliveryDetails": SHIP,
         "itemRefs": [{"cartItemId": lines["item_limited_glaze_mug"]["cartItemId"],
                       "quantity": 2},
                      {"cartItemId": lines["item_glazing_guide_ebook"]["cartItemId"],
                       "quantity": 1}]},
        {"fulfillmentType": "pickup", "pickupDetails": {"locationId": "store_ceramics"},
         "itemRefs": [{"cartItemId": lines["item_studio_seconds_box"]["cartItemId"],
                       "quantity": 1}]},
    ]


async def test_split_into_orders_paid_once(app: Starlette, client: httpx.AsyncClient,
                                           alice: dict[str, str]) -> None:
    cart = await _mixed_cart(client, alice, "WELCOME10")
    body = {"cartId": cart["id"], "metadata": {f"{INTENT}@1.0": _plan(cart)}}
    first = await client.post("/orders", json=body, headers=alice)
    assert first.status_code == 402
    # 78.00 of goods less 7.80 (WELCOME10), plus Standard Shipping (8.50) for the shipped
    # group only: the picked-up box carries none.
    assert first.json()["accepts"][0]["maxAmountRequired"] == "7870"
    response = await pay_and_order(client, alice, body)
    assert response.status_code == 201, response.text
    shipped, picked = response.json()
    assert "location" not in response.headers and "x-payment-response" in response.headers
    assert shipped["id"] != picked["id"]
    assert {line["itemId"] for line in shipped["items"]} == {"item_limited_glaze_mug",
                                                            "item_glazing_guide_ebook"}
    assert [line["itemId"] for line in picked["items"]] == ["item_studio_seconds_box"]
    totals = [Decimal(o["total"]["amount"]) for o in (shipped, picked)]
    discounts = [Decimal(o["discount"]["amount"]) for o in (shipped, picked)]
    assert sum(totals) == Decimal(cart["total"]["amount"]) == Decimal("78.70")
    assert shipped["shipping"]["amount"] == "8.50" and "shipping" not in picked
    assert shipped["shippingMethod"]["id"] == "ship_ceramics_standard"
    assert sum(discounts) == Decimal(cart["discount"]["amount"])
    assert shipped["subtotal"]["amount"] == "48.00" and picked["subtotal"]["amount"] == "30.00"
    reference = shipped["payment"]["reference"]
    for part, total in zip((shipped, picked), totals, strict=True):
        assert part["payment"]["reference"] == reference
        assert part["payment"]["amount"]["amount"] == str(total)
        assert part["payment"]["paymentTotal"] == {"amount": "78.70", "currency": "USD"}
        intent = part["metadata"][INTENT]
        assert intent["orderIds"] == [shipped["id"], picked["id"]]
        assert intent["groupId"] == shipped["metadata"][INTENT]["groupId"]
    assert shipped["deliveryAddress"] == US_ADDRESS and "deliveryAddress" not in picked
    assert shipped["fulfillment"]["method"] == "shipping"
    assert shipped["fulfillment"]["shippingMethodId"] == "ship_ceramics_standard"
    assert picked["fulfillment"]["method"] == "store_pickup"
    assert picked["metadata"][INTENT]["pickupDetails"] == {"locationId": "store_ceramics"}
    for part in (shipped, picked):
        assert (await get_order(client, alice, part["id"]))["total"] == part["total"]
    assert (await advance(app, picked["id"], "completed"))["status"] == "completed"
    assert (await get_order(client, alice, shipped["id"]))["status"] == "confirmed"
    cancelled = (await client.post(f"/orders/{shipped['id']}/cancel", headers=alice)).json()
    refund = cancelled["metadata"]["dev.commerce.order.refunds"][0]["amount"]
    assert refund == shipped["total"]
    again = await client.post("/orders", json=body, headers=alice)
    assert_error(again, 409, "cart_already_submitted")


async def test_one_group_is_one_order(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice, "store_ceramics")
    cart = await add_item(client, alice, cart["id"], "item_limited_glaze_mug", 1)
    plan = [{"fulfillmentType": "pickup", "itemRefs": [
        {"cartItemId": cart["items"][0]["cartItemId"], "quantity": 1}]}]
    response = await pay_and_order(client, alice, {"cartId": cart["id"],
                                                   "metadata": {INTENT: plan}})
    assert response.status_code == 201, response.text
    placed = response.json()
    assert isinstance(placed, dict) and response.headers["location"] == f"/orders/{placed['id']}"
    assert placed["fulfillment"]["method"] == "store_pickup"
    assert "cancel" in action_ids(placed)


def _broken_plans(cart: dict[str, Any]) -> list[tuple[Any, str, str]]:
    """(plan, code, field) for every way a plan can be wrong."""
    good = _plan(cart)
    lines = _lines(cart)
    mug = lines["item_limited_glaze_mug"]["cartItemId"]
    box = lines["item_studio_seconds_box"]["cartItemId"]
    broken: list[tuple[Any, str, str]] = []

    def variant(change: Any, code: str, field: str) -> None:
        plan = copy.deepcopy(good)
        change(plan)
        broken.append((plan, code, field))

    variant(lambda p: p.pop(), "fulfillment_intent_incomplete", "")
    variant(lambda p: p[1]["itemRefs"].append({"cartItemId": mug, "quantity": 2}),
            "fulfillment_intent_duplicate_item", "/1/itemRefs/1/cartItemId")
    variant(lambda p: p[0].update(itemRefs=[{"cartItemId": mug, "quantity": 1},
                                            p[0]["itemRefs"][1]]),
            "fulfillment_intent_incomplete", "/0/itemRefs/0/quantity")
    variant(lambda p: p[1].update(itemRefs=[{"cartItemId": "line_x", "quantity": 1}]),
            "fulfillment_intent_incomplete", "/1/itemRefs/0/cartItemId")
    variant(lambda p: p[0].pop("deliveryDetails"), "fulfillment_intent_incomplete",
            "/0/deliveryDetails")
    variant(lambda p: p[0].update(deliveryDetails={**SHIP, "shippingMethodId": "ship_x"}),
            "fulfillment_method_invalid", "/0/deliveryDetails/shippingMethodId")
    variant(lambda p: p[0]["itemRefs"].append({"cartItemId": box, "quantity": 1})
            or p.pop(), "fulfillment_method_invalid", "/0/itemRefs/2/cartItemId")
    variant(lambda p: p[1].update(pickupDetails={"locationId": "store_ebooks"}),
            "fulfillment_method_invalid", "/1/pickupDetails/locationId")
    variant(lambda p: p[1].update(fulfillmentType="drone"), "fulfillment_intent_incomplete",
            "/1/fulfillmentType")
    variant(lambda p: p[1].update(color="red"), "fulfillment_intent_incomplete", "/1/color")
    variant(lambda p: p[1].update(itemRefs=[]), "fulfillment_intent_incomplete", "/1/itemRefs")
    broken.append(({"not": "a list"}, "fulfillment_intent_incomplete", ""))
    broken.append(([], "fulfillment_intent_incomplete", ""))
    return broken


async def test_broken_plans_are_refused_before_payment(client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    cart = await _mixed_cart(client, alice)
    for plan, code, field in _broken_plans(cart):
        response = await client.post("/orders", json={"cartId": cart["id"],
                                                      "metadata": {INTENT: plan}},
                                     headers=alice)
        body = assert_error(response, 400, code)
        assert body["details"][0]["field"] == f"/metadata/{INTENT}{field}", (plan, body)
    far = _plan(cart)
    far[0]["deliveryDetails"] = {**SHIP, "deliveryAddress": {"address": "Paris",
                                                             "countryCode": "FR"}}
    response = await client.post("/orders", json={"cartId": cart["id"],
                                                  "metadata": {INTENT: far}}, headers=alice)
    assert_error(response, 403, "geographic_restriction")


async def test_customer_fields_are_stored(client: httpx.AsyncClient,
                                          alice: dict[str, str]) -> None:
    fields = {"taxId": "de123456789", "companyName": "Kiln & Co GmbH",
              "purchaseOrderNumber": "PO-7",
              "customsDeclaration": {"description": "Ceramic mugs", "value": 36.0,
                                     "countryOfOrigin": "US"}}
    placed = await order(client, alice, "store_ceramics", [("item_limited_glaze_mug", 2)],
                         deliveryAddress=US_ADDRESS, metadata={f"{FIELDS}@1.0": fields})
    stored = placed["metadata"][FIELDS]
    assert stored == {"_version": "1.0", **fields, "taxId": "DE123456789"}
    assert f"{FIELDS}@1.0" not in placed["metadata"]


@pytest.mark.parametrize("fields,field", [
    ({"taxId": "!"}, "/taxId"),
    ({"taxId": "x" * 40}, "/taxId"),
    ({"companyName": ""}, "/companyName"),
    ({"customsDeclaration": {"description": "Mugs", "value": -1,
                             "countryOfOrigin": "US"}}, "/customsDeclaration/value"),
    ({"customsDeclaration": {"description": "Mugs", "value": 3,
                             "countryOfOrigin": "usa"}}, "/customsDeclaration/countryOfOrigin"),
    ({"customsDeclaration": {"description": "Mugs"}}, "/customsDeclaration"),
    ({"vatNumber": "DE1"}, "/vatNumber"),
    ({}, ""),
    ({"_version": "2.0", "taxId": "DE123"}, "/_version"),
    ("DE123", ""),
])
async def test_customer_fields_are_validated(client: httpx.AsyncClient, alice: dict[str, str],
                                             fields: Any, field: str) -> None:
    response = await place(client, alice, "store_ceramics", [("item_limited_glaze_mug", 1)],
                           deliveryAddress=US_ADDRESS, metadata={FIELDS: fields})
    body = assert_error(response, 400, "bad_request")
    assert body["details"][0]["field"] == f"/metadata/{FIELDS}{field}"


async def test_server_owned_metadata_is_refused(client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    for key in ("dev.commerce.order.refunds", "dev.commerce.order.detailed_status@1.0",
                "dev.commerce.order.subscription"):
        response = await place(client, alice, "store_ceramics",
                               [("item_limited_glaze_mug", 1)], deliveryAddress=US_ADDRESS,
                               metadata={key: {"_version": "1.0"}})
        body = assert_error(response, 400, "bad_request")
        assert body["details"][0]["field"] == f"/metadata/{key}"
    kept = await order(client, alice, "store_ceramics", [("item_limited_glaze_mug", 1)],
                       deliveryAddress=US_ADDRESS, metadata={"x-gift-note": "Happy birthday"})
    assert kept["metadata"]["x-gift-note"] == "Happy birthday"
