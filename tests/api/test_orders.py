"""POST /orders: every rule, the 402 flow with both schemes, idempotency, listing."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest

from tests.support.helpers import (
    CERAMICS,
    DECLINED_CARD,
    LIMITED_MUG,
    US_ADDRESS,
    add_item,
    assert_error,
    buy,
    confirm_fiat,
    fiat_entry,
    new_cart,
    pay_and_order,
    payment_header,
)

pytestmark = pytest.mark.both_backends


async def _stock(app: Any, item_id: str, variant_id: str = "") -> int:
    row = await app.state.db.fetch_one(
        "SELECT quantity FROM stock WHERE item_id = :i AND variant_id = :v",
        {"i": item_id, "v": variant_id})
    return int(row["quantity"])


async def _count(app: Any, table: str) -> int:
    row = await app.state.db.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")  # noqa: S608
    return int(row["n"])


async def _mug_cart(client: httpx.AsyncClient, headers: dict[str, str], quantity: int = 1
                    ) -> dict[str, Any]:
    cart = await new_cart(client, headers)
    return await add_item(client, headers, cart["id"], LIMITED_MUG, quantity)


async def test_402_lists_both_schemes_in_minor_units(client: httpx.AsyncClient,
                                                     alice: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice, 2)
    response = await client.post("/orders", json={"cartId": cart["id"],
                                                  "deliveryAddress": US_ADDRESS}, headers=alice)
    assert response.status_code == 402
    body = response.json()
    assert body["x402Version"] == 1
    schemes = {entry["scheme"]: entry for entry in body["accepts"]}
    assert set(schemes) == {"fiat_intent", "exact"}
    fiat = schemes["fiat_intent"]
    # Two mugs (36.00) and Standard Shipping (8.50).
    assert fiat["maxAmountRequired"] == "4450" and fiat["asset"] == "USD"
    for field in ("scheme", "network", "maxAmountRequired", "asset", "payTo", "resource",
                  "description", "maxTimeoutSeconds", "extra"):
        assert field in fiat and field in schemes["exact"]
    assert fiat["extra"]["clientSecret"] and fiat["extra"]["confirmUrl"]
    assert schemes["exact"]["maxAmountRequired"] == "44500000"
    assert await _count(client._transport.app, "orders") == 0  # type: ignore[attr-defined]


async def test_fiat_payment_creates_the_order(client: httpx.AsyncClient, app: Any,
                                              alice: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice, 3)
    response = await pay_and_order(client, alice, {"cartId": cart["id"],
                                                   "deliveryAddress": US_ADDRESS})
    assert response.status_code == 201, response.text
    order = response.json()
    assert response.headers["location"] == f"/orders/{order['id']}"
    receipt = json.loads(base64.b64decode(response.headers["x-payment-response"]))
    assert receipt["success"] is True and receipt["network"] == "sandbox"
    assert order["status"] == "confirmed" and order["total"]["amount"] == "62.50"
    assert order["shipping"] == {"amount": "8.50", "currency": "USD"}
    assert order["orderType"] == "physical" and order["deliveryAddress"] == US_ADDRESS
    assert order["items"][0]["quantity"] == 3 and order["createdAt"] and order["updatedAt"]
    assert await _stock(app, LIMITED_MUG) == 7
    fetched = await client.get(f"/orders/{order['id']}", headers=alice)
    assert fetched.json() == order
    assert_error(await client.get(f"/carts/{cart['id']}", headers=alice), 404, "cart_not_found")
    again = await client.post("/orders", json={"cartId": cart["id"],
                                               "deliveryAddress": US_ADDRESS}, headers=alice)
    assert_error(again, 409, "cart_already_submitted")


async def test_declined_card_and_unpaid_intent_create_nothing(client: httpx.AsyncClient,
                                                             app: Any,
                                                             alice: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    requirements = (await client.post("/orders", json=body, headers=alice)).json()
    declined = await confirm_fiat(client, requirements, DECLINED_CARD)
    assert_error(declined, 400, "payment_failed")
    intent = fiat_entry(requirements)["extra"]["paymentIntentId"]
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    response = await client.post("/orders", json=body, headers={**alice, "X-PAYMENT": proof})
    assert_error(response, 400, "payment_failed")
    assert await _count(app, "orders") == 0 and await _stock(app, LIMITED_MUG) == 10
    assert (await client.get(f"/carts/{cart['id']}", headers=alice)).status_code == 200


async def test_a_payment_cannot_pay_twice(client: httpx.AsyncClient, app: Any,
                                          alice: dict[str, str]) -> None:
    first = await _mug_cart(client, alice)
    body = {"cartId": first["id"], "deliveryAddress": US_ADDRESS}
    requirements = (await client.post("/orders", json=body, headers=alice)).json()
    intent = (await confirm_fiat(client, requirements)).json()["paymentIntentId"]
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    assert (await client.post("/orders", json=body, headers={**alice, "X-PAYMENT": proof})
            ).status_code == 201
    second = await _mug_cart(client, alice)
    response = await client.post("/orders", json={"cartId": second["id"],
                                                  "deliveryAddress": US_ADDRESS},
                                 headers={**alice, "X-PAYMENT": proof})
    assert_error(response, 400, "payment_failed")
    assert await _count(app, "orders") == 1


async def test_someone_elses_intent_does_not_pay(client: httpx.AsyncClient,
                                                 alice: dict[str, str],
                                                 bob: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    requirements = (await client.post("/orders", json=body, headers=alice)).json()
    intent = (await confirm_fiat(client, requirements)).json()["paymentIntentId"]
    bobs = await _mug_cart(client, bob)
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    response = await client.post("/orders", json={"cartId": bobs["id"],
                                                  "deliveryAddress": US_ADDRESS},
                                 headers={**bob, "X-PAYMENT": proof})
    assert_error(response, 400, "payment_failed")


async def test_each_reason_an_intent_cannot_pay(client: httpx.AsyncClient, app: Any,
                                              alice: dict[str, str],
                                              bob: dict[str, str]) -> None:
    """The spend is one conditional UPDATE; when it matches nothing the answer still says
    why, and nothing is written."""
    cart = await _mug_cart(client, alice)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    requirements = (await client.post("/orders", json=body, headers=alice)).json()
    intent = fiat_entry(requirements)["extra"]["paymentIntentId"]

    async def reason(headers: dict[str, str], order: dict[str, Any], intent_id: str) -> str:
        proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent_id})
        response = await client.post("/orders", json=order,
                                     headers={**headers, "X-PAYMENT": proof})
        assert_error(response, 400, "payment_failed")
        return str(response.json()["details"][0]["reason"])

    assert await reason(alice, body, intent) == "not_confirmed"
    assert await reason(alice, body, "pi_nothing") == "unknown_intent"
    assert (await confirm_fiat(client, requirements)).status_code == 200
    bobs = await _mug_cart(client, bob)
    assert await reason(bob, {"cartId": bobs["id"], "deliveryAddress": US_ADDRESS},
                        intent) == "unknown_intent"
    bigger = await _mug_cart(client, alice, 2)
    assert await reason(alice, {"cartId": bigger["id"], "deliveryAddress": US_ADDRESS},
                        intent) == "amount_mismatch"
    assert await _count(app, "orders") == 0 and await _stock(app, LIMITED_MUG) == 10
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": intent})
    assert (await client.post("/orders", json=body, headers={**alice, "X-PAYMENT": proof})
            ).status_code == 201
    again = await _mug_cart(client, alice)
    assert await reason(alice, {"cartId": again["id"], "deliveryAddress": US_ADDRESS},
                        intent) == "already_used"
    assert await _count(app, "orders") == 1


@pytest.mark.parametrize("header", ["%%%", base64.b64encode(b"not json").decode(),
                                    payment_header("bitcoin", "mainnet", {}),
                                    base64.b64encode(b'{"x402Version": 2}').decode()])
async def test_bad_payment_headers(client: httpx.AsyncClient, app: Any,
                                   alice: dict[str, str], header: str) -> None:
    cart = await _mug_cart(client, alice)
    response = await client.post("/orders", json={"cartId": cart["id"],
                                                  "deliveryAddress": US_ADDRESS},
                                 headers={**alice, "X-PAYMENT": header})
    assert response.status_code == 400
    assert response.json()["code"] in {"payment_failed", "payment_method_unsupported"}
    assert await _count(app, "orders") == 0


async def test_exact_scheme_pays_with_an_eip712_signature(client: httpx.AsyncClient,
                                                          app: Any,
                                                          alice: dict[str, str]) -> None:
    from eth_account import Account

    from commerce_agent.commerce.payments.exact import sign_exact_payment

    wallet = Account.create()
    cart = await _mug_cart(client, alice)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    requirements = (await client.post("/orders", json=body, headers=alice)).json()
    entry = next(a for a in requirements["accepts"] if a["scheme"] == "exact")
    proof = sign_exact_payment(wallet.key.hex(), entry)
    paid = await client.post("/orders", json=body, headers={**alice, "X-PAYMENT": proof})
    assert paid.status_code == 201, paid.text
    assert paid.json()["payment"]["payer"].lower() == wallet.address.lower()
    replay_cart = await _mug_cart(client, alice)
    replay = await client.post("/orders", json={"cartId": replay_cart["id"],
                                                "deliveryAddress": US_ADDRESS},
                               headers={**alice, "X-PAYMENT": proof})
    assert_error(replay, 400, "payment_failed")
    assert await _count(app, "orders") == 1


async def test_exact_support_leaves_the_recursion_limit_alone(client: httpx.AsyncClient,
                                                              alice: dict[str, str]) -> None:
    """py_ecc (under eth-account) raises it to 100,000 on import; a deeply nested body could
    then overflow the C stack and kill the server instead of answering 400."""
    import sys

    limit = sys.getrecursionlimit()
    cart = await _mug_cart(client, alice)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    assert (await client.post("/orders", json=body, headers=alice)).status_code == 402
    assert sys.getrecursionlimit() == limit < 10_000


async def test_exact_underpayment_is_refused(client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    from eth_account import Account

    from commerce_agent.commerce.payments.exact import sign_exact_payment

    cart = await _mug_cart(client, alice, 2)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    requirements = (await client.post("/orders", json=body, headers=alice)).json()
    entry = next(a for a in requirements["accepts"] if a["scheme"] == "exact")
    cheap = {**entry, "maxAmountRequired": "1"}
    proof = sign_exact_payment(Account.create().key.hex(), cheap)
    assert_error(await client.post("/orders", json=body, headers={**alice, "X-PAYMENT": proof}),
                 400, "payment_failed")


async def test_delivery_address_required(client: httpx.AsyncClient,
                                         alice: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice)
    response = await client.post("/orders", json={"cartId": cart["id"]}, headers=alice)
    assert_error(response, 400, "delivery_address_required")


async def _find_item(client: httpx.AsyncClient, predicate: Any) -> dict[str, Any]:
    for store in (await client.get("/stores?limit=100")).json()["stores"]:
        for catalog_id in store["catalogIds"]:
            for item in (await client.get(f"/catalogs/{catalog_id}")).json()["items"]:
                item = {**item, "storeId": store["id"], "store": store}
                if item["available"] and predicate(item):
                    return item
    raise AssertionError("no such item in the sample data")


def _simple(item: dict[str, Any]) -> bool:
    metadata = item.get("metadata", {})
    return not any(key in metadata for key in (
        "dev.commerce.product.variants", "dev.commerce.service.scheduling",
        "dev.commerce.product.customization"))


async def test_hybrid_with_physical_component_needs_an_address(client: httpx.AsyncClient,
                                                               alice: dict[str, str]) -> None:
    item = await _find_item(client, lambda i: _simple(i) and i["fulfillmentType"] == "hybrid"
                            and any(c["type"] == "physical"
                                    for c in i.get("fulfillmentComponents", [])))
    cart = await new_cart(client, alice, item["storeId"])
    await add_item(client, alice, cart["id"], item["id"], 1)
    response = await client.post("/orders", json={"cartId": cart["id"]}, headers=alice)
    assert_error(response, 400, "delivery_address_required")


async def test_digital_order_needs_no_address(client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    item = await _find_item(client, lambda i: _simple(i) and i["fulfillmentType"] == "digital"
                            and "dev.commerce.order.subscription" not in i["metadata"])
    cart = await new_cart(client, alice, item["storeId"])
    minimum = item["store"]["metadata"].get("dev.commerce.store.constraints", {}).get(
        "minimumOrderValue")
    quantity = 1
    if minimum and float(item["price"]["amount"]) < float(minimum["amount"]):
        quantity = int(float(minimum["amount"]) // float(item["price"]["amount"])) + 1
    await add_item(client, alice, cart["id"], item["id"], quantity)
    response = await pay_and_order(client, alice, {"cartId": cart["id"]})
    assert response.status_code == 201, response.text
    assert response.json()["orderType"] == "digital"


async def test_geographic_restriction(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice)
    for address in ({"address": "5 Rue de Rivoli, Paris, France"},
                    {"address": "Somewhere", "countryCode": "JP"}):
        response = await client.post("/orders", json={"cartId": cart["id"],
                                                      "deliveryAddress": address}, headers=alice)
        assert_error(response, 403, "geographic_restriction")
    canada = {"address": "1 Bay St, Toronto, Canada"}
    response = await client.post("/orders", json={"cartId": cart["id"],
                                                  "deliveryAddress": canada}, headers=alice)
    assert response.status_code == 402


async def test_minimum_order_value(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    minimum = float(store["metadata"]["dev.commerce.store.constraints"]["minimumOrderValue"][
        "amount"])
    item = await _find_item(client, lambda i: _simple(i) and i["storeId"] == CERAMICS
                            and float(i["price"]["amount"]) < minimum)
    cart = await new_cart(client, alice, item["storeId"])
    await add_item(client, alice, cart["id"], item["id"], 1)
    response = await client.post("/orders", json={"cartId": cart["id"],
                                                  "deliveryAddress": US_ADDRESS}, headers=alice)
    assert_error(response, 400, "minimum_order_value")
    # the goods are what is counted, so the message must not say the order's total
    assert "shipping and tax not counted" in response.json()["message"]


async def test_cart_empty(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    response = await client.post("/orders", json={"cartId": cart["id"],
                                                  "deliveryAddress": US_ADDRESS}, headers=alice)
    assert_error(response, 400, "cart_empty")


async def test_items_that_became_unavailable(client: httpx.AsyncClient, app: Any,
                                             alice: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice, 5)
    async with app.state.db.transaction() as tx:
        await tx.execute("UPDATE stock SET quantity = 3 WHERE item_id = :i", {"i": LIMITED_MUG})
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    short = assert_error(await client.post("/orders", json=body, headers=alice), 409,
                         "insufficient_stock")
    assert short["details"][0]["availableQuantity"] == 3
    async with app.state.db.transaction() as tx:
        await tx.execute("UPDATE stock SET quantity = 0 WHERE item_id = :i", {"i": LIMITED_MUG})
    gone = assert_error(await client.post("/orders", json=body, headers=alice), 409,
                        "order_items_unavailable")
    assert gone["details"][0]["resourceId"] == LIMITED_MUG


async def test_unknown_and_foreign_carts(client: httpx.AsyncClient, alice: dict[str, str],
                                         bob: dict[str, str]) -> None:
    assert_error(await client.post("/orders", json={"cartId": "cart_nope"}, headers=alice),
                 404, "cart_not_found")
    cart = await _mug_cart(client, alice)
    assert_error(await client.post("/orders", json={"cartId": cart["id"],
                                                    "deliveryAddress": US_ADDRESS},
                                   headers=bob), 404, "cart_not_found")


@pytest.mark.parametrize("body", [{}, {"cartId": 3}, {"cartId": "c", "items": []},
                                  {"cartId": "c", "deliveryAddress": {"address": ""}},
                                  {"cartId": "c", "deliveryAddress": {"address": "x",
                                                                      "latitude": 91}},
                                  {"cartId": "c", "surprise": True}])
async def test_malformed_order_requests(client: httpx.AsyncClient, alice: dict[str, str],
                                        body: dict[str, Any]) -> None:
    assert_error(await client.post("/orders", json=body, headers=alice), 400, "bad_request")


async def test_orders_belong_to_their_owner_and_list(client: httpx.AsyncClient,
                                                     alice: dict[str, str],
                                                     bob: dict[str, str]) -> None:
    first = await buy(client, alice)
    second = await buy(client, alice)
    assert_error(await client.get(f"/orders/{first['id']}", headers=bob), 404, "order_not_found")
    listed = (await client.get("/orders?limit=1", headers=alice)).json()
    assert listed["pagination"]["totalCount"] == 2 and len(listed["orders"]) == 1
    assert listed["orders"][0]["id"] == second["id"]
    following = (await client.get(f"/orders?limit=1&cursor={listed['pagination']['nextCursor']}",
                                  headers=alice)).json()
    assert following["orders"][0]["id"] == first["id"]
    confirmed = (await client.get("/orders?status=confirmed", headers=alice)).json()
    assert confirmed["pagination"]["totalCount"] == 2
    assert (await client.get("/orders?status=pending", headers=alice)).json()["orders"] == []
    assert (await client.get("/orders", headers=bob)).json()["orders"] == []
    assert_error(await client.get("/orders?status=lost", headers=alice), 400, "bad_request")


async def test_direct_order(client: httpx.AsyncClient, app: Any, alice: dict[str, str]) -> None:
    body = {"orderType": "direct", "items": [{"itemId": LIMITED_MUG, "quantity": 2}],
            "deliveryAddress": US_ADDRESS}
    response = await pay_and_order(client, alice, body)
    assert response.status_code == 201, response.text
    assert response.json()["total"]["amount"] == "44.50" and "cartId" not in response.json()
    assert await _stock(app, LIMITED_MUG) == 8
    assert await _count(app, "carts") == 0
    bad = await client.post("/orders", json={"orderType": "direct", "items": [
        {"itemId": LIMITED_MUG, "quantity": 0}], "deliveryAddress": US_ADDRESS}, headers=alice)
    assert_error(bad, 400, "invalid_quantity")


async def test_paid_order_replay_with_idempotency_key(client: httpx.AsyncClient, app: Any,
                                                      alice: dict[str, str]) -> None:
    cart = await _mug_cart(client, alice)
    body = {"cartId": cart["id"], "deliveryAddress": US_ADDRESS}
    headers = {**alice, "Idempotency-Key": "order-1"}
    created = await pay_and_order(client, alice, body, idempotency_key="order-1")
    assert created.status_code == 201
    replayed = await client.post("/orders", json=body, headers=headers)
    assert replayed.status_code == 201
    assert replayed.headers["idempotent-replayed"] == "true"
    assert replayed.json()["id"] == created.json()["id"]
    assert replayed.headers["location"] == created.headers["location"]
    assert await _count(app, "orders") == 1
    different = await client.post("/orders", json={**body, "notes": "leave at door"},
                                  headers=headers)
    assert_error(different, 409, "idempotency_key_reused")
    assert await _count(app, "orders") == 1
