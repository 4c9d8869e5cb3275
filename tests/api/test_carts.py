"""Carts: lifecycle, lines, quantities, stock, limits, promotions and ownership."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from commerce_agent.auth.tokens import Principal
from commerce_agent.commerce.services.carts import cart as cart_service
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


async def test_create_and_read_cart(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    response = await client.post("/carts", json={"storeId": CERAMICS,
                                                 "guestInfo": {"email": "a@example.com"}},
                                 headers=alice)
    assert response.status_code == 201
    cart = response.json()
    assert response.headers["location"] == f"/carts/{cart['id']}"
    assert cart["storeId"] == CERAMICS and cart["items"] == [] and cart["expiresAt"]
    assert cart["guestInfo"] == {"email": "a@example.com"}
    assert (await client.get(f"/carts/{cart['id']}", headers=alice)).json()["id"] == cart["id"]


async def test_unknown_store_is_400(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    body = assert_error(await client.post("/carts", json={"storeId": "store_nope"},
                                          headers=alice), 400, "bad_request")
    assert body["details"][0]["field"] == "/storeId"


async def test_another_users_cart_is_404(client: httpx.AsyncClient, alice: dict[str, str],
                                         bob: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    assert_error(await client.get(f"/carts/{cart['id']}", headers=bob), 404, "cart_not_found")
    response = await client.post(f"/carts/{cart['id']}/items",
                                 json={"itemId": LIMITED_MUG, "quantity": 1}, headers=bob)
    assert_error(response, 404, "cart_not_found")
    assert (await client.get(f"/carts/{cart['id']}", headers=alice)).json()["items"] == []


async def test_adding_merges_identical_lines(client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], LIMITED_MUG, 2)
    cart = await add_item(client, alice, cart["id"], LIMITED_MUG, 3)
    assert len(cart["items"]) == 1 and cart["items"][0]["quantity"] == 5
    assert cart["subtotal"] == {"amount": "90.00", "currency": "USD"}
    # 90.00 of mugs and the store's default shipping (Standard, 8.50).
    assert cart["shipping"]["amount"] == "8.50"
    assert cart["total"]["amount"] == "98.50" and cart["itemCount"] == 5


@pytest.mark.parametrize("quantity", [0, -1, 1000, 10**30])
async def test_bad_quantities_are_invalid_quantity(client: httpx.AsyncClient,
                                                   alice: dict[str, str], quantity: int) -> None:
    cart = await new_cart(client, alice)
    response = await client.post(f"/carts/{cart['id']}/items",
                                 json={"itemId": LIMITED_MUG, "quantity": quantity},
                                 headers=alice)
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid_quantity"}


@pytest.mark.parametrize("body", [{"itemId": LIMITED_MUG}, {"itemId": LIMITED_MUG,
                                                          "quantity": "2"},
                                  {"itemId": LIMITED_MUG, "quantity": 1.5},
                                  {"itemId": 5, "quantity": 1}, [], "mug",
                                  {"itemId": LIMITED_MUG, "quantity": 1, "price": "0.01"}])
async def test_malformed_lines_are_400(client: httpx.AsyncClient, alice: dict[str, str],
                                       body: Any) -> None:
    cart = await new_cart(client, alice)
    response = await client.post(f"/carts/{cart['id']}/items", json=body, headers=alice)
    assert response.status_code == 400, response.text
    assert (await client.get(f"/carts/{cart['id']}", headers=alice)).json()["items"] == []


async def test_item_from_another_store_is_400(client: httpx.AsyncClient,
                                              alice: dict[str, str]) -> None:
    stores = (await client.get("/stores?limit=100")).json()["stores"]
    other = next(store for store in stores if store["id"] != CERAMICS)
    cart = await new_cart(client, alice, other["id"])
    response = await client.post(f"/carts/{cart['id']}/items",
                                 json={"itemId": LIMITED_MUG, "quantity": 1}, headers=alice)
    assert_error(response, 400, "bad_request")


async def test_stock_limits(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    response = await client.post(f"/carts/{cart['id']}/items",
                                 json={"itemId": LIMITED_MUG, "quantity": 11}, headers=alice)
    body = assert_error(response, 409, "insufficient_stock")
    assert body["details"][0]["availableQuantity"] == 10


async def test_a_cart_reads_back_every_line_in_order_with_its_items_stock(
        app: Any, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    """One statement reads the cart, its lines, their items and the items' stock rows."""
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], "item_classic_mug", 2,
                   variantId="var_mug_blue_16oz")
    await add_item(client, alice, cart["id"], "item_glazing_guide_ebook", 1)
    await add_item(client, alice, cart["id"], "item_classic_mug", 1,
                   variantId="var_mug_blue_12oz")
    await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    async with app.state.db.transaction() as tx:  # one variant sells out, one item leaves
        await tx.execute("UPDATE stock SET quantity = 0 WHERE item_id = 'item_classic_mug' "
                         "AND variant_id = 'var_mug_blue_12oz'")
        await tx.execute("DELETE FROM stock WHERE item_id = 'item_glazing_guide_ebook'")
        await tx.execute("DELETE FROM items WHERE id = 'item_glazing_guide_ebook'")
    body = (await client.get(f"/carts/{cart['id']}", headers=alice)).json()
    assert [(line["itemId"], line.get("variantId"), line["quantity"], line["available"])
            for line in body["items"]] == [
        ("item_classic_mug", "var_mug_blue_16oz", 2, True),
        ("item_glazing_guide_ebook", None, 1, False),
        ("item_classic_mug", "var_mug_blue_12oz", 1, False),
        (LIMITED_MUG, None, 1, True)]
    assert [line["price"]["amount"] for line in body["items"][:3]] == ["27.00", "0.00", "24.00"]
    assert body["itemCount"] == 5
    empty = await new_cart(client, alice)
    read = (await client.get(f"/carts/{empty['id']}", headers=alice)).json()
    assert read["items"] == [] and read["total"]["amount"] == "0.00"


async def test_out_of_stock_variant_is_product_unavailable(client: httpx.AsyncClient,
                                                           alice: dict[str, str]) -> None:
    item = (await client.get("/items/item_classic_mug")).json()
    variants = item["metadata"]["dev.commerce.product.variants"]["variants"]
    empty = next(v for v in variants if v["stock"] == 0)
    cart = await new_cart(client, alice)
    response = await client.post(f"/carts/{cart['id']}/items",
                                 json={"itemId": "item_classic_mug", "quantity": 1,
                                       "variantId": empty["id"]}, headers=alice)
    assert_error(response, 400, "product_unavailable")
    response = await client.post(f"/carts/{cart['id']}/items",
                                 json={"itemId": "item_classic_mug", "quantity": 1},
                                 headers=alice)
    assert assert_error(response, 400, "bad_request")["details"][0]["field"] == "/variantId"


async def test_max_cart_items(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    limit = store["metadata"]["dev.commerce.store.constraints"]["maxCartItems"]
    cart = await new_cart(client, alice)
    # Lines with different notes stay distinct lines (identical lines would merge).
    for index in range(limit):
        await add_item(client, alice, cart["id"], LIMITED_MUG, 1, notes=f"gift {index}")
    response = await client.post(f"/carts/{cart['id']}/items",
                                 json={"itemId": LIMITED_MUG, "quantity": 1,
                                       "notes": "one too many"}, headers=alice)
    error = assert_error(response, 400, "max_cart_items_exceeded")
    assert error["details"][0]["type"] == "business_logic"
    again = await client.post(f"/carts/{cart['id']}/items",
                              json={"itemId": LIMITED_MUG, "quantity": 1, "notes": "gift 0"},
                              headers=alice)
    assert again.status_code == 200  # merging into an existing line is still allowed
    assert len(again.json()["items"]) == limit


async def test_patch_and_delete_lines(client: httpx.AsyncClient, alice: dict[str, str],
                                      bob: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    cart = await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    line = cart["items"][0]["cartItemId"]
    url = f"/carts/{cart['id']}/items/{line}"
    patched = await client.patch(url, json={"quantity": 4, "notes": "gift"}, headers=alice)
    assert patched.status_code == 200
    assert patched.json()["items"][0]["quantity"] == 4
    assert patched.json()["items"][0]["notes"] == "gift"
    cleared = await client.patch(url, json={"notes": None}, headers=alice)
    assert "notes" not in cleared.json()["items"][0]
    assert_error(await client.patch(url, json={"quantity": 0}, headers=alice), 400,
                 "invalid_quantity")
    assert_error(await client.patch(url, json={"quantity": 50}, headers=alice), 409,
                 "insufficient_stock")
    assert_error(await client.patch(url, json={"quantity": 2}, headers=bob), 404,
                 "cart_not_found")
    assert_error(await client.patch(f"/carts/{cart['id']}/items/line_nope",
                                    json={"quantity": 2}, headers=alice), 404,
                 "cart_item_not_found")
    deleted = await client.delete(url, headers=alice)
    assert deleted.status_code == 200 and deleted.json()["items"] == []
    assert_error(await client.delete(url, headers=alice), 404, "cart_item_not_found")


async def test_promotions(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    url = f"/carts/{cart['id']}/promotions"
    too_small = await client.post(url, json={"type": "promo_code", "value": "WELCOME10"},
                                  headers=alice)
    assert assert_error(too_small, 400, "promotion_invalid")["details"][0]["reason"] == \
        "minimum_subtotal_not_met"
    for code, reason in (("NOPE", "unknown_code"), ("SUMMER2020", "expired")):
        response = await client.post(url, json={"type": "promo_code", "value": code},
                                     headers=alice)
        assert assert_error(response, 400, "promotion_invalid")["details"][0]["reason"] == reason
    await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    applied = await client.post(url, json={"type": "promo_code", "value": "welcome10"},
                                headers=alice)
    assert applied.status_code == 200
    body = applied.json()
    assert body["subtotal"]["amount"] == "36.00"
    # The discount is on the goods only; shipping (8.50) is added after it.
    assert body["discount"]["amount"] == "3.60" and body["total"]["amount"] == "40.90"
    stacked = await client.post(url, json={"type": "promo_code", "value": "FIVEOFF"},
                                headers=alice)
    assert_error(stacked, 409, "promotion_stacking_not_allowed")
    removed = await client.delete(f"{url}/WELCOME10", headers=alice)
    assert removed.json()["total"]["amount"] == "44.50"
    five = await client.post(url, json={"type": "promo_code", "value": "FIVEOFF"},
                             headers=alice)
    assert five.json()["total"]["amount"] == "39.50"
    order = await pay_and_order(client, alice, {"cartId": cart["id"],
                                                "deliveryAddress": US_ADDRESS})
    assert order.status_code == 201
    applied_meta = order.json()["metadata"]["dev.commerce.order.applied_promotions"]
    assert applied_meta["promotions"][0]["code"] == "FIVEOFF"
    assert order.json()["total"]["amount"] == "39.50"


async def test_expired_cart_is_410_with_next_action(client: httpx.AsyncClient, app: Any,
                                                    alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    async with app.state.db.transaction() as tx:
        await tx.execute("UPDATE carts SET expires_at = '2000-01-01T00:00:00.000Z' "
                         "WHERE id = :id", {"id": cart["id"]})
    body = assert_error(await client.get(f"/carts/{cart['id']}", headers=alice), 410,
                        "cart_expired")
    assert body["nextActions"][0]["href"] == "/carts"
    response = await client.post("/orders", json={"cartId": cart["id"]}, headers=alice)
    assert_error(response, 410, "cart_expired")


async def test_reads_do_not_extend_cart_life(client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    again = (await client.get(f"/carts/{cart['id']}", headers=alice)).json()
    assert again["expiresAt"] == cart["expiresAt"]
    touched = await add_item(client, alice, cart["id"], LIMITED_MUG, 1)
    assert touched["expiresAt"] >= cart["expiresAt"]


async def test_idempotent_add_item(client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice)
    headers = {**alice, "Idempotency-Key": "add-1"}
    body = {"itemId": LIMITED_MUG, "quantity": 2}
    first = await client.post(f"/carts/{cart['id']}/items", json=body, headers=headers)
    second = await client.post(f"/carts/{cart['id']}/items", json=body, headers=headers)
    assert second.headers["idempotent-replayed"] == "true"
    assert first.json() == second.json()
    assert (await client.get(f"/carts/{cart['id']}", headers=alice)).json()["items"][0][
        "quantity"] == 2
    reused = await client.post(f"/carts/{cart['id']}/items",
                               json={"itemId": LIMITED_MUG, "quantity": 3}, headers=headers)
    assert_error(reused, 409, "idempotency_key_reused")


async def test_every_change_answers_the_cart_as_it_is_stored(client: httpx.AsyncClient,
                                                             alice: dict[str, str]) -> None:
    """Changes answer the cart they built in memory; it must be what a later GET reads."""
    cart = await new_cart(client, alice)
    url = f"/carts/{cart['id']}"

    async def same_as_stored(response: httpx.Response) -> dict[str, Any]:
        assert response.status_code == 200, response.text
        stored = (await client.get(url, headers=alice)).json()
        assert response.json() == stored
        answered: dict[str, Any] = response.json()
        return answered

    first = await same_as_stored(await client.post(f"{url}/items", headers=alice, json={
        "itemId": LIMITED_MUG, "quantity": 2}))
    await same_as_stored(await client.post(f"{url}/items", headers=alice, json={
        "itemId": LIMITED_MUG, "quantity": 1}))  # merges into the line
    await same_as_stored(await client.post(f"{url}/items", headers=alice, json={
        "itemId": LIMITED_MUG, "quantity": 1, "notes": "gift wrap"}))  # a second line
    line_id = first["items"][0]["cartItemId"]
    await same_as_stored(await client.patch(f"{url}/items/{line_id}", headers=alice,
                                            json={"quantity": 5}))
    await same_as_stored(await client.post(f"{url}/promotions", headers=alice,
                                           json={"type": "promo_code", "value": "welcome10"}))
    await same_as_stored(await client.delete(f"{url}/promotions/WELCOME10", headers=alice))
    last = await same_as_stored(await client.delete(f"{url}/items/{line_id}", headers=alice))
    assert [line["notes"] for line in last["items"]] == ["gift wrap"]


async def test_a_line_change_can_be_applied_again(client: httpx.AsyncClient, app: Any,
                                                  alice: dict[str, str]) -> None:
    """A write retried after a conflict runs its work again with the same arguments: the
    service reads the changes without consuming them."""
    cart = await add_item(client, alice, (await new_cart(client, alice))["id"], LIMITED_MUG, 1)
    line = cart["items"][0]["cartItemId"]
    principal = Principal("user_alice", "alice@example.com", "Alice Martin")
    changes: dict[str, Any] = {"quantity": 3, "notes": "gift"}
    for _ in range(2):
        async with app.state.db.transaction() as tx:
            view = await cart_service.update_item(tx, principal, cart["id"], line, changes, 3600)
        assert view.render()["items"][0]["quantity"] == 3
    assert changes == {"quantity": 3, "notes": "gift"}
