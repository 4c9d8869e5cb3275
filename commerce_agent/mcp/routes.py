"""/mcp (streamable HTTP) and its protected resource metadata, mounted in the app.

The endpoint authenticates each request with the Commerce API's bearer tokens: no token means
a public caller (browsing tools only), a bad one is answered 401 with a `WWW-Authenticate`
naming the protected resource metadata (RFC 9728, as the MCP authorization spec asks), which
says where a person signs in and where a program gets a token. Nothing here imports the SDK:
without the `mcp` extra /mcp answers 501 naming it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import URLPath
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, NoMatchFound, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from commerce_agent.auth import bearer, flows
from commerce_agent.errors import CommerceError
from commerce_agent.http import json_response, read_body
from commerce_agent.json_input import MalformedJson, check
from commerce_agent.mcp import EXTRA_MISSING, available
from commerce_agent.mcp.shop import PRINCIPAL_KEY
from commerce_agent.settings import Settings

MCP_PATH = "/mcp"
METADATA_PATH = "/.well-known/oauth-protected-resource"
SESSION_HEADER = b"mcp-session-id"
PARSE_ERROR = -32700  # JSON-RPC 2.0


def metadata(settings: Settings) -> dict[str, Any]:
    """RFC 9728 protected resource metadata for /mcp. There is no OAuth authorization server
    to name (docs/mcp.md): the sign-in and token URLs are given as extra fields."""
    base = settings.base_url.rstrip("/")
    return {
        "resource": base + MCP_PATH,
        "resource_name": "commerce-agent MCP server",
        "bearer_methods_supported": ["header"],
        "resource_documentation": base + "/openapi.json",
        "commerce_sign_in_url": base + flows.SIGN_IN_PATH,
        "commerce_registration_url": base + flows.REGISTRATION_PATH,
        "commerce_token_url": base + flows.TOKEN_PATH,
        "commerce_token_request": {"method": "POST", "body": {"email": "…", "password": "…"},
                                   "token_field": "accessToken"},
    }


async def resource_metadata(request: Request) -> Response:
    return json_response(metadata(request.app.state.settings), media_type="application/json")


def _challenge(settings: Settings) -> str:
    url = settings.base_url.rstrip("/") + METADATA_PATH + MCP_PATH
    return (f'Bearer realm="commerce-agent", error="invalid_token", '
            f'resource_metadata="{url}"')


def _parse_error(failure: MalformedJson) -> Response:
    """JSON-RPC's parse error, as the SDK answers one (HTTP 400), with the Commerce API's
    error body as its data."""
    data = {"code": "bad_request", "message": failure.message,
            "details": [{"type": "validation", "field": "", "reason": failure.reason}]}
    return json_response({"jsonrpc": "2.0", "id": None,
                          "error": {"code": PARSE_ERROR, "message": failure.message,
                                    "data": data}},
                         status=400, media_type="application/json")


async def _checked_body(scope: Scope, receive: Receive, send: Send) -> Receive | None:
    """A POST's JSON-RPC body read and held to json_input's rules (the SDK's parser keeps the
    last of duplicate keys); a `receive` that replays it to the SDK, or None once a parse
    error was answered. U+0000 is refused by the server's handlers, as invalid arguments or
    an unknown resource (server.py), over stdio too."""
    body = await read_body(Request(scope, receive))
    try:
        if body.strip():
            check(body, nul=False)
    except MalformedJson as failure:
        await _parse_error(failure)(scope, receive, send)
        return None
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class McpEndpoint:
    """ASGI app at /mcp: the caller's token checked, then the SDK's session manager."""

    def __init__(self) -> None:
        # Session id -> the user who opened it ("" for a public caller): a session cannot
        # change hands (its standalone stream carries that user's order updates).
        self.session_owners: dict[str, str] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = scope["app"]
        sessions: LazySessions | None = getattr(app.state, "mcp_sessions", None)
        if sessions is None:
            raise CommerceError(501, "not_implemented", EXTRA_MISSING)
        settings: Settings = app.state.settings
        owner_id = ""
        token = bearer.token(scope)
        if token is not None:
            owner = await bearer.token_owner(app.state.db, token) if token else None
            if owner is None:
                raise CommerceError(401, "unauthorized", "The bearer token is invalid, "
                                    "expired or revoked.",
                                    headers={"WWW-Authenticate": _challenge(settings)})
            scope.setdefault("state", {})[PRINCIPAL_KEY] = owner.principal
            owner_id = owner.principal.user_id
        session_id = _header(scope, SESSION_HEADER)
        if session_id is not None and self.session_owners.get(session_id, owner_id) != owner_id:
            raise CommerceError(404, "not_found", "No such MCP session for this caller.")

        async def remember(message: Message) -> None:
            if message["type"] == "http.response.start":
                for key, value in message.get("headers", ()):
                    if key.lower() == SESSION_HEADER:
                        self.session_owners[bytes(value).decode("latin-1")] = owner_id
            await send(message)

        if scope["method"] == "POST":
            checked = await _checked_body(scope, receive, send)
            if checked is None:
                return
            receive = checked
        manager = await sessions.manager()
        await manager.handle_request(scope, receive, remember)


class LazySessions:
    """The SDK's session manager, started by the first /mcp request and stopped with the app.
    Importing the SDK (pydantic, opentelemetry and more: about 30 MB in every process) waits
    until somebody speaks MCP to this process."""

    def __init__(self, app: Starlette) -> None:
        self._app = app
        self._lock = asyncio.Lock()
        self._running = contextlib.AsyncExitStack()
        self._manager: Any = None

    async def manager(self) -> Any:
        if self._manager is None:
            async with self._lock:
                if self._manager is None:
                    from commerce_agent.mcp.transports import http_session_manager

                    self._manager = await self._running.enter_async_context(
                        http_session_manager(self._app))
        return self._manager

    async def close(self) -> None:
        self._manager = None
        await self._running.aclose()


@contextlib.asynccontextmanager
async def mcp_worker(app: Starlette) -> AsyncIterator[None]:
    """Offers the MCP session manager while the app runs (create_app's background workers);
    it starts on first use (LazySessions)."""
    if not available():
        yield
        return
    sessions = app.state.mcp_sessions = LazySessions(app)
    try:
        yield
    finally:
        app.state.mcp_sessions = None
        await sessions.close()


class ProtocolRoute(BaseRoute):
    """One path answered by an ASGI app whatever the method. MCP is a protocol of its own,
    described by docs/mcp.md: /openapi.json (which lists Route and Mount) leaves it out."""

    def __init__(self, path: str, app: ASGIApp) -> None:
        self.path = path
        self.app = app

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and scope["path"] == self.path:
            return Match.FULL, {}
        return Match.NONE, {}

    def url_path_for(self, name: str, /, **path_params: Any) -> URLPath:
        raise NoMatchFound(name, path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


routes: list[BaseRoute] = [
    # Only at the path of /mcp (RFC 9728 section 3.3): the root document would describe the
    # resource at the server's root, which this metadata does not.
    Route(METADATA_PATH + MCP_PATH, resource_metadata, methods=["GET"]),
    ProtocolRoute(MCP_PATH, McpEndpoint()),
]
