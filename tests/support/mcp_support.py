"""The MCP SDK's own client, connected to a live server or in memory to an app's server, and a
shopper's first steps."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from commerce_agent.auth.tokens import Principal, mint_token
from commerce_agent.commerce.services.fulfillment import simulator
from commerce_agent.db import database_for
from commerce_agent.mcp.server import build_server
from commerce_agent.mcp.shop import Shop
from commerce_agent.operations import ToolContext, all_tools, policy
from commerce_agent.settings import Settings

MUG = "item_limited_glaze_mug"
ADDRESS = {"address": "1 Main St, Springfield", "countryCode": "US"}


@asynccontextmanager
async def mcp_client(url: str, token: str | None = None, *,
                     headers: dict[str, str] | None = None, **options: Any
                     ) -> AsyncIterator[Client]:
    headers = {**(headers or {}), **({"Authorization": f"Bearer {token}"} if token else {})}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            Client(streamable_http_client(url + "/mcp", http_client=http),
                   **options) as client:
        yield client


@asynccontextmanager
async def in_memory(app: Any, principal: Principal | None, **options: Any
                    ) -> AsyncIterator[Client]:
    """The SDK's client connected in memory to a server of `app` acting for `principal`, as
    stdio does (no HTTP: no bearer token, no Accept-Language)."""
    shop = dataclasses.replace(Shop.of_app(app), principal=principal)
    server, subscriptions = build_server(shop)
    try:
        async with Client(server, **options) as client:
            yield client
    finally:
        await subscriptions.close()


def structured(result: Any) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict), result
    return result.structured_content


async def call(client: Client, name: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    assert not result.is_error, result.content
    return structured(result)


async def filled_cart(client: Client) -> str:
    cart = await call(client, "create_cart", {"storeId": "store_ceramics"})
    await call(client, "add_to_cart", {"cartId": cart["cartId"], "itemId": MUG, "quantity": 1})
    return str(cart["cartId"])


async def quoted_cart(client: Client) -> tuple[str, dict[str, Any]]:
    """A filled cart and the quote `place_order` answers for it: nothing is placed yet."""
    cart_id = await filled_cart(client)
    args = {"cartId": cart_id, "deliveryAddress": ADDRESS}
    quote: dict[str, Any] = (await call(client, "place_order", args))["quote"]
    return cart_id, quote


async def quote_then_change_the_cart(client: Client, quantity: int
                                     ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A quote, then its cart's line set to `quantity`: confirming the quote is refused as
    `quote_changed`. Gives the arguments that were quoted and the quote."""
    cart_id, quote = await quoted_cart(client)
    line = quote["cart"]["items"][0]["cartItemId"]
    await call(client, "update_cart_item", {"cartId": cart_id, "cartItemId": line,
                                            "quantity": quantity})
    stale = await client.call_tool("place_order", {"quoteId": quote["quoteId"]})
    assert stale.is_error and structured(stale)["error"]["code"] == "quote_changed", stale
    return {"cartId": cart_id, "deliveryAddress": ADDRESS}, quote


async def read_json(client: Client, uri: str) -> Any:
    result = await client.read_resource(uri)
    return json.loads(result.contents[0].text)  # type: ignore[union-attr]


async def approval_prompt(db_path: str, tool_name: str, args: dict[str, Any],
                          locale: str, user_id: str = "user_alice") -> str:
    """The prompt the agent's policy writes for this call, read from the database file."""
    tool = next(tool for tool in all_tools() if tool.short_name == tool_name)
    database = database_for(db_path)
    await database.open()
    try:
        context = ToolContext(database, Settings(db_path=db_path), "", Principal(user_id, "", ""),
                              "prompt")
        return await policy.prompt(tool, context, args, locale)
    finally:
        await database.close()


async def advance(db_path: str, order_id: str) -> str:
    """Move an order one step on, as the merchant command does (another process)."""
    database = database_for(db_path)
    await database.open()
    try:
        async with database.transaction() as tx:
            after = await simulator.advance(tx, order_id, "http://127.0.0.1", None)
        return str(after["status"])
    finally:
        await database.close()


async def mint(db_path: str, user_id: str = "user_alice") -> str:
    """A bearer token for a demo user of the (migrated, seeded) database file."""
    database = database_for(db_path)
    await database.open()
    try:
        async with database.transaction() as tx:
            return await mint_token(tx, user_id, "test")
    finally:
        await database.close()
