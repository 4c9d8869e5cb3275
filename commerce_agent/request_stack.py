"""The one layer each Commerce API request passes through between the server and the router.

Starlette wraps every request in ServerErrorMiddleware, then each middleware of the app, then
ExceptionMiddleware: a coroutine and a send wrapper each, every response message passing all
of them. Our two (locale and capability versions) made five layers, about a tenth of the CPU
of an add-to-cart. `CommerceLayer` does the same work in one:

- negotiates the locale (commerce_agent.i18n.middleware) and the capability versions
  (commerce_agent.commerce.versions) and adds their headers to the response start;
- answers an exception that has a handler (CommerceError, HTTPException) with it, through the
  same headers, as ExceptionMiddleware would;
- answers any other exception with the 500 handler, without them, and raises it on for the
  server to log, as ServerErrorMiddleware would.

The agent API (below `skip`) and every other kind of scope (lifespan) go through Starlette's
own stack, which keeps the same handlers; their requests only get the locale Accept-Language
asks for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from commerce_agent.commerce import versions
from commerce_agent.i18n import content
from commerce_agent.i18n.middleware import add_language_headers, header_locale, request_locale

Handler = Callable[[Request, Exception], Awaitable[Response]]


class CommerceLayer:
    def __init__(self, router: ASGIApp, standard: ASGIApp, *,
                 handlers: dict[Any, Handler], skip: tuple[str, ...]) -> None:
        self.router = router
        self.standard = standard  # Starlette's stack around the same router
        self.skip = skip
        self.internal_error = handlers[Exception]
        self.handlers = {kind: handler for kind, handler in handlers.items()
                         if kind not in (Exception, 500)}

    def _handler(self, exc: Exception) -> Handler | None:
        for kind in type(exc).__mro__:
            if kind in self.handlers:
                return self.handlers[kind]
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(self.skip):
            if scope["type"] == "http":
                scope.setdefault("state", {})["locale"] = header_locale(scope)
            await self.standard(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        locale, explicit = await request_locale(scope)
        state["locale"] = locale
        negotiated = versions.requested(scope)
        recorded, recording = content.begin()
        negotiation = versions.enter(negotiated)
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [*message.get("headers", ()), *versions.response_headers(negotiated)]
                add_language_headers(headers, state, recorded, locale, explicit)
                message = {**message, "headers": headers}
            await send(message)

        try:
            try:
                await self.router(scope, receive, send_with_headers)
            except Exception as exc:
                handler = self._handler(exc)
                if handler is None:
                    raise
                if started:
                    raise RuntimeError("Caught handled exception, but response already "
                                       "started.") from exc
                response = await handler(Request(scope, receive, send), exc)
                await response(scope, receive, send_with_headers)
                exc.__traceback__ = None  # a reused exception would pile up tracebacks
        except Exception as exc:
            if not started:
                response = await self.internal_error(Request(scope, receive, send), exc)
                await response(scope, receive, send)
            raise
        finally:
            versions.leave(negotiation)
            content.end(recording)
