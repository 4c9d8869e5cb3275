"""Answers sent before the request body was read still reach the client.

A handler may answer before reading the body: a 413 for a declared Content-Length past the
limit, a 401 or 404 decided from the headers. If the connection is then closed (the 413 says
`Connection: close`, or the client asked for it) while body bytes still sit unread in the
socket, the kernel resets the connection and the client may lose the answer (RFC 9112 §9.6:
read on before closing). So `DrainUnreadBody` holds such an answer back until it has read
the rest of the body and thrown it away: nothing read here is kept, so a refused body never
costs more memory than one chunk from the server. The drain is bounded in bytes and in time;
past either bound the connection is closed anyway (a client sending gigabytes gets no
courtesy), and a client that sent `Expect: 100-continue` and no body yet is not invited to
send it.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Read at most this much of an unread body (or for this long) before answering anyway.
DRAIN_BYTES = 16 * 1024 * 1024
DRAIN_SECONDS = 10.0
_CLOSE = (b"connection", b"close")


def _declares_body(scope: Scope) -> tuple[bool, bool]:
    """Whether the request announces a body, and whether it waits for 100 Continue."""
    body = expects = False
    for name, value in scope["headers"]:
        if name == b"content-length":
            body = body or value.strip() not in (b"", b"0")
        elif name == b"transfer-encoding":
            body = True
        elif name == b"expect":
            expects = value.strip().lower() == b"100-continue"
    return body, expects


async def drain(receive: Receive, max_bytes: int = DRAIN_BYTES,
                seconds: float = DRAIN_SECONDS) -> bool:
    """Read and discard the rest of the request body; whether it was read to its end."""
    seen = 0
    try:
        async with asyncio.timeout(seconds):
            while seen <= max_bytes:
                message = await receive()
                if message["type"] != "http.request":
                    return False  # the client went away: nothing left to protect
                seen += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return True
    except TimeoutError:
        pass
    return False


class DrainUnreadBody:
    """Wraps the app: before an answer starts, the body the app left unread is drained."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        has_body, expects_continue = _declares_body(scope)
        if not has_body:
            await self.app(scope, receive, send)
            return
        finished = False
        received_any = False

        async def tracking_receive() -> Message:
            nonlocal finished, received_any
            message = await receive()
            received_any = True
            if message["type"] != "http.request" or not message.get("more_body", False):
                finished = True
            return message

        async def draining_send(message: Message) -> None:
            nonlocal finished
            if message["type"] == "http.response.start":
                close = message["status"] == 413
                if not finished:
                    if expects_continue and not received_any:
                        close = True  # the client never sent the body: do not ask for it
                    else:
                        close = not await drain(receive) or close
                    finished = True
                if close:
                    message = {**message, "headers": [*message.get("headers", ()), _CLOSE]}
            await send(message)

        await self.app(scope, tracking_receive, draining_send)
