"""Starlette's router, indexed by the first segment of the path, and its routes.

Starlette tries routes one by one, each with a regular expression; with some fifty routes that
costs more than many handlers do. `IndexedRouter` keeps one plain Starlette `Router` per first
path segment, holding the routes that can match it in their original order (those whose first
segment is a parameter go in every group), so matching, 405s, trailing-slash redirects and 404s
behave exactly as before. Within a group it first tries only the routes that can match a path
of the request's number of segments (a parameter never spans a slash, except `:path`): the
first of those that matches in full is the one the group would pick, and anything else (no
match, a 405, a redirect) is left to the group.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette import routing
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Router
from starlette.types import ASGIApp, Receive, Scope, Send

Endpoint = Callable[[Request], Awaitable[Response]]


def _handler(endpoint: Endpoint) -> ASGIApp:
    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        response = await endpoint(Request(scope, receive, send))
        await response(scope, receive, send)

    return handle


class Route(routing.Route):
    """Starlette's Route, without its per-request exception wrapper around an async function
    endpoint: an exception goes on to the app's handlers (request_stack, or Starlette's
    ExceptionMiddleware for the agent API), and the wrapper's closures cost more than some
    endpoints."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        super().__init__(path, endpoint, **options)
        # Every method of the routes at this same path (share_methods fills it in): the
        # Allow header of a 405 lists them all, not only this route's.
        self.path_methods: frozenset[str] = frozenset(self.methods or ())
        if inspect.iscoroutinefunction(endpoint) \
                and options.get("middleware") is None \
                and options.get("max_body_size") is None:
            self.app = _handler(endpoint)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        # U+0000 cannot be in any stored id or text (json_input refuses it in bodies, and
        # PostgreSQL in text): a path carrying one names nothing, a query asks nothing.
        if "\x00" in scope["path"]:
            raise HTTPException(404)
        query: bytes = scope["query_string"]
        if b"%00" in query or b"\x00" in query:
            raise HTTPException(400, "Query parameters must not contain U+0000 (%00).")
        if self.methods and scope["method"] not in self.methods \
                and self.path_methods != self.methods:
            raise HTTPException(405, headers={"Allow": ", ".join(sorted(self.path_methods))})
        await super().handle(scope, receive, send)


def share_methods(routes: Sequence[BaseRoute]) -> None:
    """Tell each Route of one router the methods of its siblings at the same path."""
    by_path: dict[str, set[str]] = {}
    for route in routes:
        if isinstance(route, Route):
            by_path.setdefault(route.path, set()).update(route.methods or ())
    for route in routes:
        if isinstance(route, Route):
            route.path_methods = frozenset(by_path[route.path])


class Mount(routing.Mount):
    """Starlette's Mount, matching paths with a newline too: its pattern ends in `.*`, which
    stops at one, so such a path fell out of the mount to the top level's 404."""

    def __init__(self, path: str, app: ASGIApp, **options: Any) -> None:
        super().__init__(path, app, **options)
        self.path_regex = re.compile(self.path_regex.pattern, re.DOTALL)


def _slashes(route: BaseRoute) -> int | None:
    """The number of slashes in every path the route matches (None: it varies)."""
    if not isinstance(route, routing.Route | routing.WebSocketRoute):
        return None  # a Mount matches paths of any depth below it
    if ":path}" in route.path:
        return None
    return route.path.count("/")


def _first_segment(route: BaseRoute) -> str | None:
    """The literal first segment every path the route matches starts with (None: any)."""
    path = getattr(route, "path", None)
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    segment = path[1:].split("/", 1)[0]
    return None if "{" in segment else segment


class IndexedRouter(Router):
    def __init__(self, routes: Sequence[BaseRoute], **options: Any) -> None:
        super().__init__(routes=routes, **options)
        self._index()

    def _index(self) -> None:
        share_methods(self.routes)
        # Each route's first segment and slash count, worked out once (not once per group).
        keyed = [(route, _first_segment(route), _slashes(route)) for route in self.routes]
        segments = {segment for _, segment, _ in keyed if segment}
        self._groups = {
            segment: Router(routes=[route for route, first, _ in keyed
                                    if first in (segment, None)],
                            redirect_slashes=self.redirect_slashes, default=self.default)
            for segment in segments}
        shapes = {(segment, slashes) for _, segment, slashes in keyed}
        self._shapes = {
            (segment, slashes): [route for route, first, count in keyed
                                 if first in (segment, None) and count in (slashes, None)]
            for segment, slashes in shapes if segment and slashes is not None}
        self._indexed = len(self.routes)

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if len(self.routes) != self._indexed:  # routes added since (tests add some)
            self._index()
        # Behind a root_path the path still carries the prefix: try every route, as Starlette.
        if scope["type"] in ("http", "websocket") and not scope.get("root_path"):
            path: str = scope["path"]
            segment = path[1:].split("/", 1)[0]
            group = self._groups.get(segment)
            if group is not None:
                scope.setdefault("router", self)  # url_path_for sees every route
                for route in self._shapes.get((segment, path.count("/")), ()):
                    match, child_scope = route.matches(scope)
                    if match is routing.Match.FULL:
                        scope.update(child_scope)
                        await route.handle(scope, receive, send)
                        return
                await group.app(scope, receive, send)
                return
        await super().app(scope, receive, send)
