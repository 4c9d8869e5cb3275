"""MCP errors: a tool that fails answers `isError` content carrying the Commerce API's error
body {code, message, details}; a protocol problem a JSON-RPC error code (-32602, -32002,
-32603, -32700); never a Python exception's own text, never code 0. Over streamable HTTP
against a live server on both backends, and in-process through the SDK's JSON-RPC session for
failures only a broken handler can cause."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette

from commerce_agent.mcp import resources, server, tools
from commerce_agent.mcp.shop import Shop
from tests.support.live import LiveServer
from tests.support.mcp_support import mcp_client, mint

pytestmark = pytest.mark.both_backends
SECRET = "psycopg.DataError: PostgreSQL text fields cannot contain NUL (0x00) bytes"


def _error_body(result: Any) -> dict[str, Any]:
    assert result.is_error, result
    body: dict[str, Any] = result.structured_content["error"]
    assert set(body) == {"code", "message", "details"}, body
    assert isinstance(body["details"], list)
    assert json.loads(result.content[0].text) == {"error": body}
    return body


async def test_tool_failures_carry_the_error_body(live_server: LiveServer) -> None:
    token = await mint(live_server.db_path)
    async with mcp_client(live_server.url, token) as client:
        missing = _error_body(await client.call_tool("get_store", {"storeId": "nope"}))
        assert missing["code"] == "store_not_found"
        invalid = _error_body(await client.call_tool("get_item", {"itemId": 5}))
        assert invalid["code"] == "invalid_arguments"
        for name, args in (("get_store", {"storeId": "store\u0000"}),
                           ("search_products", {"query": "mug\u0000"}),
                           ("create_cart", {"storeId": "x\u0000"}),
                           ("get_order", {"orderId": "ord\u0000"})):
            nul = _error_body(await client.call_tool(name, args))
            assert nul["code"] == "invalid_arguments", (name, nul)
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("no_such_tool", {})
        assert unknown.value.error.code == -32602
        with pytest.raises(MCPError) as resource:
            await client.read_resource("commerce://stores/x\u0000")
        assert resource.value.error.code == resources.RESOURCE_NOT_FOUND


@pytest.mark.parametrize("body", [b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "ping"}',
                                  b'{"jsonrpc": "2.0", "id": 1, "method": "ping\xff"}',
                                  b'{"jsonrpc": "2.0", "id": 1, "method": ' + b"[" * 100
                                  + b"]" * 100 + b"}"])
def test_a_malformed_message_is_a_parse_error(live_server: LiveServer, body: bytes) -> None:
    response = httpx.post(f"{live_server.url}/mcp", content=body, timeout=10, headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == -32700
    assert error["data"]["code"] == "bad_request"


def _broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """get_store fails as a database error would, and so does reading any resource."""
    original = tools.registry

    async def boom(*_: Any) -> Any:
        raise RuntimeError(SECRET)

    def registry() -> dict[str, Any]:
        found = original()
        found["get_store"] = dataclasses.replace(found["get_store"], run=boom)
        return found

    monkeypatch.setattr(tools, "registry", registry)
    monkeypatch.setattr(resources, "document", boom)


async def test_an_unexpected_failure_never_shows_python_text(
        app: Starlette, monkeypatch: pytest.MonkeyPatch) -> None:
    _broken(monkeypatch)
    mcp_server, subscriptions = server.build_server(Shop.of_app(app))
    try:
        async with Client(mcp_server, mode="legacy") as client:
            failed = _error_body(await client.call_tool("get_store", {"storeId": "x"}))
            assert failed == {"code": "internal_error", "message": tools.INTERNAL_MESSAGE,
                              "details": []}
            with pytest.raises(MCPError) as refused:
                await client.read_resource("commerce://stores")
            assert refused.value.error.code == -32603
            assert SECRET not in str(refused.value.error)
            assert refused.value.error.data["code"] == "internal_error"
    finally:
        await subscriptions.close()
