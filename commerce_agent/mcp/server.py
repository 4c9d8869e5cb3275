"""The MCP server: the lowlevel SDK server with our handlers, one per app (or stdio process)."""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from commerce_agent.agent import policy
from commerce_agent.agent.tools import ToolFailure
from commerce_agent.errors import CommerceError
from commerce_agent.mcp import resources, tools
from commerce_agent.mcp.checkout import Call
from commerce_agent.mcp.shop import Shop
from commerce_agent.mcp.updates import Listen, Subscriptions

INSTRUCTIONS = (
    "Shop the stores of this commerce-agent server: search products, fill a cart, place and "
    "pay the order (the person confirms every payment), then follow it. Carts and orders act "
    "for the customer whose bearer token the connection carries; without one only browsing "
    "tools are listed.")
Context = ServerRequestContext[Any, Any]


def build_server(shop: Shop) -> tuple[Server[Any], Subscriptions]:
    registry = tools.registry()
    subscriptions = Subscriptions(shop)

    async def list_tools(ctx: Context, params: types.PaginatedRequestParams | None
                         ) -> types.ListToolsResult:
        principal = shop.caller(ctx.request)
        return types.ListToolsResult(
            tools=[tools.describe(tool) for tool in tools.visible(registry, principal)])

    async def call_tool(ctx: Context, params: types.CallToolRequestParams
                        ) -> types.CallToolResult | types.InputRequiredResult:
        tool = registry.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        principal = shop.caller(ctx.request)
        if tool.connection is not None and principal is None:
            return tools.failed("authorization_required", tools.SIGN_IN_HINT)
        try:
            if policy.needs_approval(tool):
                assert principal is not None
                result = await Call(shop, tool, principal, params,
                                    shop.locale(ctx.request)).run(ctx)
                if isinstance(result, types.InputRequiredResult | types.CallToolResult):
                    return result
                return tools.ok(result)
            args = params.arguments or {}
            tool.check_args(args)
            return tools.ok(await tool.run(shop.context(principal), args))
        except (CommerceError, ToolFailure) as exc:
            return tools.failure(exc)

    async def list_resources(ctx: Context, params: types.PaginatedRequestParams | None
                             ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=await resources.listing(shop, shop.caller(ctx.request)))

    async def list_templates(ctx: Context, params: types.PaginatedRequestParams | None
                             ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=resources.TEMPLATES)

    async def read_resource(ctx: Context, params: types.ReadResourceRequestParams
                            ) -> types.ReadResourceResult:
        return await resources.read(shop, shop.caller(ctx.request), params.uri)

    server: Server[Any] = Server(
        "commerce-agent", version=_version(), title="commerce-agent shop",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools, on_call_tool=call_tool, on_list_resources=list_resources,
        on_list_resource_templates=list_templates, on_read_resource=read_resource,
        on_subscribe_resource=subscriptions.subscribe,
        on_unsubscribe_resource=subscriptions.unsubscribe,
        on_subscriptions_listen=Listen(shop))
    return server, subscriptions


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("commerce-agent")
    except PackageNotFoundError:  # running from a source tree
        return "0"
