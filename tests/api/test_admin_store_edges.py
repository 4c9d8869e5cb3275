"""The admin store and variant edges: each bad shipping, constraint or variant field is named;
a store's currency relabels its amounts until it has orders, then stays; the same currency
again changes nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.commerce.shop.stores import relabel
from tests.support.admin_support import CERAMICS, merchant_headers
from tests.support.lifecycle_support import mug_order

pytestmark = pytest.mark.both_backends

MUG = "item_limited_glaze_mug"


@pytest.fixture
async def owner(app: Starlette) -> dict[str, str]:
    return await merchant_headers(app, "owner@hearth.example", CERAMICS)


async def patch_store(client: httpx.AsyncClient, owner: dict[str, str],
                      body: dict[str, Any]) -> httpx.Response:
    return await client.patch(f"/admin/stores/{CERAMICS}", headers=owner, json=body)


def field_of(response: httpx.Response) -> str:
    assert response.status_code == 400, response.text
    return str(response.json()["details"][0]["field"])


@pytest.mark.parametrize(("body", "field"), [
    ({"shipping": {"deliveryAreas": "US"}}, "/shipping/deliveryAreas"),
    ({"shipping": {"deliveryAreas": ["US", 7]}}, "/shipping/deliveryAreas/1"),
    ({"constraints": {"minimumOrderValue": "10"}}, "/constraints/minimumOrderValue"),
    ({"constraints": {"minimumOrderValue": {"amount": "10.00", "currency": "EUR"}}},
     "/constraints/minimumOrderValue/amount"),
    ({"constraints": {"maxCartItems": 0}}, "/constraints/maxCartItems"),
    ({"constraints": {"maxCartItems": 1001}}, "/constraints/maxCartItems"),
    ({"constraints": {"maxCartItems": True}}, "/constraints/maxCartItems"),
    ({"constraints": {"maxCartItems": "5"}}, "/constraints/maxCartItems"),
    ({"constraints": {"promotions": {"stackingPolicy": "some"}}},
     "/constraints/promotions/stackingPolicy"),
])
async def test_bad_store_settings_name_their_field(
        client: httpx.AsyncClient, owner: dict[str, str], body: dict[str, Any],
        field: str) -> None:
    before = (await client.get(f"/stores/{CERAMICS}")).json()
    assert field_of(await patch_store(client, owner, body)) == field
    assert (await client.get(f"/stores/{CERAMICS}")).json() == before


async def test_good_constraints_are_kept(client: httpx.AsyncClient,
                                         owner: dict[str, str]) -> None:
    kept = await patch_store(client, owner, {"constraints": {
        "minimumOrderValue": {"amount": "10.00", "currency": "USD"}, "maxCartItems": 1000,
        "promotions": {"stackingPolicy": "none"}}})
    assert kept.status_code == 200, kept.text
    store = (await client.get(f"/stores/{CERAMICS}")).json()
    constraints = store["metadata"]["dev.commerce.store.constraints"]
    assert constraints["maxCartItems"] == 1000
    assert constraints["minimumOrderValue"] == {"amount": "10.00", "currency": "USD"}


async def test_a_new_currency_relabels_every_amount_until_the_store_has_orders(
        client: httpx.AsyncClient, owner: dict[str, str], alice: dict[str, str]) -> None:
    price = (await client.get(f"/items/{MUG}")).json()["price"]
    assert price["currency"] == "USD"
    same = await patch_store(client, owner, {"currency": "USD"})
    assert same.status_code == 200, same.text
    assert (await client.get(f"/items/{MUG}")).json()["price"] == price
    changed = await patch_store(client, owner, {"currency": "CAD"})
    assert changed.status_code == 200, changed.text
    assert (await client.get(f"/stores/{CERAMICS}")).json()["currency"] == "CAD"
    assert (await client.get(f"/items/{MUG}")).json()["price"] == {
        "amount": price["amount"], "currency": "CAD"}  # relabelled, not converted
    await patch_store(client, owner, {"currency": "USD"})
    await mug_order(client, alice)
    locked = await patch_store(client, owner, {"currency": "EUR"})
    assert locked.status_code == 409, locked.text
    assert locked.json()["code"] == "currency_locked"
    assert (await client.get(f"/stores/{CERAMICS}")).json()["currency"] == "USD"
    assert field_of(await patch_store(client, owner, {"currency": "dollars"})) == "/currency"


async def test_a_currency_without_cents_refuses_prices_with_cents(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    refused = await patch_store(client, owner, {"currency": "JPY"})
    assert field_of(refused) == "/currency"
    assert (await client.get(f"/stores/{CERAMICS}")).json()["currency"] == "USD"
    assert (await client.get(f"/items/{MUG}")).json()["price"]["currency"] == "USD"


def test_relabel_changes_only_amounts_in_the_old_currency() -> None:
    document = {"price": {"amount": "5.00", "currency": "USD"},
                "tiers": [{"amount": "1.00", "currency": "USD"},
                          {"amount": "2.00", "currency": "EUR"}],
                "note": {"currency": "USD"}, "count": 3, "name": "USD mug"}
    assert relabel(document, "USD", "CAD") == {
        "price": {"amount": "5.00", "currency": "CAD"},
        "tiers": [{"amount": "1.00", "currency": "CAD"},
                  {"amount": "2.00", "currency": "EUR"}],
        "note": {"currency": "USD"}, "count": 3, "name": "USD mug"}


# --- variants ---------------------------------------------------------------------------------

async def put_variant(client: httpx.AsyncClient, owner: dict[str, str], item: str,
                      variant: str, body: dict[str, Any]) -> httpx.Response:
    return await client.put(f"/admin/items/{item}/variants/{variant}", headers=owner,
                            json=body)


PRICE = {"amount": "20.00", "currency": "USD"}


async def test_a_first_variant_needs_its_options_and_drops_the_item_stock(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    missing = await put_variant(client, owner, MUG, "var_glaze_tall",
                                {"values": ["Tall"], "price": PRICE})
    assert field_of(missing) == "/options"
    made = await put_variant(client, owner, MUG, "var_glaze_tall",
                             {"values": ["Tall"], "price": PRICE, "options": ["Shape"],
                              "stock": 4})
    assert made.status_code == 201, made.text
    item = (await client.get(f"/admin/items/{MUG}", headers=owner)).json()
    variants = item["metadata"]["dev.commerce.product.variants"]
    assert variants["options"] == ["Shape"]
    assert [(v["id"], v["values"], v["stock"]) for v in variants["variants"]] == [
        ("var_glaze_tall", ["Tall"], 4)]
    other = await put_variant(client, owner, MUG, "var_glaze_short",
                              {"values": ["Short"], "price": PRICE, "options": ["Size"]})
    assert field_of(other) == "/options"
    again = await put_variant(client, owner, MUG, "var_glaze_tall",
                              {"values": ["Tall"], "price": {"amount": "22.00",
                                                             "currency": "USD"}})
    assert again.status_code == 200, again.text
    replaced = again.json()["metadata"]["dev.commerce.product.variants"]["variants"]
    assert replaced[0]["price"]["amount"] == "22.00" and replaced[0]["stock"] == 4


async def test_a_variant_id_must_be_an_id_and_unused(
        client: httpx.AsyncClient, owner: dict[str, str]) -> None:
    bad = await put_variant(client, owner, "item_classic_mug", "var mug!",
                            {"values": ["Sage", "12 oz"], "price": PRICE})
    assert field_of(bad) == "variant_id"
    item = (await client.get("/items/item_classic_mug")).json()
    taken = item["metadata"]["dev.commerce.product.variants"]["variants"][0]["id"]
    made = await put_variant(client, owner, MUG, taken,
                             {"values": ["Tall"], "price": PRICE, "options": ["Shape"]})
    assert field_of(made) == "variant_id"
