"""Shipping and tax as lines of the cart and the order: the shopper's choice among the store's
options (a default when there is none), the fee in the 402 amount, the order and its receipt;
a store's tax rate; nothing for pickup and digital items; every bad choice a clear 400."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.services.carts import charges
from tests.support.admin_support import merchant_headers
from tests.support.helpers import (
    CERAMICS,
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    assert_error,
    new_cart,
    pay_and_order,
)

pytestmark = pytest.mark.both_backends

EBOOK = "item_glazing_guide_ebook"  # digital
SECONDS_BOX = "item_studio_seconds_box"  # pickup only
STANDARD, EXPRESS = "ship_ceramics_standard", "ship_ceramics_express"


async def _mugs(client: httpx.AsyncClient, headers: dict[str, str], quantity: int = 2
                ) -> dict[str, Any]:
    cart = await new_cart(client, headers, CERAMICS)
    return await add_item(client, headers, cart["id"], LIMITED_MUG, quantity)


async def _choose(client: httpx.AsyncClient, headers: dict[str, str], cart_id: str,
                  method: str | None) -> httpx.Response:
    return await client.put(f"/carts/{cart_id}/shipping", headers=headers,
                            json={"shippingMethodId": method})


async def test_the_cart_offers_the_stores_options_and_defaults_to_the_first(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await _mugs(client, alice)
    assert [(option["id"], option["name"], option["amount"]["amount"])
            for option in cart["shippingOptions"]] == [
        (STANDARD, "Standard Shipping", "8.50"), (EXPRESS, "Express Shipping", "24.00")]
    assert cart["shippingMethod"] == {"id": STANDARD, "name": "Standard Shipping",
                                      "amount": {"amount": "8.50", "currency": "USD"}}
    assert cart["subtotal"]["amount"] == "36.00" and cart["shipping"]["amount"] == "8.50"
    assert cart["total"]["amount"] == "44.50" and "tax" not in cart
    assert any(action["id"] == "select_shipping" for action in cart["actions"])


async def test_choosing_express_is_charged_in_the_402_and_the_order(
        client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await _mugs(client, alice)
    chosen = await _choose(client, alice, cart["id"], EXPRESS)
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["shippingMethod"]["id"] == EXPRESS
    assert chosen.json()["total"]["amount"] == "60.00"
    again = (await client.get(f"/carts/{cart['id']}", headers=alice)).json()
    assert again["shippingMethod"]["id"] == EXPRESS and again["total"] == chosen.json()["total"]
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    asked = await client.post("/orders", headers=alice, json=body)
    assert asked.status_code == 402
    assert asked.json()["accepts"][0]["maxAmountRequired"] == "6000"
    placed = await pay_and_order(client, alice, body)
    assert placed.status_code == 201, placed.text
    order = placed.json()
    assert order["subtotal"]["amount"] == "36.00" and order["shipping"]["amount"] == "24.00"
    assert order["total"]["amount"] == "60.00"
    assert order["payment"]["amount"]["amount"] == "60.00"
    assert order["shippingMethod"]["id"] == EXPRESS
    assert order["fulfillment"]["shippingMethodId"] == EXPRESS
    assert order["fulfillment"]["carrier"] == "UPS"


async def test_back_to_the_default_and_bad_choices(client: httpx.AsyncClient,
                                                    alice: dict[str, str],
                                                    bob: dict[str, str]) -> None:
    cart = await _mugs(client, alice)
    assert (await _choose(client, alice, cart["id"], EXPRESS)).status_code == 200
    back = await _choose(client, alice, cart["id"], None)
    assert back.json()["shippingMethod"]["id"] == STANDARD
    wrong = await _choose(client, alice, cart["id"], "ship_ebooks_dhl_standard")
    assert_error(wrong, 400, "shipping_method_invalid")
    assert wrong.json()["details"][0]["field"] == "/shippingMethodId"
    assert_error(await client.put(f"/carts/{cart['id']}/shipping", headers=alice,
                                  json={"shippingMethodId": ""}), 400, "bad_request")
    assert_error(await client.put(f"/carts/{cart['id']}/shipping", headers=alice,
                                  json={"method": EXPRESS}), 400, "bad_request")
    assert_error(await _choose(client, bob, cart["id"], EXPRESS), 404, "cart_not_found")
    order = await client.post("/orders", headers=alice, json={
        "cartId": cart["id"], "deliveryAddress": US_ADDRESS, "shippingMethodId": "ship_nope"})
    assert_error(order, 400, "shipping_method_invalid")


async def test_the_order_request_may_choose(client: httpx.AsyncClient,
                                            alice: dict[str, str]) -> None:
    """shippingMethodId on POST /orders (direct items too) overrides the cart's choice."""
    response = await pay_and_order(client, alice, {
        "items": [{"itemId": LIMITED_MUG, "quantity": 1}], "deliveryAddress": US_ADDRESS,
        "shippingMethodId": EXPRESS})
    assert response.status_code == 201, response.text
    assert response.json()["total"]["amount"] == "42.00"
    assert response.json()["shippingMethod"]["id"] == EXPRESS


async def test_pickup_and_digital_items_carry_no_shipping(client: httpx.AsyncClient,
                                                          alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice, CERAMICS)
    await add_item(client, alice, cart["id"], EBOOK, 1)
    cart = await add_item(client, alice, cart["id"], SECONDS_BOX, 1)
    assert "shipping" not in cart and "shippingMethod" not in cart
    assert "shippingOptions" not in cart and cart["total"]["amount"] == "42.00"
    placed = await pay_and_order(client, alice, {"cartId": cart["id"]})
    assert placed.status_code == 201, placed.text
    assert placed.json()["total"]["amount"] == "42.00" and "shipping" not in placed.json()
    # A mixed cart pays shipping once, whatever the number of things shipped.
    mixed = await _mugs(client, alice, 3)
    mixed = await add_item(client, alice, mixed["id"], EBOOK, 1)
    assert mixed["shipping"]["amount"] == "8.50" and mixed["total"]["amount"] == "74.50"


async def test_a_store_tax_rate_is_a_line_of_the_totals(app: Starlette,
                                                       client: httpx.AsyncClient,
                                                       alice: dict[str, str]) -> None:
    merchant = await merchant_headers(app, "potter@example.com", CERAMICS)
    for bad, field in (({"rate": 150}, "/taxation/rate"), ({"rate": "x"}, "/taxation/rate"),
                       ({"rate": 5, "taxOnShipping": "yes"}, "/taxation/taxOnShipping")):
        refused = await client.patch(f"/admin/stores/{CERAMICS}", headers=merchant,
                                     json={"taxation": bad})
        assert_error(refused, 400, "bad_request")
        assert refused.json()["details"][0]["field"] == field
    saved = await client.patch(f"/admin/stores/{CERAMICS}", headers=merchant, json={
        "taxation": {"rate": 8.25, "taxOnShipping": True, "name": "Sales tax"}})
    assert saved.status_code == 200, saved.text
    cart = await _mugs(client, alice)
    # (36.00 + 8.50) × 8.25 % = 3.67125 → 3.67
    assert cart["tax"]["amount"] == "3.67" and cart["taxRate"] == "8.25"
    assert cart["total"]["amount"] == "48.17"
    placed = await pay_and_order(client, alice, {"cartId": cart["id"],
                                                 "deliveryAddress": US_ADDRESS})
    assert placed.status_code == 201, placed.text
    assert placed.json()["tax"]["amount"] == "3.67"
    assert placed.json()["total"]["amount"] == "48.17"
    await client.patch(f"/admin/stores/{CERAMICS}", headers=merchant, json={
        "taxation": {"rate": 10, "taxOnShipping": False}})
    untaxed_shipping = await _mugs(client, alice)
    assert untaxed_shipping["tax"]["amount"] == "3.60"
    assert untaxed_shipping["total"]["amount"] == "48.10"


async def test_a_merchant_sets_options_that_can_be_priced(app: Starlette,
                                                         client: httpx.AsyncClient,
                                                         alice: dict[str, str]) -> None:
    merchant = await merchant_headers(app, "potter@example.com", CERAMICS)
    weight = {"shippingOptions": [{"id": "w", "name": "By weight",
                                   "costCalculation": {"type": "weight_based"}}]}
    refused = await client.patch(f"/admin/stores/{CERAMICS}", headers=merchant,
                                 json={"shipping": weight})
    assert_error(refused, 400, "bad_request")
    assert refused.json()["details"][0]["field"] == \
        "/shipping/shippingOptions/0/costCalculation/type"
    tiered = {"deliveryAreas": ["US"], "additionalFees": {"handlingFee": 1.5},
              "shippingOptions": [{"id": "tiers", "name": "Tiered", "costCalculation": {
                  "type": "tiered", "tiers": [{"threshold": 0, "rate": 9},
                                              {"threshold": 50, "rate": 0}]}}]}
    saved = await client.patch(f"/admin/stores/{CERAMICS}", headers=merchant,
                               json={"shipping": tiered})
    assert saved.status_code == 200, saved.text
    small = await _mugs(client, alice, 2)
    assert small["shipping"]["amount"] == "10.50" and small["total"]["amount"] == "46.50"
    large = await _mugs(client, alice, 3)
    assert large["shipping"]["amount"] == "1.50" and large["total"]["amount"] == "55.50"


def test_charges_arithmetic() -> None:
    metadata = {charges.SHIPPING: {"shippingOptions": [
        {"id": "a", "name": "A", "costCalculation": {"type": "flat", "flatRate": 4.9}},
        {"id": "far", "name": "Far", "costCalculation": {"type": "distance_based"}}]},
        charges.TAXATION: {"rate": "20", "taxOnShipping": True}}
    priced = charges.compute(metadata, "EUR", Decimal("10"), Decimal("1"), True, None)
    assert (priced.shipping, priced.tax, priced.total) == (Decimal("4.9"), Decimal("2.78"),
                                                           Decimal("16.68"))
    assert [option["id"] for option in charges.options(metadata, Decimal(9), "EUR")] == ["a"]
    nothing_ships = charges.compute(metadata, "EUR", Decimal("10"), Decimal(0), False, "far")
    assert nothing_ships.method is None and nothing_ships.total == Decimal("12.00")
    yen = charges.compute({charges.TAXATION: {"rate": 10}}, "JPY", Decimal(1234), Decimal(0),
                          False, None)
    assert yen.tax == Decimal(123) and yen.render("JPY")["tax"]["amount"] == "123"
