"""The MCP server: the lowlevel SDK server with our handlers, one per app (or stdio process)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from commerce_agent.errors import CommerceError
from commerce_agent.json_input import MalformedJson, check_value
from commerce_agent.mcp import resources, tools
from commerce_agent.mcp.checkout import Call
from commerce_agent.mcp.shop import Shop
from commerce_agent.mcp.updates import Listen, Subscriptions
from commerce_agent.operations import ToolFailure, policy

INSTRUCTIONS = (
    "Shop the stores of this commerce-agent server: search products, fill a cart, place and "
    "pay the order (the person confirms every payment), then follow it. Carts and orders act "
    "for the customer whose bearer token the connection carries; without one only browsing "
    "tools are listed.")
Context = ServerRequestContext[Any, Any]
R = TypeVar("R")
log = logging.getLogger("commerce_agent.mcp")


def guarded(handler: Callable[[Context, Any], Awaitable[R]]
            ) -> Callable[[Context, Any], Awaitable[R]]:
    """A protocol handler whose unexpected failure answers JSON-RPC INTERNAL_ERROR with the
    Commerce API's error body as data: the SDK would send the exception's own text with code
    0. A URI with U+0000 names no resource (and PostgreSQL refuses it in a query)."""

    @functools.wraps(handler)
    async def run(ctx: Context, params: Any) -> R:
        uris = [getattr(params, "uri", None)]
        notifications = getattr(params, "notifications", None)
        uris += list(getattr(notifications, "resource_subscriptions", None) or ())
        for uri in uris:
            if isinstance(uri, str) and "\x00" in uri:
                raise resources.not_found(uri.replace("\x00", "\\u0000"))
        try:
            return await handler(ctx, params)
        except MCPError:
            raise
        except Exception:
            log.exception("MCP request failed")
            raise MCPError(types.INTERNAL_ERROR, tools.INTERNAL_MESSAGE,
                           {"code": tools.INTERNAL_ERROR, "message": tools.INTERNAL_MESSAGE,
                            "details": []}) from None

    return run


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
            check_value(params.arguments or {})
        except MalformedJson as exc:
            return tools.failed("invalid_arguments", exc.message)
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
        except MCPError:  # a protocol answer (the client cannot elicit, …): as it is
            raise
        except Exception:
            log.exception("MCP tool %s failed", tool.short_name)
            return tools.unexpected()

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
        on_list_tools=guarded(list_tools), on_call_tool=guarded(call_tool),
        on_list_resources=guarded(list_resources),
        on_list_resource_templates=guarded(list_templates),
        on_read_resource=guarded(read_resource),
        on_subscribe_resource=guarded(subscriptions.subscribe),
        on_unsubscribe_resource=guarded(subscriptions.unsubscribe),
        on_subscriptions_listen=guarded(Listen(shop)))
    return server, subscriptions


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("commerce-agent")
    except PackageNotFoundError:  # running from a source tree
        return "0"
