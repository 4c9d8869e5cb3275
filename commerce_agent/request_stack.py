"""The layers each request passes between the server and the router, composed as Starlette
composes its own: one outer layer, the app's own middleware (`app.add_middleware`), one
layer answering handled errors, the router.

Starlette wraps every request in ServerErrorMiddleware, then each middleware of the app, then
ExceptionMiddleware: a coroutine and a send wrapper each, every response message passing all
of them. Our two (locale and capability versions) made five layers, about a tenth of the CPU
of an add-to-cart. `CommerceLayer` is the outer layer and does their work in one:

- negotiates the locale (commerce_agent.i18n.middleware) and the capability versions
  (commerce_agent.commerce.versions) and adds their headers to the response start;
- answers an exception that has a handler (CommerceError, HTTPException) with it, through the
  same headers, as ExceptionMiddleware would;
- answers any other exception with the 500 handler, without them, and raises it on for the
  server to log, as ServerErrorMiddleware would.

Middleware added with `app.add_middleware` goes inside it, around `HandledErrors` (a lean
ExceptionMiddleware), so it sees every request, Commerce API and agent API alike, and handled
errors as the responses they become. Without any, the outer layer answers handled errors
itself and the request passes one layer.

Below `skip` (the agent API, MCP) nothing is negotiated: those requests only get the locale
Accept-Language asks for, and no negotiation headers. Other kinds of scope (lifespan) pass
straight through.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from commerce_agent.body_limit import DrainUnreadBody
from commerce_agent.commerce import versions
from commerce_agent.i18n import content
from commerce_agent.i18n.middleware import add_language_headers, header_locale, request_locale

Handler = Callable[[Request, Exception], Awaitable[Response]]


class Handlers:
    """The app's exception handlers, looked up as Starlette does (by the exception's MRO)."""

    def __init__(self, handlers: dict[Any, Handler]) -> None:
        self.internal_error = handlers[Exception]
        self.by_kind = {kind: handler for kind, handler in handlers.items()
                        if kind not in (Exception, 500)}

    async def answer(self, exc: Exception, started: bool, scope: Scope, receive: Receive,
                     send: Send) -> None:
        """Answer `exc` with its handler, as ExceptionMiddleware would; raise it on when it
        has none."""
        handler = None
        for kind in type(exc).__mro__:
            handler = self.by_kind.get(kind)
            if handler is not None:
                break
        if handler is None:
            raise exc
        if started:
            raise RuntimeError("Caught handled exception, but response already "
                               "started.") from exc
        response = await handler(Request(scope, receive, send), exc)
        await response(scope, receive, send)
        exc.__traceback__ = None  # a reused exception would pile up tracebacks


class HandledErrors:
    """Starlette's ExceptionMiddleware, lean: the innermost layer when the app has middleware
    of its own (`add_middleware`), so that middleware sees handled errors as responses."""

    def __init__(self, app: ASGIApp, handlers: Handlers) -> None:
        self.app = app
        self.handlers = handlers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            await self.handlers.answer(exc, started, scope, receive, send)


class CommerceLayer:
    """The outermost layer: negotiation and its headers, handled errors, and the 500."""

    def __init__(self, app: ASGIApp, *, handlers: Handlers, skip: tuple[str, ...]) -> None:
        self.app = app  # the app's own middleware (if any) and the router
        self.skip = skip
        self.handlers = handlers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        negotiated: versions.Negotiated | None = None
        if scope["path"].startswith(self.skip):
            state["locale"] = header_locale(scope)
        else:
            locale, explicit = await request_locale(scope)
            state["locale"] = locale
            negotiated = versions.requested(scope)
            recorded, recording = content.begin()
            negotiation = versions.enter(negotiated)
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if negotiated is not None:
                    headers = [*message.get("headers", ()),
                               *versions.response_headers(negotiated)]
                    add_language_headers(headers, state, recorded, locale, explicit)
                    message = {**message, "headers": headers}
            await send(message)

        try:
            try:
                await self.app(scope, receive, sending)
            except Exception as exc:
                await self.handlers.answer(exc, started, scope, receive, sending)
        except Exception as exc:
            if not started:  # the 500 goes out without the negotiated headers
                response = await self.handlers.internal_error(Request(scope, receive, send),
                                                              exc)
                await response(scope, receive, send)
            raise
        finally:
            if negotiated is not None:
                versions.leave(negotiation)
                content.end(recording)


def stack(router: ASGIApp, middleware: list[Middleware], handlers: dict[Any, Handler], *,
          skip: tuple[str, ...]) -> ASGIApp:
    """The app's layers, composed the ordinary way: the Commerce layer outermost (as
    ServerErrorMiddleware is), then the app's own middleware in the order added, then
    HandledErrors (as ExceptionMiddleware), then the router. Without middleware of the app's
    own the Commerce layer answers handled errors itself, one layer fewer."""
    known = Handlers(handlers)
    app = router
    if middleware:
        app = HandledErrors(app, known)
        for cls, args, kwargs in reversed(middleware):
            app = cls(app, *args, **kwargs)
    return DrainUnreadBody(CommerceLayer(app, handlers=known, skip=skip))
