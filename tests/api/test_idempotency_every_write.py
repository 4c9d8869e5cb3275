"""Idempotency-Key on every Commerce API write that documents it (read from /openapi.json, so
a new write joins by itself): the same key and body replay the first 2xx answer — status,
body and Location — marked Idempotent-Replayed and without doing the work again; the same key
with another body is 409; a refusal is not kept, so the key can be used again; and another
principal's request with the same key is never answered with the first one's result."""

from __future__ import annotations

import itertools
import json
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from tests.support.commerce_world import World, commerce_endpoints, good_bodies
from tests.support.helpers import assert_error
from tests.support.openapi import fetch_document

KEY_PARAMETER = "#/components/parameters/IdempotencyKey"
_keys = itertools.count()


async def keyed_writes(app: Starlette, client: httpx.AsyncClient) -> list[tuple[str, str]]:
    document = await fetch_document(client)
    found = []
    for endpoint in commerce_endpoints(app):
        operation = document["paths"][endpoint.path].get(endpoint.method.lower(), {})
        if {"$ref": KEY_PARAMETER} in operation.get("parameters", []):
            found.append((endpoint.method, endpoint.path))
    return sorted(found, key=lambda route: (route[0] == "DELETE", route))  # removals last


async def send(
    client: httpx.AsyncClient,
    method: str,
    path: str,
    headers: dict[str, str],
    key: str,
    body: dict[str, Any] | None,
) -> httpx.Response:
    extra = {"json": body} if body is not None else {}
    return await client.request(method, path, headers={**headers, "Idempotency-Key": key}, **extra)


# Another body each route accepts (the body is decoded before the key is looked up).
OTHER_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/carts"): {"storeId": "store_ebooks"},
    ("POST", "/carts/adopt"): {"guestToken": "gt_another"},
    ("POST", "/carts/{cart_id}/items"): {"itemId": "item_limited_glaze_mug", "quantity": 2},
    ("PATCH", "/carts/{cart_id}/items/{line_id}"): {"quantity": 3},
    ("POST", "/carts/{cart_id}/promotions"): {"type": "promo_code", "value": "OTHER"},
    ("PUT", "/carts/{cart_id}/shipping"): {"shippingMethodId": "ship_other"},
    ("POST", "/items/{item_id}/reviews"): {"rating": 4},
    ("POST", "/orders/{order_id}/cancel"): {"reason": "another reason"},
    ("POST", "/orders/{order_id}/ratings"): {"overall": 4},
    ("POST", "/orders/{order_id}/tips"): {"amount": {"amount": "3.00", "currency": "USD"}},
    ("PATCH", "/user/profile"): {"consentGiven": False},
    ("POST", "/webhooks"): {"url": "http://127.0.0.1:9/third", "events": ["*"]},
    ("POST", "/returns"): {
        "orderId": "ord_other",
        "items": [{"cartItemId": "line_other", "quantity": 1}],
    },
    ("POST", "/orders"): {"cartId": "cart_other"},
}


async def test_every_keyed_write_replays_refuses_and_keeps_its_keys_apart(
    app: Starlette,
    client: httpx.AsyncClient,
    alice: dict[str, str],
    bob: dict[str, str],
    world: World,
) -> None:
    routes = await keyed_writes(app, client)
    assert len(routes) >= 15, routes
    bodies = good_bodies(world)
    replayed = 0
    for method, template in routes:
        path, body = world.path(template), bodies.get((method, template))
        key = f"matrix-{next(_keys)}"
        what = f"{method} {template}"
        first = await send(client, method, path, alice, key, body)
        assert first.status_code < 500, (what, first.text)
        again = await send(client, method, path, alice, key, body)
        if 200 <= first.status_code < 300:
            replayed += 1
            assert again.headers.get("idempotent-replayed") == "true", what
            assert again.status_code == first.status_code, what
            assert again.content == first.content, what
            assert again.headers.get("location") == first.headers.get("location"), what
            if body is not None:
                other = OTHER_BODIES[(method, template)]
                assert_error(
                    await send(client, method, path, alice, key, other),
                    409,
                    "idempotency_key_reused",
                )
        else:  # a refusal is not kept: the same request is judged again
            assert "idempotent-replayed" not in again.headers, (what, again.text)
        # Bob, with Alice's key: his own answer, never hers.
        theirs = await send(client, method, path, bob, key, body)
        assert "idempotent-replayed" not in theirs.headers, (what, theirs.text)
        made = first.json().get("id") if 200 <= first.status_code < 300 and first.content else None
        if made is not None and theirs.content:
            assert theirs.json().get("id") != made, what  # not Alice's cart, order, hook…
    assert replayed >= 8, replayed


async def test_a_replayed_creation_creates_once(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], world: World
) -> None:
    for path, body, table in (
        ("/carts", {"storeId": "store_ceramics"}, "carts"),
        ("/webhooks", {"url": "http://127.0.0.1:9/once", "events": ["*"]}, "webhook_subscriptions"),
        (
            f"/carts/{world.ids['cart_id']}/items",
            {"itemId": "item_stoneware_dinner_plate", "quantity": 1},
            "cart_items",
        ),
    ):
        before = await app.state.db.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")  # noqa: S608
        answers = [await send(client, "POST", path, alice, f"once-{table}", body) for _ in range(3)]
        after = await app.state.db.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")  # noqa: S608
        assert after["n"] == before["n"] + 1, (table, [a.text for a in answers])
        assert len({answer.content for answer in answers}) == 1
    cart = (await client.get(f"/carts/{world.ids['cart_id']}", headers=alice)).json()
    plates = [line for line in cart["items"] if line["itemId"] == "item_stoneware_dinner_plate"]
    assert [line["quantity"] for line in plates] == [1]  # added once, not three times


@pytest.mark.parametrize("key", ["", "x" * 256, "tab\there", "new\nline", "\u200b"])
async def test_a_malformed_key_is_400_before_anything_is_written(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], key: str
) -> None:
    response = await client.post(
        "/carts",
        json={"storeId": "store_ceramics"},
        headers={**alice, "Idempotency-Key": key.encode("utf-8") if not key.isascii() else key},
    )
    error = assert_error(response, 400, "bad_request")
    assert error["details"][0]["field"] == "Idempotency-Key"
    carts = await app.state.db.fetch_one("SELECT COUNT(*) AS n FROM carts")
    assert carts["n"] == 0
    assert json.loads(response.text)["status"] == 400
