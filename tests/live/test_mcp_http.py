"""The MCP server over streamable HTTP, driven by the SDK's own client against a live server:
tools, quotes and elicitation before paying, resources, ownership, order notifications."""

from __future__ import annotations

import asyncio
import os
import warnings
from collections.abc import Iterator

import anyio
import httpx
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.subscriptions import ResourceUpdated

from tests.support.live import LiveServer, start_live_server
from tests.support.mcp_support import (
    ADDRESS,
    advance,
    approval_prompt,
    call,
    filled_cart,
    mcp_client,
    mint,
    quote_then_change_the_cart,
    quoted_cart,
    read_json,
    structured,
)

PUBLIC = {"list_stores", "get_store", "search_products", "get_catalog", "get_item"}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = start_live_server(os.path.join(tmp_path_factory.mktemp("mcp"), "live.db"))
    try:
        server.tokens["alice"] = asyncio.run(mint(server.db_path))
        server.tokens["bob"] = asyncio.run(mint(server.db_path, "user_bob"))
        yield server
    finally:
        server.stop()


async def test_without_a_token_only_public_tools_are_listed(live: LiveServer) -> None:
    async with mcp_client(live.url) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == PUBLIC
        assert all(tool.annotations and tool.annotations.read_only_hint
                   for tool in listed.values())
        found = await call(client, "search_products", {"query": "mug"})
        assert found["results"]
        refused = await client.call_tool("create_cart", {"storeId": "store_ceramics"})
        assert refused.is_error
        assert structured(refused)["error"]["code"] == "authorization_required"


async def test_tools_carry_titles_schemas_and_hints(live: LiveServer) -> None:
    async with mcp_client(live.url, live.tokens["alice"]) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert PUBLIC < set(listed)
    place = listed["place_order"]
    assert place.title == "Place order" and place.description
    assert place.annotations is not None and place.annotations.destructive_hint
    assert not place.annotations.read_only_hint
    assert {"cartId", "quoteId", "x402Payment"} <= set(place.input_schema["properties"])
    assert listed["get_order"].annotations.read_only_hint  # type: ignore[union-attr]
    add = listed["add_to_cart"].annotations
    assert add is not None and not add.read_only_hint and not add.destructive_hint


def test_protected_resource_metadata_and_bad_tokens(live: LiveServer) -> None:
    metadata = httpx.get(f"{live.url}/.well-known/oauth-protected-resource/mcp").json()
    assert metadata["resource"] == f"{live.url}/mcp"
    assert metadata["commerce_sign_in_url"] == f"{live.url}/account/sign-in"
    assert metadata["commerce_token_url"] == f"{live.url}/auth/token"
    refused = httpx.post(f"{live.url}/mcp", json={}, headers={"Authorization": "Bearer nope"})
    assert refused.status_code == 401
    assert "resource_metadata=" in refused.headers["www-authenticate"]


async def test_quote_then_confirm_by_quote_id_pays_once(live: LiveServer) -> None:
    async with mcp_client(live.url, live.tokens["alice"]) as client:
        cart_id = await filled_cart(client)
        quoted = await call(client, "place_order", {"cartId": cart_id,
                                                    "deliveryAddress": ADDRESS})
        assert quoted["status"] == "confirmation_required"
        quote = quoted["quote"]
        # one mug at 18.00 and Standard shipping 8.50
        assert quote["total"]["amount"] == "26.50" and quote["cart"]["items"]
        assert quote["payment"]["x402"][0]["scheme"] == "exact"
        order = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        assert order["status"] == "confirmed"
        again = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        assert again["orderId"] == order["orderId"]  # not charged twice
        doc = await read_json(client, f"commerce://orders/{order['orderId']}")
        assert doc["id"] == order["orderId"] and doc["status"] == "confirmed"
        orders = await read_json(client, "commerce://orders")
        assert order["orderId"] in [entry["id"] for entry in orders["orders"]]
    async with mcp_client(live.url, live.tokens["bob"]) as bob:
        stolen = await bob.call_tool("place_order", {"quoteId": quote["quoteId"]})
        assert structured(stolen)["error"]["code"] == "quote_not_found"
        with pytest.raises(MCPError):
            await bob.read_resource(f"commerce://orders/{order['orderId']}")
        with pytest.raises(MCPError):
            await bob.read_resource(f"commerce://carts/{cart_id}")
        viewed = await bob.call_tool("view_cart", {"cartId": cart_id})
        assert viewed.is_error
        got = await bob.call_tool("get_order", {"orderId": order["orderId"]})
        assert got.is_error


async def _answer(accept: bool) -> types.ElicitResult:
    if accept:
        return types.ElicitResult(action="accept", content={"confirm": True})
    return types.ElicitResult(action="decline")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_elicitation_confirms_or_declines(live: LiveServer, mode: str) -> None:
    prompts: list[str] = []
    answer = {"accept": False}

    async def elicit(context: object, params: types.ElicitRequestParams
                     ) -> types.ElicitResult:
        prompts.append(params.message)
        return await _answer(answer["accept"])

    async with mcp_client(live.url, live.tokens["alice"], elicitation_callback=elicit,
                          mode=mode) as client:
        cart_id = await filled_cart(client)
        args = {"cartId": cart_id, "deliveryAddress": ADDRESS}
        declined = await client.call_tool("place_order", args)
        assert structured(declined)["error"]["code"] == "rejected_by_user"
        assert (await read_json(client, f"commerce://carts/{cart_id}"))["status"] == "active"
        answer["accept"] = True
        order = await call(client, "place_order", args)
        assert order["status"] == "confirmed"
        assert "Total to pay: $26.50" in prompts[-1] and len(prompts) == 2


@pytest.mark.parametrize(("language", "locale", "mode"), [
    (None, "en", "auto"), (None, "en", "legacy"), ("fr-FR,fr;q=0.9", "fr", "auto"),
    ("ja", "ja", "legacy")])
async def test_cancel_asks_with_the_agents_prompt(live: LiveServer, language: str | None,
                                                  locale: str, mode: str) -> None:
    """The policy of the agent's turn holds over MCP: cancel_order asks first, with the very
    prompt an agent session shows (in the request's language); declined, nothing changes."""
    prompts: list[str] = []
    answer = {"accept": True}

    async def elicit(context: object, params: types.ElicitRequestParams
                     ) -> types.ElicitResult:
        prompts.append(params.message)
        return await _answer(answer["accept"])

    headers = {"Accept-Language": language} if language else {}
    async with mcp_client(live.url, live.tokens["alice"], headers=headers, mode=mode,
                          elicitation_callback=elicit) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "quoteId" in listed["cancel_order"].input_schema["properties"]
        assert "quoteId" in listed["change_subscription"].input_schema["properties"]
        assert "quoteId" not in listed["add_to_cart"].input_schema["properties"]
        cart_id = await filled_cart(client)
        order = await call(client, "place_order", {"cartId": cart_id,
                                                   "deliveryAddress": ADDRESS})
        args = {"orderId": order["orderId"]}
        uri = f"commerce://orders/{order['orderId']}"
        answer["accept"] = False
        declined = await client.call_tool("cancel_order", args)
        error = structured(declined)["error"]
        assert error["code"] == "rejected_by_user"
        assert error["details"] == [{"tool": "cancel_order", "changed": False, **args}]
        assert order["orderId"] in error["message"]
        assert (await read_json(client, uri))["status"] == "confirmed"
        expected = await approval_prompt(live.db_path, "cancel_order", args, locale)
        assert prompts[-1] == expected and order["orderId"] in expected
        answer["accept"] = True
        cancelled = await call(client, "cancel_order", args)
        assert cancelled["status"] == "cancelled" and prompts[-1] == expected
        assert (await read_json(client, uri))["status"] == "cancelled"


async def test_a_subscribed_order_sends_updates(live: LiveServer) -> None:
    async with mcp_client(live.url, live.tokens["alice"]) as client:
        _, quote = await quoted_cart(client)
        order = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        uri = f"commerce://orders/{order['orderId']}"
        async with client.listen(resource_subscriptions=[uri]) as updates:
            status = await advance(live.db_path, order["orderId"])
            with anyio.fail_after(20):
                event = await updates.__anext__()
        assert event == ResourceUpdated(uri=uri)
        assert (await read_json(client, uri))["status"] == status
    async with mcp_client(live.url, live.tokens["bob"]) as bob:
        async with bob.listen(resource_subscriptions=[uri]) as other:
            assert not other.honored.resource_subscriptions


async def test_pays_with_an_x402_exact_payload_for_the_quote(live: LiveServer) -> None:
    from eth_account import Account

    from commerce_agent.commerce.payments.exact import sign_exact_payment

    wallet = Account.create()
    async with mcp_client(live.url, live.tokens["alice"]) as client:
        _, quote = await quoted_cart(client)
        proof = sign_exact_payment(wallet.key.hex(), quote["payment"]["x402"][0])
        order = await call(client, "place_order", {"quoteId": quote["quoteId"],
                                                   "x402Payment": proof})
        assert order["status"] == "confirmed"
        assert order["payment"]["payer"].lower() == wallet.address.lower()


async def test_a_quote_lapses_when_the_cart_changes(live: LiveServer) -> None:
    async with mcp_client(live.url, live.tokens["alice"]) as client:
        args, quote = await quote_then_change_the_cart(client, quantity=2)
        cart_id = args["cartId"]
        other = await client.call_tool("place_order", {**args, "cartId": "cart_other",
                                                       "quoteId": quote["quoteId"]})
        assert structured(other)["error"]["code"] == "quote_mismatch"
        assert (await read_json(client, f"commerce://carts/{cart_id}"))["status"] == "active"


async def test_legacy_sessions_hear_subscribed_orders(live: LiveServer) -> None:
    heard: list[str] = []
    arrived = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(message.params.uri)
            arrived.set()

    async with mcp_client(live.url, live.tokens["alice"], mode="legacy",
                          message_handler=on_message) as client:
        _, quote = await quoted_cart(client)
        order = await call(client, "place_order", {"quoteId": quote["quoteId"]})
        uri = f"commerce://orders/{order['orderId']}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.subscribe_resource(uri)
        await advance(live.db_path, order["orderId"])
        with anyio.fail_after(20):
            await arrived.wait()
    assert heard == [uri]


def test_a_session_stays_with_the_caller_who_opened_it(live: LiveServer) -> None:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}}
    accept = {"Accept": "application/json, text/event-stream"}
    opened = httpx.post(f"{live.url}/mcp", json=initialize, headers={
        **accept, "Authorization": f"Bearer {live.tokens['alice']}"}, timeout=10)
    assert opened.status_code == 200
    session = opened.headers["mcp-session-id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    taken = httpx.post(f"{live.url}/mcp", json=listing, headers={
        **accept, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25",
        "Authorization": f"Bearer {live.tokens['bob']}"}, timeout=10)
    assert taken.status_code == 404
    anonymous = httpx.post(f"{live.url}/mcp", json=listing, headers={
        **accept, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"},
        timeout=10)
    assert anonymous.status_code == 404


async def test_spending_arguments_are_checked(live: LiveServer) -> None:
    async with mcp_client(live.url, live.tokens["alice"]) as client:
        for args in ({"quoteId": "q" * 500}, {}, {"cartId": "c", "tip": 1}):
            refused = await client.call_tool("place_order", args)
            assert structured(refused)["error"]["code"] == "invalid_arguments", args
        unknown = await client.call_tool("place_order", {"quoteId": "quote_nothing"})
        assert structured(unknown)["error"]["code"] == "quote_not_found"


async def test_resources_list_read_and_templates(live: LiveServer) -> None:
    async with mcp_client(live.url) as public:
        uris = {resource.uri for resource in (await public.list_resources()).resources}
        assert "commerce://stores" in uris and "commerce://orders" not in uris
        catalog_uri = next(uri for uri in uris if uri.startswith("commerce://catalogs/"))
        catalog = await read_json(public, catalog_uri)
        assert catalog["id"] == catalog_uri.rsplit("/", 1)[1] and catalog["items"]
        store = await read_json(public, "commerce://stores/store_ceramics")
        assert store["id"] == "store_ceramics"
        templates = (await public.list_resource_templates()).resource_templates
        assert {template.name for template in templates} == {"store", "catalog", "cart",
                                                             "order"}
        for uri in ("commerce://orders", "commerce://stores/nope", "https://example.com/"):
            with pytest.raises(MCPError):
                await public.read_resource(uri)
    async with mcp_client(live.url, live.tokens["alice"]) as client:
        uris = {resource.uri for resource in (await client.list_resources()).resources}
        assert "commerce://orders" in uris
