"""The agent's tool registry as MCP tools: names, titles, descriptions, JSON Schemas, hints.

MCP clients see each tool under its short name (`search_products`, `place_order`), annotated
from the registry: read-only tools `readOnlyHint`, tools that may remove or spend
`destructiveHint`. Tools of the `commerce` connection act for the caller and are listed only
to a caller with a token. Tools the policy holds for approval go through `checkout`.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from commerce_agent.auth.tokens import Principal
from commerce_agent.errors import CommerceError
from commerce_agent.mcp import checkout
from commerce_agent.operations import Tool, ToolFailure, all_tools, policy

SIGN_IN_HINT = ("This tool acts for a signed-in customer: connect with "
                "`Authorization: Bearer <token>` (see /.well-known/oauth-protected-resource/mcp).")


def registry() -> dict[str, Tool]:
    return {tool.short_name: tool for tool in all_tools()}


def visible(tools: dict[str, Tool], principal: Principal | None) -> list[Tool]:
    return [tool for tool in tools.values() if tool.connection is None or principal is not None]


def describe(tool: Tool) -> types.Tool:
    approved = policy.needs_approval(tool)
    schema = checkout.input_schema(tool) if approved else tool.parameters
    description = tool.description + (checkout.HOW_TO_CONFIRM if approved else "")
    return types.Tool(
        name=tool.short_name, title=tool.display_title, description=description,
        input_schema=schema,
        annotations=types.ToolAnnotations(
            title=tool.display_title, read_only_hint=tool.read_only,
            destructive_hint=not tool.read_only and (tool.destructive or approved),
            idempotent_hint=tool.read_only, open_world_hint=False))


def ok(result: Any) -> types.CallToolResult:
    structured = result if isinstance(result, dict) else {"result": result}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(result, ensure_ascii=False))],
        structured_content=structured)


def failed(code: str, message: str, details: Any = None) -> types.CallToolResult:
    """A tool that ran and failed: `isError` content carrying the Commerce API's error body
    {code, message, details}, as structured content and as its JSON text."""
    error: dict[str, Any] = {"code": code, "message": message,
                             "details": details if isinstance(details, list) else
                             [details] if details else []}
    return types.CallToolResult(
        content=[types.TextContent(type="text",
                                   text=json.dumps({"error": error}, ensure_ascii=False))],
        structured_content={"error": error}, is_error=True)


def failure(exc: CommerceError | ToolFailure) -> types.CallToolResult:
    return failed(exc.code, exc.message, exc.details)


def unexpected() -> types.CallToolResult:
    """A tool that failed for a reason of ours: no Python text reaches the client."""
    return failed(INTERNAL_ERROR, INTERNAL_MESSAGE)


INTERNAL_ERROR = "internal_error"
INTERNAL_MESSAGE = "The server failed to handle this request."
