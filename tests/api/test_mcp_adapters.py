"""The MCP adapters in-process (commerce_agent/mcp): resources read as the Commerce API's
documents, another customer's cart or order reads as not found, and the tool registry is
described with the hints its effects imply and failures in the API's error shape."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette

from commerce_agent.auth.tokens import Principal
from commerce_agent.errors import CommerceError
from commerce_agent.mcp import resources, tools
from commerce_agent.mcp.shop import Shop
from tests.support.helpers import new_cart

ALICE = Principal("user_alice", "alice@example.com", "Alice")
BOB = Principal("user_bob", "bob@example.com", "Bob")


def _code(error: MCPError) -> int:
    return int(error.error.code)


@pytest.mark.parametrize(("uri", "expected"), [
    ("commerce://orders/ord_1", "ord_1"), ("commerce://orders/", None),
    ("commerce://orders", None), ("commerce://orders/ord_1/items", None),
    ("commerce://carts/ord_1", None), ("https://orders/ord_1", None),
])
def test_order_id_of(uri: str, expected: str | None) -> None:
    assert resources.order_id_of(uri) == expected
    if expected:
        assert resources.order_uri(expected) == uri


NOT_FOUND: list[tuple[Principal | None, str]] = [
    (ALICE, "https://example.com/stores"),
    (ALICE, "commerce://planets"),
    (ALICE, "commerce://stores/store_nowhere"),
    (ALICE, "commerce://stores/store_ceramics/extra"),
    (ALICE, "commerce://catalogs/catalog_nowhere"),
    (None, "commerce://orders"),  # orders and carts are a signed-in caller's
    (None, "commerce://carts/cart_x"),
    (ALICE, "commerce://orders/ord_nowhere"),
    (ALICE, "commerce://carts/cart_nowhere"),
]


async def test_unknown_or_private_resources_read_as_not_found(app: Starlette) -> None:
    for principal, uri in NOT_FOUND:
        with pytest.raises(MCPError) as raised:
            await resources.document(Shop.of_app(app), principal, uri)
        assert _code(raised.value) == resources.RESOURCE_NOT_FOUND, uri
        assert raised.value.error.data == {"uri": uri}


async def test_public_resources_are_the_apis_documents(app: Starlette,
                                                       client: httpx.AsyncClient) -> None:
    shop = Shop.of_app(app)
    listed = await resources.document(shop, None, "commerce://stores")
    over_http = (await client.get("/stores", params={"limit": 100})).json()
    assert [store["id"] for store in listed["stores"]] == [
        store["id"] for store in over_http["stores"]]
    store = await resources.document(shop, None, "commerce://stores/store_ceramics")
    assert store == (await client.get("/stores/store_ceramics")).json()
    read = await resources.read(shop, None, "commerce://stores/store_ceramics")
    assert read.contents[0].mime_type == "application/json"
    assert json.loads(read.contents[0].text) == store  # type: ignore[union-attr]


async def test_a_cart_is_its_owners_only(app: Starlette, client: httpx.AsyncClient,
                                         alice: dict[str, str]) -> None:
    cart = await new_cart(client, alice, "store_ceramics")
    shop = Shop.of_app(app)
    uri = f"commerce://carts/{cart['id']}"
    mine = await resources.document(shop, ALICE, uri)
    assert mine["id"] == cart["id"] and mine["storeId"] == "store_ceramics"
    with pytest.raises(MCPError) as raised:
        await resources.document(shop, BOB, uri)
    assert _code(raised.value) == resources.RESOURCE_NOT_FOUND


async def test_the_listing_adds_the_callers_orders_only_when_signed_in(app: Starlette) -> None:
    shop = Shop.of_app(app)
    public = [resource.uri for resource in await resources.listing(shop, None)]
    assert "commerce://stores" in public and "commerce://stores/store_ceramics" in public
    assert any(uri.startswith("commerce://catalogs/") for uri in public)
    assert "commerce://orders" not in public
    signed_in = [resource.uri for resource in await resources.listing(shop, ALICE)]
    assert signed_in[:len(public)] == public and "commerce://orders" in signed_in
    orders = await resources.document(shop, ALICE, "commerce://orders")
    assert set(orders) == {"orders", "total"}
    assert len(orders["orders"]) <= resources.RECENT_ORDERS


# --- tools -----------------------------------------------------------------------------------

def test_tools_of_the_commerce_connection_need_a_caller() -> None:
    registry = tools.registry()
    public = {tool.short_name for tool in tools.visible(registry, None)}
    everything = {tool.short_name for tool in tools.visible(registry, ALICE)}
    assert everything == set(registry) and public < everything
    assert {"list_stores", "search_products", "get_item"} <= public
    assert not public & {"create_cart", "place_order", "view_cart", "cancel_order"}


@pytest.mark.parametrize(("name", "read_only", "destructive", "asks"), [
    ("search_products", True, False, False),
    ("add_to_cart", False, False, False),
    ("remove_cart_item", False, True, False),  # removes something: destructive, no approval
    ("place_order", False, True, True),  # spends money: approval through checkout
    ("cancel_order", False, True, True),
])
def test_each_tool_is_described_with_the_hints_of_its_effect(
        name: str, read_only: bool, destructive: bool, asks: bool) -> None:
    tool = tools.registry()[name]
    described = tools.describe(tool)
    hints = described.annotations
    assert hints is not None
    assert (hints.read_only_hint, hints.destructive_hint) == (read_only, destructive)
    assert hints.idempotent_hint is read_only and hints.open_world_hint is False
    assert described.name == name and described.title == tool.display_title
    assert ("quoteId" in described.input_schema.get("properties", {})) is asks
    assert described.description is not None
    assert described.description.startswith(tool.description)
    assert (described.description != tool.description) is asks


@pytest.mark.parametrize(("details", "listed"), [
    (None, []), ({"field": "/cartId"}, [{"field": "/cartId"}]),
    ([{"field": "/a"}, {"field": "/b"}], [{"field": "/a"}, {"field": "/b"}]),
])
def test_a_failed_tool_carries_the_error_body(details: Any, listed: list[Any]) -> None:
    result = tools.failed("cart_not_found", "No such cart.", details)
    body = {"error": {"code": "cart_not_found", "message": "No such cart.", "details": listed}}
    assert result.is_error is True and result.structured_content == body
    assert json.loads(result.content[0].text) == body  # type: ignore[union-attr]


def test_failures_and_successes_as_tool_results() -> None:
    refused = tools.failure(CommerceError(409, "invalid_transition", "Not now.",
                                          details=[{"field": "/status"}]))
    assert refused.structured_content == {"error": {
        "code": "invalid_transition", "message": "Not now.", "details": [{"field": "/status"}]}}
    hidden = tools.unexpected()
    assert hidden.structured_content == {"error": {
        "code": "internal_error", "message": "The server failed to handle this request.",
        "details": []}}
    listed = tools.ok([1, 2])
    assert listed.structured_content == {"result": [1, 2]} and not listed.is_error
    document = tools.ok({"id": "ord_1", "note": "café"})
    assert document.structured_content == {"id": "ord_1", "note": "café"}
    assert "café" in document.content[0].text  # type: ignore[union-attr]


def test_over_stdio_the_process_is_the_caller(app: Starlette) -> None:
    shop = Shop.of_app(app)
    assert shop.caller(None) is None and shop.locale(None) == ""
    shop.principal = ALICE
    assert shop.caller(None) == ALICE
    first, second = shop.context(ALICE), shop.context(ALICE)
    assert first.idempotency_key != second.idempotency_key
    assert first.idempotency_key.startswith("mcp-")
    assert shop.context(ALICE, "k1").idempotency_key == "k1"
