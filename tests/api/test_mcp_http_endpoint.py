"""/mcp in-process, spoken as raw JSON-RPC over streamable HTTP: a session belongs to the caller
who opened it, bad tokens and malformed messages get the protocol's answers with the Commerce
API's error body, and the stdio bridge adds the routing headers a 2026 request needs."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp.shared.inbound import MCP_METHOD_HEADER, MCP_NAME_HEADER, MCP_PROTOCOL_VERSION_HEADER
from starlette.applications import Starlette

from commerce_agent.mcp import transports
from commerce_agent.settings import Settings
from tests.support.app import running

VERSION = "2025-06-18"
ACCEPT = {"Accept": "application/json, text/event-stream"}


def answer(response: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC message of a response, sent as JSON or as one SSE `message` event."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        (data,) = [line[5:].strip() for line in response.text.splitlines()
                   if line.startswith("data:")]
        message: dict[str, Any] = json.loads(data)
        return message
    body: dict[str, Any] = response.json()
    return body


class Rpc:
    """One MCP session over HTTP: initialize, then numbered requests with its session id."""

    def __init__(self, http: httpx.AsyncClient, headers: dict[str, str] | None = None) -> None:
        self.http, self.headers = http, {**ACCEPT, **(headers or {})}
        self.session_id = ""
        self.number = 0

    async def post(self, message: Any, **headers: str) -> httpx.Response:
        sent = {**self.headers, **headers}
        if self.session_id:
            sent |= {"mcp-session-id": self.session_id, MCP_PROTOCOL_VERSION_HEADER: VERSION}
        content = message if isinstance(message, bytes) else json.dumps(message).encode()
        return await self.http.post("/mcp", content=content,
                                    headers={"Content-Type": "application/json", **sent})

    async def open(self) -> dict[str, Any]:
        opened = await self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": VERSION, "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}})
        assert opened.status_code == 200, opened.text
        self.session_id = opened.headers["mcp-session-id"]
        done = await self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert done.status_code == 202
        return answer(opened)

    async def request(self, method: str, params: dict[str, Any] | None = None,
                      **headers: str) -> tuple[int, dict[str, Any]]:
        self.number += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.number, "method": method}
        if params is not None:
            message["params"] = params
        response = await self.post(message, **headers)
        return response.status_code, answer(response)


@pytest.fixture
async def http(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://test") as client:
        yield client


async def test_a_session_answers_tools_and_protocol_errors(http: httpx.AsyncClient,
                                                           alice: dict[str, str]) -> None:
    rpc = Rpc(http, alice)
    opened = await rpc.open()
    assert opened["result"]["protocolVersion"] == VERSION
    assert opened["result"]["capabilities"]["resources"]["subscribe"] is True
    status, stores = await rpc.request("tools/call", {"name": "list_stores", "arguments": {}})
    assert status == 200 and not stores["result"].get("isError")
    listed = json.loads(stores["result"]["content"][0]["text"])
    assert "store_ceramics" in [store["storeId"] for store in listed["stores"]]
    _, unknown = await rpc.request("nope/nope")
    assert unknown["error"]["code"] == types.METHOD_NOT_FOUND
    _, no_tool = await rpc.request("tools/call", {"name": "drop_tables", "arguments": {}})
    assert no_tool["error"]["code"] == types.INVALID_PARAMS
    _, nul = await rpc.request("resources/read", {"uri": "commerce://orders/\u0000"})
    assert nul["error"]["data"] == {"uri": "commerce://orders/\\u0000"}
    _, garbled = await rpc.request("tools/call", {"name": "search_products",
                                                  "arguments": {"query": "mug\u0000"}})
    assert garbled["result"]["isError"] is True
    assert garbled["result"]["structuredContent"]["error"]["code"] == "invalid_arguments"


@pytest.mark.parametrize(("body", "reason"), [
    (b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "ping"}', "duplicate key"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": ', None),
    (b"\xff\xfe", None),
])
async def test_a_malformed_message_is_a_parse_error_with_the_api_body(
        http: httpx.AsyncClient, alice: dict[str, str], body: bytes,
        reason: str | None) -> None:
    rpc = Rpc(http, alice)
    await rpc.open()
    response = await rpc.post(body)
    assert response.status_code == 400
    message = response.json()
    assert message["id"] is None and message["error"]["code"] == -32700
    data = message["error"]["data"]
    assert data["code"] == "bad_request" and data["message"] == message["error"]["message"]
    if reason:
        assert data["details"][0]["reason"] == reason
    status, pong = await rpc.request("ping")  # the session goes on
    assert status == 200 and pong["result"] == {}


async def test_a_message_that_is_not_json_rpc_is_an_invalid_request(
        http: httpx.AsyncClient, alice: dict[str, str]) -> None:
    rpc = Rpc(http, alice)
    await rpc.open()
    response = await rpc.post([1, 2])
    assert response.status_code == 400
    assert response.json()["error"]["code"] == types.INVALID_PARAMS


async def test_a_bad_token_is_told_where_to_get_one(http: httpx.AsyncClient) -> None:
    rpc = Rpc(http, {"Authorization": "Bearer cat_not-a-token"})
    refused = await rpc.post({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert refused.status_code == 401
    challenge = refused.headers["www-authenticate"]
    assert 'error="invalid_token"' in challenge
    metadata_url = challenge.split('resource_metadata="')[1].rstrip('"')
    assert metadata_url == "http://test/.well-known/oauth-protected-resource/mcp"
    metadata = (await http.get(metadata_url)).json()
    assert metadata["resource"] == "http://test/mcp"
    assert metadata["commerce_token_url"].startswith("http://test/")


async def test_a_session_stays_with_whoever_opened_it(http: httpx.AsyncClient,
                                                      alice: dict[str, str],
                                                      bob: dict[str, str]) -> None:
    rpc = Rpc(http, alice)
    await rpc.open()
    for stranger in (bob, {}):
        taken = Rpc(http, stranger)
        taken.session_id = rpc.session_id
        response = await taken.post({"jsonrpc": "2.0", "id": 9, "method": "ping"})
        assert response.status_code == 404, stranger
        assert response.json()["code"] == "not_found"
    status, _ = await rpc.request("ping")
    assert status == 200
    closed = await http.delete("/mcp", headers={**ACCEPT, **alice,
                                                "mcp-session-id": rpc.session_id,
                                                MCP_PROTOCOL_VERSION_HEADER: VERSION})
    assert closed.status_code == 200
    gone = await rpc.post({"jsonrpc": "2.0", "id": 10, "method": "ping"})
    assert gone.status_code == 404


async def test_without_a_token_only_browsing_is_offered(http: httpx.AsyncClient) -> None:
    rpc = Rpc(http)
    await rpc.open()
    _, listed = await rpc.request("tools/list")
    names = {tool["name"] for tool in listed["result"]["tools"]}
    assert "search_products" in names and "place_order" not in names
    _, refused = await rpc.request("tools/call", {"name": "create_cart",
                                                  "arguments": {"storeId": "store_ceramics"}})
    assert refused["result"]["structuredContent"]["error"]["code"] == "authorization_required"


async def test_a_loopback_server_refuses_other_hosts(settings: Settings) -> None:
    """DNS rebinding: a page on another name must not reach a server on 127.0.0.1."""
    async with running(settings, base_url="http://127.0.0.1:8000") as (app, _, _):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport,
                                     base_url="http://127.0.0.1:8000") as local:
            ok = await Rpc(local).post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                        "params": {"protocolVersion": VERSION,
                                                   "capabilities": {},
                                                   "clientInfo": {"name": "t", "version": "1"}}})
            assert ok.status_code == 200
            rebound = await Rpc(local, {"Host": "evil.example"}).post(
                {"jsonrpc": "2.0", "id": 0, "method": "ping"})
            assert rebound.status_code == 421
            origin = await Rpc(local, {"Origin": "http://evil.example"}).post(
                {"jsonrpc": "2.0", "id": 0, "method": "ping"})
            assert origin.status_code == 403


# -- what the stdio bridge adds ------------------------------------------------------------

def request(method: str, params: dict[str, Any] | None) -> types.JSONRPCMessage:
    return types.JSONRPCRequest(jsonrpc="2.0", id=1, method=method, params=params)


@pytest.mark.parametrize(("message", "expected"), [
    (request("tools/call", {"name": "place_order",
                            "_meta": {types.PROTOCOL_VERSION_META_KEY: "2026-07-28"}}),
     {MCP_PROTOCOL_VERSION_HEADER: "2026-07-28", MCP_METHOD_HEADER: "tools/call",
      MCP_NAME_HEADER: "place_order"}),
    (request("resources/read", {"uri": "commerce://stores/café",
                                "_meta": {types.PROTOCOL_VERSION_META_KEY: "2026-07-28"}}),
     {MCP_PROTOCOL_VERSION_HEADER: "2026-07-28", MCP_METHOD_HEADER: "resources/read",
      MCP_NAME_HEADER: "=?base64?Y29tbWVyY2U6Ly9zdG9yZXMvY2Fmw6k=?="}),
    (request("tools/list", {"_meta": {types.PROTOCOL_VERSION_META_KEY: "2026-07-28"}}),
     {MCP_PROTOCOL_VERSION_HEADER: "2026-07-28", MCP_METHOD_HEADER: "tools/list"}),
    (request("tools/call", {"name": 7, "_meta": {types.PROTOCOL_VERSION_META_KEY: "x"}}),
     {MCP_PROTOCOL_VERSION_HEADER: "x", MCP_METHOD_HEADER: "tools/call"}),
    (request("tools/list", {}), None),  # a 2025 request: no version in its envelope
    (request("tools/list", None), None),
    (request("ping", {"_meta": {types.PROTOCOL_VERSION_META_KEY: 2026}}), None),
    (types.JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized"), None),
])
def test_the_bridge_adds_routing_headers_to_2026_requests(
        message: types.JSONRPCMessage, expected: dict[str, str] | None) -> None:
    assert transports._headers(message) == expected


@pytest.mark.parametrize(("base_url", "protected"), [
    ("http://127.0.0.1:8000", True), ("http://localhost", True), ("http://[::1]:9", True),
    ("https://shop.example", False), ("http://test", False), ("http://10.0.0.5:8000", False),
])
def test_dns_rebinding_protection_is_for_loopback_servers(base_url: str,
                                                          protected: bool) -> None:
    security = transports._security(Settings(base_url=base_url))
    assert (security is not None) is protected
    if security is not None:
        assert security.enable_dns_rebinding_protection
        assert "127.0.0.1:*" in security.allowed_hosts
