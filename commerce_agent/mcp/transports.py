"""The two transports: streamable HTTP inside the app, and stdio for desktop clients.

stdio runs either the server itself on a database file (`--db`: tools run in this process,
as the person whose `--token` it was given), or a bridge to a running server's /mcp (`--url`):
each JSON-RPC message read from stdin is posted there with the token, and each answer or
notification written back, so a desktop client gets everything the HTTP transport offers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import anyio
import mcp_types as types
from mcp.client.streamable_http import streamable_http_client
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    encode_header_value,
)
from mcp.shared.message import ClientMessageMetadata, SessionMessage
from starlette.applications import Starlette

from commerce_agent.auth.bearer import principal_for
from commerce_agent.background import running
from commerce_agent.commerce.orders.feed import OrderFeed
from commerce_agent.db import database_for
from commerce_agent.mcp.server import build_server
from commerce_agent.mcp.shop import Shop
from commerce_agent.seed import seed
from commerce_agent.settings import Settings

log = logging.getLogger("commerce_agent.mcp")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _security(settings: Settings) -> TransportSecuritySettings | None:
    """DNS-rebinding protection for a server on a loopback address, as the SDK does."""
    host = urlsplit(settings.base_url).hostname or ""
    if host not in LOCAL_HOSTS:
        return None
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"])


@contextlib.asynccontextmanager
async def http_session_manager(app: Starlette) -> AsyncIterator[StreamableHTTPSessionManager]:
    """The SDK's session manager, running while the block runs.

    Its `run()` holds an anyio task group, which must be left by the task that entered it; an
    app's lifespan may start and end in different tasks (test fixtures do), so it runs in a
    task of its own, told when to stop."""
    server, subscriptions = build_server(Shop.of_app(app))
    manager = StreamableHTTPSessionManager(app=server,
                                           security_settings=_security(app.state.settings))
    started, stop = asyncio.Event(), asyncio.Event()

    async def run() -> None:
        async with manager.run():
            started.set()
            await stop.wait()

    task = asyncio.create_task(run())
    waiting = asyncio.create_task(started.wait())
    try:
        await asyncio.wait([task, waiting], return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()  # it failed to start: raise why
        yield manager
    finally:
        waiting.cancel()
        stop.set()
        await subscriptions.close()
        await task


async def serve_database(db_path: str, token: str | None) -> None:
    """stdio, with the tools running in this process on the database file."""
    settings = Settings(db_path=db_path, simulate=False)
    database = database_for(db_path)
    await database.open()
    try:
        await seed(database)
        principal = await principal_for(database, token) if token else None
        if token and principal is None:
            raise SystemExit("error: the --token is unknown, expired or revoked")
        feed = OrderFeed(database)
        shop = Shop(database, settings, settings.pay_to, feed, settings.max_promotions,
                    principal)
        server, subscriptions = build_server(shop)
        async with running(feed.run()), stdio_server() as (read, write):
            try:
                await _run(server, read, write)
            finally:
                await subscriptions.close()
    finally:
        await database.close()


async def _run(server: Server[Any], read: Any, write: Any) -> None:
    await server.run(read, write, server.create_initialization_options())


def _headers(message: types.JSONRPCMessage) -> dict[str, str] | None:
    """The routing headers a 2026-07-28 request needs over HTTP, read off its envelope (the
    SDK's client session sets them; a bridged message arrives without)."""
    if not isinstance(message, types.JSONRPCRequest):
        return None
    params = message.params or {}
    version = (params.get("_meta") or {}).get(types.PROTOCOL_VERSION_META_KEY)
    if not isinstance(version, str):
        return None
    headers = {MCP_PROTOCOL_VERSION_HEADER: version, MCP_METHOD_HEADER: message.method}
    name_key = NAME_BEARING_METHODS.get(message.method)
    if name_key is not None and isinstance(name := params.get(name_key), str):
        headers[MCP_NAME_HEADER] = encode_header_value(name)
    return headers


async def bridge(url: str, token: str | None) -> None:
    """stdio, relayed to the streamable HTTP endpoint `url` with `token`."""
    auth = {"Authorization": f"Bearer {token}"} if token else None
    async with create_mcp_http_client(headers=auth) as http, \
            streamable_http_client(url, http_client=http) as (remote_read, remote_write), \
            stdio_server() as (local_read, local_write):
        async with anyio.create_task_group() as group:

            async def upstream() -> None:
                async for item in local_read:
                    if isinstance(item, Exception):
                        log.warning("unreadable message on stdin: %s", item)
                        continue
                    headers = _headers(item.message)
                    metadata = ClientMessageMetadata(headers=headers) if headers else None
                    await remote_write.send(SessionMessage(item.message, metadata=metadata))
                group.cancel_scope.cancel()  # stdin closed: the client is gone

            async def downstream() -> None:
                async for item in remote_read:
                    if isinstance(item, Exception):
                        log.warning("MCP server error: %s", item)
                        continue
                    await local_write.send(SessionMessage(item.message))

            group.start_soon(upstream)
            group.start_soon(downstream)
