"""The tools, called as a turn calls them (in-process, with a context and an idempotency key):
browsing, carts (only the user's own), and placing an order that survives a crash between
charging the card and creating the order without charging twice."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.auth.tokens import Principal
from commerce_agent.errors import CommerceError
from commerce_agent.operations import ToolFailure
from commerce_agent.operations import orders as order_tools
from tests.support.agent_support import ALICE, context, run, tool
from tests.support.helpers import US_ADDRESS

pytestmark = pytest.mark.both_backends

BOB = Principal("user_bob", "bob@example.com", "Bob")
MUG = "item_limited_glaze_mug"


async def alice_cart(client: httpx.AsyncClient, alice: dict[str, str], quantity: int = 1
                     ) -> str:
    cart = (await client.post("/carts", json={"storeId": "store_ceramics"},
                              headers=alice)).json()
    added = await client.post(f"/carts/{cart['id']}/items",
                              json={"itemId": MUG, "quantity": quantity}, headers=alice)
    assert added.status_code == 200, added.text
    return str(cart["id"])


async def test_browsing_tools(app: Starlette) -> None:
    stores = await run(app, "list_stores", {}, principal=None)
    ceramics = next(s for s in stores["stores"] if s["storeId"] == "store_ceramics")
    assert stores["total"] == len(stores["stores"]) >= 5
    assert "cat_ceramics_drinkware" in ceramics["catalogIds"] and ceramics["currency"] == "USD"

    catalog = await run(app, "get_catalog", {"catalogId": "cat_ceramics_drinkware"},
                        principal=None)
    mug = next(item for item in catalog["items"] if item["itemId"] == MUG)
    assert catalog["storeId"] == "store_ceramics" and mug["storeId"] == "store_ceramics"
    assert mug["price"] == {"amount": "18.00", "currency": "USD"}

    item = await run(app, "get_item", {"itemId": MUG}, principal=None)
    assert item["id"] == MUG and item["name"] == "Limited Edition Glaze Mug"
    assert item["price"] == {"amount": "18.00", "currency": "USD"}
    with pytest.raises(CommerceError) as missing:
        await run(app, "get_item", {"itemId": "item_nope"}, principal=None)
    assert missing.value.status == 404


async def test_a_search_says_which_words_nothing_sells(app: Starlette) -> None:
    """"red wine" finds the kyusu by the red of its clay: the result says no catalog says
    "wine", so a model can tell the shopper nothing is a wine. Each result carries the
    categories its store files it under."""
    found = await run(app, "search_products", {"query": "red wine"}, principal=None)
    assert found["unmatched"] == ["wine"]
    assert [item["itemId"] for item in found["results"]] == ["item_tokoname_kyusu"]
    teapots = await run(app, "search_products", {"query": "teapot"}, principal=None)
    assert "unmatched" not in teapots
    celadon = next(item for item in teapots["results"]
                   if item["itemId"] == "item_celadon_teapot")
    assert "Teapots" in celadon["categories"]
    nothing = await run(app, "search_products", {"query": "candles"}, principal=None)
    assert nothing["results"] == [] and nothing["unmatched"] == ["candles"]


async def test_get_item_in_a_locale_carries_the_stores_option_names(app: Starlette) -> None:
    """A reply to a French shopper names the 16-inch pizza « 16 pouces », as the store does."""
    item = await run(app, "get_item", {"itemId": "item_pizza_margherita", "locale": "fr"},
                     principal=None)
    assert item["optionNames"]["16-inch"] == "16 pouces"
    assert item["optionNames"]["Choose your size"] == "Taille"
    english = await run(app, "get_item", {"itemId": "item_pizza_margherita"}, principal=None)
    assert "optionNames" not in english


async def test_cart_tools_change_the_users_cart(app: Starlette, client: httpx.AsyncClient,
                                                alice: dict[str, str]) -> None:
    created = await run(app, "create_cart", {"storeId": "store_ceramics"})
    cart_id = created["cartId"]
    added = await run(app, "add_to_cart", {"cartId": cart_id, "itemId": MUG, "quantity": 2})
    [line] = added["items"]
    assert added["shipping"] == {"amount": "8.50", "currency": "USD"}
    assert [option["id"] for option in added["shippingOptions"]] == [
        "ship_ceramics_standard", "ship_ceramics_express"]
    assert added["total"] == {"amount": "44.50", "currency": "USD"}

    updated = await run(app, "update_cart_item", {"cartId": cart_id,
                                                  "cartItemId": line["cartItemId"],
                                                  "quantity": 3})
    assert updated["items"][0]["quantity"] == 3
    assert updated["total"] == {"amount": "62.50", "currency": "USD"}

    promoted = await run(app, "apply_promotion", {"cartId": cart_id, "code": "WELCOME10"})
    assert promoted["promotions"] == ["WELCOME10"]
    assert promoted["discount"] == {"amount": "5.40", "currency": "USD"}
    assert promoted["total"] == {"amount": "57.10", "currency": "USD"}
    with pytest.raises(CommerceError) as bad_code:
        await run(app, "apply_promotion", {"cartId": cart_id, "code": "NOPE"})
    assert bad_code.value.code == "promotion_invalid"

    viewed = await run(app, "view_cart", {"cartId": cart_id})
    assert viewed == promoted
    api = (await client.get(f"/carts/{cart_id}", headers=alice)).json()
    assert [(line["itemId"], line["quantity"]) for line in api["items"]] == [(MUG, 3)]
    assert api["total"] == {"amount": "57.10", "currency": "USD"}

    removed = await run(app, "remove_cart_item", {"cartId": cart_id,
                                                  "cartItemId": line["cartItemId"]})
    assert removed["items"] == [] and removed["itemCount"] == 0
    assert (await client.get(f"/carts/{cart_id}", headers=alice)).json()["items"] == []


async def test_a_repeated_call_with_its_key_is_a_replay(app: Starlette,
                                                        client: httpx.AsyncClient,
                                                        alice: dict[str, str]) -> None:
    cart_id = await alice_cart(client, alice)
    args = {"cartId": cart_id, "itemId": MUG, "quantity": 2}
    first = await run(app, "add_to_cart", args, key="agent-ses_x-call_1_0_0")
    again = await run(app, "add_to_cart", args, key="agent-ses_x-call_1_0_0")
    assert first == again and first["items"][0]["quantity"] == 3


async def test_another_users_cart_is_not_reachable(app: Starlette, client: httpx.AsyncClient,
                                                   alice: dict[str, str]) -> None:
    cart_id = await alice_cart(client, alice)
    line_id = (await run(app, "view_cart", {"cartId": cart_id}))["items"][0]["cartItemId"]
    for name, args in [
        ("view_cart", {"cartId": cart_id}),
        ("add_to_cart", {"cartId": cart_id, "itemId": MUG}),
        ("update_cart_item", {"cartId": cart_id, "cartItemId": line_id, "quantity": 5}),
        ("remove_cart_item", {"cartId": cart_id, "cartItemId": line_id}),
        ("apply_promotion", {"cartId": cart_id, "code": "FIVEOFF"}),
    ]:
        with pytest.raises(CommerceError) as refused:
            await run(app, name, args, principal=BOB)
        assert (refused.value.status, refused.value.code) == (404, "cart_not_found"), name
    with pytest.raises(ToolFailure) as anonymous:
        await run(app, "view_cart", {"cartId": cart_id}, principal=None)
    assert anonymous.value.code == "authorization_required"
    cart = (await client.get(f"/carts/{cart_id}", headers=alice)).json()
    assert [(line["itemId"], line["quantity"]) for line in cart["items"]] == [(MUG, 1)]
    assert cart.get("promotions", []) == []


# -- placing an order across a crash ----------------------------------------------------------

async def intents(app: Starlette) -> Counter[str]:
    rows = await app.state.db.fetch_all(
        "SELECT status FROM payment_intents WHERE owner_id = 'user_alice'")
    return Counter(row["status"] for row in rows)


def crash_once_after_payment(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The final placement (the one with a payment) raises once: a crash after the card was
    charged and before the order was committed."""
    real = order_tools.place_order
    crashes: list[str] = []

    async def placement(tx: Any, principal: Any, request: Any, payment: Any,
                        **options: Any) -> Any:
        if payment is not None and not crashes:
            crashes.append("crashed")
            raise RuntimeError("the process died here")
        return await real(tx, principal, request, payment, **options)

    monkeypatch.setattr(order_tools, "place_order", placement)
    return crashes


async def test_a_crash_after_the_charge_never_charges_twice(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    cart_id = await alice_cart(client, alice)
    crashes = crash_once_after_payment(monkeypatch)
    ctx = context(app, ALICE, "agent-ses_x-call_2_0_0")
    args = {"cartId": cart_id, "deliveryAddress": US_ADDRESS}
    with pytest.raises(RuntimeError):
        await tool("place_order").run(ctx, args)
    assert crashes and (await intents(app))["succeeded"] == 1

    resumed = await tool("place_order").run(ctx, args)  # the turn resumed after the crash
    statuses = await intents(app)
    assert statuses["consumed"] == 1 and statuses["succeeded"] == 0
    assert sum(statuses.values()) == 1  # not even a second intent was offered
    orders = (await client.get("/orders", headers=alice)).json()["orders"]
    assert [order["id"] for order in orders] == [resumed["orderId"]]
    assert orders[0]["payment"]["scheme"] == "fiat_intent"
    assert await tool("place_order").run(ctx, args) == resumed


async def test_a_cart_changed_after_the_charge_is_not_charged_again(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    cart_id = await alice_cart(client, alice)
    crash_once_after_payment(monkeypatch)
    ctx = context(app, ALICE, "agent-ses_x-call_2_0_0")
    args = {"cartId": cart_id, "deliveryAddress": US_ADDRESS}
    with pytest.raises(RuntimeError):
        await tool("place_order").run(ctx, args)
    await client.post(f"/carts/{cart_id}/items", json={"itemId": MUG, "quantity": 1},
                      headers=alice)

    with pytest.raises(ToolFailure) as failure:
        await tool("place_order").run(ctx, args)
    assert failure.value.code == "cart_changed_after_payment"
    assert "nothing more was charged" in failure.value.message
    assert await intents(app) == Counter({"succeeded": 1})
    assert (await client.get("/orders", headers=alice)).json()["orders"] == []


async def test_get_store_tells_where_and_what_it_offers(app: Starlette) -> None:
    store = await run(app, "get_store", {"storeId": "store_trattoria"}, principal=None)
    assert store["name"] == "Trattoria Fiamma" and store["currency"] == "USD"
    assert store["address"].startswith("2150 N Milwaukee Ave")
    assert store["minimumOrderValue"] == {"amount": "12.00", "currency": "USD"}
    assert {"PIZZAFRIDAY", "DOLCE4"} == {entry["code"] for entry in store["promotions"]}
    with pytest.raises(CommerceError):
        await run(app, "get_store", {"storeId": "store_nope"}, principal=None)


async def test_add_to_cart_takes_the_line_options_the_cart_route_takes(
        app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> None:
    cart = await run(app, "create_cart", {"storeId": "store_trattoria"})
    args = {"cartId": cart["cartId"], "itemId": "item_pizza_margherita", "quantity": 2,
            "customizations": {"group_margherita_size": "opt_margherita_size_16in",
                               "group_margherita_toppings": ["opt_margherita_top_olives",
                                                             "opt_margherita_top_nduja"]},
            "addOnIds": ["addon_trattoria_burrata"], "notes": "well done"}
    added = await run(app, "add_to_cart", args)
    [line] = added["items"]
    assert line["customizations"]["group_margherita_toppings"] == [
        "opt_margherita_top_nduja", "opt_margherita_top_olives"]
    assert line["addOnIds"] == ["addon_trattoria_burrata"] and added["storeName"] == \
        "Trattoria Fiamma"
    shown = (await client.get(f"/carts/{cart['cartId']}", headers=alice)).json()
    assert shown["items"][0]["customizations"] == line["customizations"]
    with pytest.raises(ToolFailure):
        tool("add_to_cart").check_args({**args, "customizations": {"g": 3}})

    lumen = await run(app, "create_cart", {"storeId": "store_lumen_studio"})
    booked = await run(app, "add_to_cart", {
        "cartId": lumen["cartId"], "itemId": "item_vinyasa_drop_in",
        "timeSlotId": "slot_vinyasa_20270113_0700"})
    assert booked["items"][0]["timeSlotId"] == "slot_vinyasa_20270113_0700"


async def test_rating_and_subscription_tools(app: Starlette, client: httpx.AsyncClient,
                                             alice: dict[str, str]) -> None:
    from tests.support.lifecycle_support import complete, digital_order

    plan = await digital_order(client, alice, "item_folio_unlimited_monthly")
    paused = await run(app, "change_subscription", {"orderId": plan["id"], "action": "pause"})
    assert paused["subscription"]["status"] == "paused"
    again = await run(app, "change_subscription", {"orderId": plan["id"], "action": "pause"})
    assert again["subscription"]["status"] == "paused"  # the same call replays its answer
    with pytest.raises(CommerceError) as refused:
        await run(app, "change_subscription", {"orderId": plan["id"], "action": "pause"},
                  key="agent-test-pause-twice")
    assert refused.value.code == "invalid_transition"

    book = await digital_order(client, alice)
    with pytest.raises(CommerceError) as early:
        await run(app, "rate_order", {"orderId": book["id"], "overall": 5})
    assert early.value.code == "order_not_completed"
    await complete(app, book["id"])
    rated = await run(app, "rate_order", {"orderId": book["id"], "overall": 4},
                      key="agent-test-rate-completed")
    assert rated["rating"]["overall"] == 4
    order = (await client.get(f"/orders/{book['id']}", headers=alice)).json()
    assert order["metadata"]["dev.commerce.order.ratings"]["overall"] == 4


async def test_list_carts_shows_the_carts_made_elsewhere(app: Starlette,
                                                      client: httpx.AsyncClient,
                                                      alice: dict[str, str]) -> None:
    """A cart made through the API (the web cart page's way) is the agent's to see, and one
    the agent makes is listed by GET /carts."""
    web_cart = await alice_cart(client, alice, quantity=2)
    made = await run(app, "create_cart", {"storeId": "store_ceramics"})
    listed = await run(app, "list_carts", {})
    assert {cart["cartId"] for cart in listed["carts"]} == {web_cart, made["cartId"]}
    assert listed["total"] == 2
    api = (await client.get("/carts", headers=alice)).json()["carts"]
    assert {cart["id"] for cart in api} == {web_cart, made["cartId"]}
    assert (await run(app, "list_carts", {}, principal=BOB))["carts"] == []


async def test_store_tools_in_a_locale_carry_the_name_as_written(app: Starlette) -> None:
    """A French shopper may still type a store's name as it is written: the tools give both."""
    english = await run(app, "list_stores", {}, principal=None)
    written = {store["storeId"]: store["name"] for store in english["stores"]}
    assert all("ownName" not in store for store in english["stores"])
    for locale in ("fr", "ja"):
        stores = await run(app, "list_stores", {"locale": locale}, principal=None)
        assert {store["storeId"]: store["ownName"] for store in stores["stores"]} == written
        store = await run(app, "get_store", {"storeId": "store_midori", "locale": locale},
                          principal=None)
        assert store["ownName"] == written["store_midori"]
    assert "ownName" not in await run(app, "get_store", {"storeId": "store_midori"},
                                      principal=None)
