"""Another principal never reaches a shopper's things: every Commerce API route whose path
names something one principal owns (a cart, a cart line, an order, its download, its
subscription, a return, a webhook endpoint and its deliveries), read from the app as
/openapi.json reads it, answers another signed-in shopper and a guest 404 — the answer for a
thing that does not exist, so ids cannot be probed — and changes nothing; their lists show
none of it. A new route of that kind joins the matrix by itself."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from starlette.applications import Starlette

from tests.support.commerce_world import (
    World,
    commerce_endpoints,
    good_bodies,
    owned,
)
from tests.support.helpers import add_item, assert_error, new_cart, payment_header

# Routes whose credential is not the bearer token: the sandbox confirm takes the intent's
# client secret (checked below), Stripe's webhook its signature.
NOT_BY_PRINCIPAL = {
    ("POST", "/payments/sandbox/intents/{intent_id}/confirm"),
    ("POST", "/payments/stripe/webhook"),
}
# The error code each kind of thing answers with when it is not the caller's.
NOT_FOUND_CODES = {
    "cart_not_found",
    "order_not_found",
    "return_not_found",
    "webhook_not_found",
    "not_found",
    "line_item_not_found",
    "delivery_not_found",
    "asset_not_found",
}


async def _snapshot(
    client: httpx.AsyncClient, headers: dict[str, str], world: World
) -> dict[str, Any]:
    """What Alice sees of each of her things."""
    seen: dict[str, Any] = {}
    for path in (
        f"/carts/{world.ids['cart_id']}",
        f"/orders/{world.ids['order_id']}",
        f"/orders/{world.subscription_order}",
        f"/orders/{world.digital_order}",
        f"/returns/{world.ids['return_id']}",
        f"/webhooks/{world.ids['webhook_id']}",
        "/user/profile",
    ):
        response = await client.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        seen[path] = response.json()
    # Deliveries are attempted in the background meanwhile: which ones there are.
    path = f"/webhooks/{world.ids['webhook_id']}/deliveries"
    deliveries = (await client.get(path, headers=headers)).json()["deliveries"]
    seen[path] = sorted((delivery["id"], delivery["event"]) for delivery in deliveries)
    return seen


async def _request(
    client: httpx.AsyncClient,
    method: str,
    path: str,
    headers: dict[str, str],
    body: dict[str, Any] | None,
) -> httpx.Response:
    # The updates feed is a stream: a 404 must come before any of it, so a bounded wait.
    return await asyncio.wait_for(
        client.request(
            method, path, headers=headers, **({"json": body} if body is not None else {})
        ),
        timeout=10,
    )


async def _guest(client: httpx.AsyncClient) -> dict[str, str]:
    response = await client.post("/guest-tokens")
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['guestToken']}"}


async def test_another_principal_gets_404_on_every_owned_route_and_changes_nothing(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    bob: dict[str, str],
    world: World,
) -> None:
    bodies = good_bodies(world)
    routes = [
        endpoint
        for endpoint in commerce_endpoints(app)
        if owned(endpoint) and (endpoint.method, endpoint.path) not in NOT_BY_PRINCIPAL
    ]
    assert len(routes) >= 18, [endpoint.path for endpoint in routes]
    before = await _snapshot(client, alice, world)
    strangers = {"bob": bob, "guest": await _guest(client)}
    answers: dict[str, set[str]] = {}
    for endpoint in routes:
        path = world.path(endpoint.path)
        body = bodies.get((endpoint.method, endpoint.path))
        for name, headers in strangers.items():
            response = await _request(client, endpoint.method, path, headers, body)
            what = f"{name}: {endpoint.method} {path}"
            if name == "guest" and response.status_code in (401, 403):
                continue  # a guest token opens carts only; everything else wants an account
            assert response.status_code == 404, (what, response.status_code, response.text)
            error = assert_error(response, 404, response.json()["code"])
            assert error["code"] in NOT_FOUND_CODES, (what, error)
            # Nothing in the answer names or shows Alice's thing.
            for secret in ("user_alice", "alice@", world.return_order["items"][0]["id"]):
                assert secret not in response.text, (what, response.text)
            answers.setdefault(name, set()).add(endpoint.path)
    assert answers["bob"] == {endpoint.path for endpoint in routes}
    assert any("/carts/{cart_id}" in path for path in answers["guest"])
    assert await _snapshot(client, alice, world) == before


async def test_a_missing_id_and_someone_elses_answer_alike(
    app: Starlette, client: httpx.AsyncClient, bob: dict[str, str], world: World
) -> None:
    """The 404 for Alice's thing is the 404 for a thing that does not exist, message and all
    but the id, so Bob cannot tell which ids are taken."""
    for endpoint in commerce_endpoints(app):
        if endpoint.method != "GET" or not owned(endpoint) or "updates" in endpoint.path:
            continue
        real = await client.get(world.path(endpoint.path), headers=bob)
        missing_ids = World(
            {
                key: f"{value}_missing" if key not in ("action",) else value
                for key, value in world.ids.items()
            },
            f"{world.subscription_order}_missing",
            f"{world.digital_order}_missing",
            world.return_order,
            "",
        )
        missing = await client.get(missing_ids.path(endpoint.path), headers=bob)
        assert real.status_code == missing.status_code == 404, endpoint.path
        real_body, missing_body = real.json(), missing.json()
        assert real_body["code"] == missing_body["code"], endpoint.path
        for key in ("title", "type", "status"):
            assert real_body[key] == missing_body[key], (endpoint.path, key)


async def test_lists_show_another_principal_nothing(
    client: httpx.AsyncClient, alice: dict[str, str], bob: dict[str, str], world: World
) -> None:
    for path, key in (("/carts", "carts"), ("/orders", "orders"), ("/webhooks", "webhooks")):
        mine = await client.get(path, headers=alice)
        theirs = await client.get(path, headers=bob)
        assert mine.status_code == theirs.status_code == 200, path
        assert mine.json()[key], path  # Alice has some
        alice_ids = {entry["id"] for entry in mine.json()[key]}
        assert not alice_ids & {entry["id"] for entry in theirs.json()[key]}, path
    profile = (await client.get("/user/profile", headers=bob)).json()
    assert "alice" not in str(profile).lower()


async def test_an_intent_is_confirmed_by_its_secret_only(
    app: Starlette, client: httpx.AsyncClient, bob: dict[str, str], world: World
) -> None:
    """The sandbox confirm takes no token: a wrong secret is the 404 of an unknown intent,
    whoever sends it, and leaves the intent unpaid; the right one confirms it."""
    path = f"/payments/sandbox/intents/{world.ids['intent_id']}/confirm"
    for headers in ({}, bob):
        for secret in ("", "x", world.intent_secret + "x", world.intent_secret[:-1]):
            response = await client.post(
                path, headers=headers, json={"clientSecret": secret, "card": "4242424242424242"}
            )
            assert response.status_code in (400, 404), (secret, response.text)
            if response.status_code == 404:
                assert_error(response, 404, "payment_intent_not_found")
    row = await app.state.db.fetch_one(
        "SELECT status FROM payment_intents WHERE id = :id", {"id": world.ids["intent_id"]}
    )
    assert row is not None and row["status"] == "requires_confirmation"
    confirmed = await client.post(
        path, json={"clientSecret": world.intent_secret, "card": "4242424242424242"}
    )
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json() == {"paymentIntentId": world.ids["intent_id"], "status": "succeeded"}


async def test_another_shopper_cannot_spend_a_confirmed_intent(
    client: httpx.AsyncClient, alice: dict[str, str], bob: dict[str, str], world: World
) -> None:
    """A paid intent is Alice's: Bob naming it in his proof places no order."""
    confirm = f"/payments/sandbox/intents/{world.ids['intent_id']}/confirm"
    assert (
        await client.post(
            confirm, json={"clientSecret": world.intent_secret, "card": "4242424242424242"}
        )
    ).status_code == 200
    cart = await new_cart(client, bob)
    await add_item(client, bob, cart["id"], "item_limited_glaze_mug")
    proof = payment_header("fiat_intent", "sandbox", {"paymentIntentId": world.ids["intent_id"]})
    response = await client.post(
        "/orders",
        headers={**bob, "X-PAYMENT": proof},
        json={
            "cartId": cart["id"],
            "deliveryAddress": {"address": "1 Main St, Springfield, US", "countryCode": "US"},
        },
    )
    assert response.status_code in (400, 402), response.text
    assert (await client.get("/orders", headers=bob)).json()["orders"] == []
