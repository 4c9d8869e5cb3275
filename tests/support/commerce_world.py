"""One shopper's resources of every kind the Commerce API owns, made through the API: a cart
with a line, a completed order with a return, a subscription, a digital order with its
download, a webhook endpoint with deliveries and an unspent payment intent; and the Commerce
API's routes, read from the app the way /openapi.json reads them, with the ids to fill in."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.openapi import introspect
from tests.support.helpers import CERAMICS, LIMITED_MUG, add_item, fiat_entry, new_cart
from tests.support.lifecycle_support import complete, digital_order, get_order, order

COMMERCE_ROUTES = "commerce_agent.commerce.routes."
# Path parameters naming something anyone may read (the catalog), not a shopper's own.
PUBLIC_PARAMETERS = frozenset({"store_id", "catalog_id", "item_id", "image_id", "path"})
PUBLIC_IDS = {"store_id": CERAMICS, "catalog_id": "cat_ceramics_drinkware", "item_id": LIMITED_MUG}
SUBSCRIPTION_ITEM = ("store_lumen_studio", "item_unlimited_studio_monthly")


@dataclass
class World:
    """Ids of one shopper's resources, by path parameter; some routes need another order."""

    ids: dict[str, str]
    subscription_order: str
    digital_order: str
    return_order: dict[str, Any]
    intent_secret: str
    guest_token: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def path(self, template: str) -> str:
        """`template` with this shopper's ids: the right order for the route's action."""
        ids = dict(self.ids)
        if "/subscription/" in template:
            ids["order_id"] = self.subscription_order
        elif "/downloads/" in template:
            ids["order_id"] = self.digital_order
        return re.sub(r"{(\w+)}", lambda match: ids.get(match.group(1), "x"), template)


def commerce_endpoints(app: Starlette) -> list[introspect.Endpoint]:
    """Every route of the Commerce API (commerce/routes/), as /openapi.json lists them."""
    return [
        endpoint
        for endpoint in introspect.walk(app.router.routes)
        if endpoint.handler.__module__.startswith(COMMERCE_ROUTES)
    ]


def owned(endpoint: introspect.Endpoint) -> bool:
    """Whether the route reads or changes something that belongs to one principal."""
    return bool(set(endpoint.params) - PUBLIC_PARAMETERS)


async def _webhook(client: httpx.AsyncClient, headers: dict[str, str]) -> str:
    response = await client.post(
        "/webhooks",
        headers=headers,
        json={"url": "http://127.0.0.1:9/hook", "events": ["order.created", "order.confirmed"]},
    )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def build_world(app: Starlette, client: httpx.AsyncClient, headers: dict[str, str]) -> World:
    """Everything `headers`' shopper owns, one of each kind."""
    webhook_id = await _webhook(client, headers)
    cart = await new_cart(client, headers)
    cart = await add_item(client, headers, cart["id"], LIMITED_MUG)
    placed = await order(
        client,
        headers,
        CERAMICS,
        [("item_stoneware_dinner_plate", 2)],
        deliveryAddress={"address": "1 Main St, Springfield, US", "countryCode": "US"},
    )
    await complete(app, placed["id"])
    done = await get_order(client, headers, placed["id"])
    returned = await client.post(
        "/returns",
        headers=headers,
        json={
            "orderId": done["id"],
            "items": [{"cartItemId": done["items"][0]["id"], "quantity": 1, "reason": "damaged"}],
        },
    )
    assert returned.status_code == 201, returned.text
    subscription = await order(client, headers, SUBSCRIPTION_ITEM[0], [(SUBSCRIPTION_ITEM[1], 1)])
    digital = await digital_order(client, headers)
    await complete(app, digital["id"])
    digital = await get_order(client, headers, digital["id"])
    [access] = digital["metadata"]["dev.commerce.order.digital_access"]
    asset_id = access["url"].rstrip("/").rsplit("/", 1)[1]
    # A 402's intent, left unpaid: its client secret is the only credential for it.
    offered = await client.post(
        "/orders",
        headers=headers,
        json={
            "cartId": cart["id"],
            "deliveryAddress": {"address": "1 Main St, Springfield, US", "countryCode": "US"},
        },
    )
    assert offered.status_code == 402, offered.text
    intent = fiat_entry(offered.json())["extra"]
    guest = await client.post("/guest-tokens")
    assert guest.status_code == 201, guest.text
    row = await app.state.db.fetch_one(
        "SELECT id FROM webhook_deliveries WHERE subscription_id = :id LIMIT 1", {"id": webhook_id}
    )
    assert row is not None, "an order event was delivered to the webhook"
    return World(
        ids={
            "cart_id": cart["id"],
            "line_id": cart["items"][0]["cartItemId"],
            "order_id": done["id"],
            "return_id": returned.json()["id"],
            "webhook_id": webhook_id,
            "delivery_id": str(row["id"]),
            "intent_id": intent["paymentIntentId"],
            "asset_id": asset_id,
            "action": "pause",
            "code": "WELCOME10",
            **PUBLIC_IDS,
        },
        subscription_order=subscription["id"],
        digital_order=digital["id"],
        return_order=done,
        intent_secret=intent["clientSecret"],
        guest_token=guest.json()["guestToken"],
    )


@pytest.fixture
async def world(app: Starlette, client: httpx.AsyncClient, alice: dict[str, str]) -> World:
    """Alice's things, one of each kind (a fixture: tests/conftest.py makes it found)."""
    return await build_world(app, client, alice)


def good_bodies(world: World) -> dict[tuple[str, str], dict[str, Any] | None]:
    """A body each Commerce API write accepts (None: the route reads no body), by (method,
    path template): what the bad bodies are made from, and what another shopper sends."""
    done = world.return_order
    address = {"address": "1 Main St, Springfield, US", "countryCode": "US"}
    return {
        ("POST", "/carts"): {"storeId": CERAMICS},
        ("POST", "/carts/adopt"): {"guestToken": world.guest_token},
        ("POST", "/guest-tokens"): None,
        ("POST", "/carts/{cart_id}/items"): {"itemId": LIMITED_MUG, "quantity": 1},
        ("PATCH", "/carts/{cart_id}/items/{line_id}"): {"quantity": 2},
        ("POST", "/carts/{cart_id}/promotions"): {"type": "promo_code", "value": "WELCOME10"},
        ("PUT", "/carts/{cart_id}/shipping"): {"shippingMethodId": None},
        ("POST", "/items/{item_id}/reviews"): {"rating": 5, "comment": "Nice."},
        ("POST", "/orders"): {"cartId": world.ids["cart_id"], "deliveryAddress": address},
        ("POST", "/orders/{order_id}/cancel"): {"reason": "changed my mind"},
        ("POST", "/orders/{order_id}/ratings"): {"overall": 5, "comment": "Great"},
        ("POST", "/orders/{order_id}/tips"): {"amount": {"amount": "2.00", "currency": "USD"}},
        ("POST", "/orders/{order_id}/subscription/{action}"): None,
        ("POST", "/payments/sandbox/intents/{intent_id}/confirm"): {
            "clientSecret": world.intent_secret,
            "card": "4242424242424242",
        },
        ("POST", "/payments/stripe/webhook"): {"type": "payment_intent.succeeded"},
        ("PATCH", "/user/profile"): {"consentGiven": True},
        ("POST", "/returns"): {
            "orderId": done["id"],
            "items": [{"cartItemId": done["items"][0]["id"], "quantity": 1, "reason": "damaged"}],
        },
        ("POST", "/webhooks"): {"url": "http://127.0.0.1:9/other", "events": ["*"]},
        ("POST", "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"): None,
    }
