"""The routing headers the stdio bridge adds to a message it relays over HTTP: a request of
the 2026-07-28 protocol carries its version and method (and the tool, prompt or resource it
names, encoded when not plain ASCII); anything else goes without."""

from __future__ import annotations

from typing import Any

import mcp_types as types
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp.shared.inbound import decode_header_value

from commerce_agent.mcp.transports import _headers

VERSION = "2026-07-28"


def request(method: str, params: dict[str, Any] | None = None, *,
            version: object = VERSION) -> types.JSONRPCRequest:
    body = dict(params or {})
    if version is not None:
        body["_meta"] = {types.PROTOCOL_VERSION_META_KEY: version}
    return types.JSONRPCRequest(jsonrpc="2.0", id=1, method=method, params=body)


def test_a_tool_call_names_its_tool() -> None:
    assert _headers(request("tools/call", {"name": "search_products",
                                           "arguments": {"query": "mug"}})) == {
        "mcp-protocol-version": VERSION, "mcp-method": "tools/call",
        "mcp-name": "search_products"}


@pytest.mark.parametrize(("method", "key", "value"), [
    ("prompts/get", "name", "checkout_help"),
    ("resources/read", "uri", "commerce://orders/ord_1"),
])
def test_prompts_and_resources_are_named_by_their_own_key(method: str, key: str,
                                                          value: str) -> None:
    headers = _headers(request(method, {key: value}))
    assert headers is not None and headers["mcp-name"] == value
    assert headers["mcp-method"] == method


def test_a_method_that_names_nothing_has_no_name_header() -> None:
    assert _headers(request("tools/list")) == {"mcp-protocol-version": VERSION,
                                               "mcp-method": "tools/list"}


def test_a_name_that_is_not_text_is_left_out() -> None:
    headers = _headers(request("tools/call", {"name": 42}))
    assert headers is not None and "mcp-name" not in headers


def test_a_request_without_a_protocol_version_is_relayed_as_it_is() -> None:
    assert _headers(request("tools/call", {"name": "x"}, version=None)) is None
    assert _headers(request("tools/call", {"name": "x"}, version=20260728)) is None
    bare = types.JSONRPCRequest(jsonrpc="2.0", id=2, method="ping", params=None)
    assert _headers(bare) is None


def test_notifications_and_responses_carry_no_routing_headers() -> None:
    note = types.JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized",
                                     params={"_meta": {types.PROTOCOL_VERSION_META_KEY:
                                                       VERSION}})
    assert _headers(note) is None
    answer = types.JSONRPCResponse(jsonrpc="2.0", id=1, result={})
    assert _headers(answer) is None


@given(st.text(min_size=1, max_size=40))
def test_any_name_survives_the_header_round_trip(name: str) -> None:
    headers = _headers(request("tools/call", {"name": name}))
    assert headers is not None
    encoded = headers["mcp-name"]
    assert encoded.isascii() and "\n" not in encoded and "\r" not in encoded
    assert decode_header_value(encoded) == name
