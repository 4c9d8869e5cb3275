"""Starlette's router, indexed by the first segment of the path.

Starlette tries routes one by one, each with a regular expression; with some fifty routes that
costs more than many handlers do. `IndexedRouter` keeps one plain Starlette `Router` per first
path segment, holding the routes that can match it in their original order (those whose first
segment is a parameter go in every group), so matching, 405s, trailing-slash redirects and 404s
behave exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.routing import BaseRoute, Router
from starlette.types import Receive, Scope, Send


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
        segments = {_first_segment(route) for route in self.routes} - {None}
        self._groups = {
            segment: Router(routes=[route for route in self.routes
                                    if _first_segment(route) in (segment, None)],
                            redirect_slashes=self.redirect_slashes, default=self.default)
            for segment in segments if segment}
        self._indexed = len(self.routes)

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if len(self.routes) != self._indexed:  # routes added since (tests add some)
            self._index()
        # Behind a root_path the path still carries the prefix: try every route, as Starlette.
        if scope["type"] in ("http", "websocket") and not scope.get("root_path"):
            path: str = scope["path"]
            group = self._groups.get(path[1:].split("/", 1)[0])
            if group is not None:
                scope.setdefault("router", self)  # url_path_for sees every route
                await group.app(scope, receive, send)
                return
        await super().app(scope, receive, send)
