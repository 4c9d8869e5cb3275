"""Money through the Commerce API, as a property (hypothesis): whatever a cart holds, in
stores whose currencies have 0 (JPY), 2 (USD, EUR, GBP) and 3 (BHD, a store made here through
the admin API) minor digits, with or without a promotion code:

- each line's total is its unit price times its quantity;
- the subtotal is the sum of the lines, the discount never more than the subtotal;
- the total is subtotal + shipping + tax − discount, never negative;
- every amount is in the store's currency with exactly that currency's digits;
- the 402 asks for exactly the total, in minor units, and the order placed charges it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette

from commerce_agent.commerce import money
from tests.support.admin_support import merchant_headers
from tests.support.fuzzing import examples
from tests.support.helpers import fiat_entry, new_cart, pay_and_order

# Items with stock enough for any draw (or none counted), by store, and a code each store has.
STORES: dict[str, tuple[list[str], str, dict[str, Any]]] = {
    "store_ceramics": (
        [
            "item_hanging_planter",
            "item_stoneware_dinner_plate",
            "item_espresso_cup_set",
            "item_glazing_guide_ebook",
        ],
        "WELCOME10",
        {"address": "1 Main St, Springfield, US", "countryCode": "US"},
    ),
    "store_midori": (
        ["item_yame_gyokuro", "item_kaga_hojicha", "item_genmaicha", "item_washi_notebook"],
        "OCHA10",
        {"address": "1-1 Marunouchi, Chiyoda-ku, Tokyo", "countryCode": "JP"},
    ),
    "store_lumen_studio": (
        ["item_cork_yoga_mat", "item_class_pass_10", "item_online_yoga_monthly"],
        "NAMASTE10",
        {"address": "1 High St, London", "countryCode": "GB"},
    ),
    "store_ebooks": (
        ["item_ebook_python_patterns", "item_ebook_sourdough_year", "item_audiobook_quiet_focus"],
        "READMORE15",
        {},
    ),
}
# A store in Bahraini dinars (three minor digits), with prices that round at the third.
BHD_PRICES = ["1.250", "0.375", "12.005", "0.001"]
EXAMPLES = examples(30)


@pytest.fixture
async def stores(
    app: Starlette, client: httpx.AsyncClient
) -> dict[str, tuple[list[str], str, dict[str, Any]]]:
    """The sample stores, and a store in dinars made through the admin API."""
    owner = await merchant_headers(app, "dinar@shop.example", "store_ceramics")
    store = await client.post(
        "/admin/stores", headers=owner, json={"name": "Manama Dates", "currency": "BHD"}
    )
    assert store.status_code == 201, store.text
    store_id = str(store.json()["id"])
    catalog = await client.post(
        f"/admin/stores/{store_id}/catalogs", headers=owner, json={"name": "Dates"}
    )
    assert catalog.status_code == 201, catalog.text
    items = []
    for number, price in enumerate(BHD_PRICES):
        item = await client.post(
            f"/admin/stores/{store_id}/items",
            headers=owner,
            json={
                "name": f"Dates box {number}",
                "fulfillmentType": "digital",
                "price": {"amount": price, "currency": "BHD"},
            },
        )
        assert item.status_code == 201, item.text
        items.append(str(item.json()["id"]))
    promotion = await client.put(
        f"/admin/stores/{store_id}/promotions/DATES",
        headers=owner,
        json={"type": "percentage", "value": "12.5"},
    )
    assert promotion.status_code in (200, 201), promotion.text
    return {**STORES, store_id: (items, "DATES", {})}


def amount(value: dict[str, Any] | None, currency: str) -> Decimal:
    """A wire amount, checked: the store's currency, exactly its digits."""
    if value is None:
        return Decimal(0)
    assert value["currency"] == currency, value
    digits = money.minor_units(currency)
    text = value["amount"]
    assert (len(text.split(".")[1]) if "." in text else 0) == digits, (text, currency)
    return Decimal(text)


def check_totals(cart: dict[str, Any], currency: str) -> Decimal:
    lines = Decimal(0)
    for line in cart["items"]:
        unit, total = amount(line["price"], currency), amount(line["lineTotal"], currency)
        assert total == unit * line["quantity"], line
        lines += total
    subtotal = amount(cart["subtotal"], currency)
    discount = amount(cart.get("discount"), currency)
    shipping = amount(cart.get("shipping"), currency)
    tax = amount(cart.get("tax"), currency)
    total = amount(cart["total"], currency)
    assert subtotal == lines
    assert 0 <= discount <= subtotal
    assert total == subtotal + shipping + tax - discount >= 0, cart
    assert cart["itemCount"] == sum(line["quantity"] for line in cart["items"])
    for promotion in cart.get("promotions", []):
        if promotion.get("applicable"):
            assert amount(promotion["discount"], currency) <= subtotal
    return total


@EXAMPLES
@given(data=st.data())
async def test_a_carts_money_adds_up_in_every_currency(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    stores: dict[str, tuple[list[str], str, dict[str, Any]]],
    data: st.DataObject,
) -> None:
    store_id = data.draw(st.sampled_from(sorted(stores)), label="store")
    items, code, address = stores[store_id]
    currency = (await client.get(f"/stores/{store_id}")).json()["currency"]
    cart = await new_cart(client, alice, store_id)
    lines = data.draw(
        st.lists(st.tuples(st.sampled_from(items), st.integers(1, 4)), min_size=1, max_size=4),
        label="lines",
    )
    for item_id, quantity in lines:
        added = await client.post(
            f"/carts/{cart['id']}/items",
            headers=alice,
            json={"itemId": item_id, "quantity": quantity},
        )
        assert added.status_code == 200, added.text
        cart = added.json()
        check_totals(cart, currency)
    if data.draw(st.booleans(), label="promotion"):
        applied = await client.post(
            f"/carts/{cart['id']}/promotions",
            headers=alice,
            json={"type": "promo_code", "value": code},
        )
        if applied.status_code == 200:
            cart = applied.json()
        else:  # below the code's minimum subtotal: refused, and the cart is unchanged
            assert applied.json()["code"] == "promotion_invalid", applied.text
    if data.draw(st.booleans(), label="change a line"):
        line = data.draw(st.sampled_from(cart["items"]))
        quantity = data.draw(st.integers(1, 4))
        changed = await client.patch(
            f"/carts/{cart['id']}/items/{line['cartItemId']}",
            headers=alice,
            json={"quantity": quantity},
        )
        assert changed.status_code == 200, changed.text
        cart = changed.json()
    total = check_totals(cart, currency)
    # The same cart read again adds up the same.
    assert (await client.get(f"/carts/{cart['id']}", headers=alice)).json()["total"] == cart[
        "total"
    ]
    body: dict[str, Any] = {"cartId": cart["id"]}
    if address:
        body["deliveryAddress"] = address
    offered = await client.post("/orders", json=body, headers=alice)
    if offered.status_code == 400:  # a store's minimum: on the goods, after discounts
        refused = offered.json()
        assert refused["code"] == "minimum_order_value", refused
        merchandise = amount(cart["subtotal"], currency) - amount(cart.get("discount"), currency)
        assert Decimal(refused["details"][0]["value"]) == merchandise
        assert merchandise < amount(refused["userMessage"]["params"]["minimum"], currency)
        return
    assert offered.status_code == 402, offered.text
    entry = fiat_entry(offered.json())
    assert (entry["asset"], int(entry["maxAmountRequired"])) == (
        currency,
        money.to_minor(total, currency),
    )


@pytest.mark.parametrize("store_id", ["store_midori", "store_lumen_studio", "dinar"])
async def test_the_order_charges_what_the_cart_totals(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    stores: dict[str, tuple[list[str], str, dict[str, Any]]],
    store_id: str,
) -> None:
    if store_id == "dinar":
        [store_id] = set(stores) - set(STORES)
    items, code, address = stores[store_id]
    currency = (await client.get(f"/stores/{store_id}")).json()["currency"]
    cart = await new_cart(client, alice, store_id)
    for quantity, item_id in enumerate(items, start=1):
        added = await client.post(
            f"/carts/{cart['id']}/items",
            headers=alice,
            json={"itemId": item_id, "quantity": quantity},
        )
        assert added.status_code == 200, added.text
    applied = await client.post(
        f"/carts/{cart['id']}/promotions", headers=alice, json={"type": "promo_code", "value": code}
    )
    assert applied.status_code == 200, applied.text
    cart = applied.json()
    total = check_totals(cart, currency)
    assert amount(cart["discount"], currency) > 0
    body: dict[str, Any] = {
        "cartId": cart["id"],
        **({"deliveryAddress": address} if address else {}),
    }
    placed = await pay_and_order(client, alice, body)
    assert placed.status_code == 201, placed.text
    order = placed.json()
    assert amount(order["total"], currency) == total
    assert sum(
        amount(line["lineTotal"], currency)
        if "lineTotal" in line
        else amount(line["price"], currency) * line["quantity"]
        for line in order["items"]
    ) == amount(cart["subtotal"], currency)
