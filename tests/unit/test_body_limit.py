"""DrainUnreadBody on plain ASGI messages, for what tests/live/test_body_limit.py leaves out:
an answer to a body read in full is sent as it is, a client gone or too slow mid-body gets
`Connection: close`, a request without a body and other scopes pass untouched."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import Message, Receive, Scope, Send

from commerce_agent.body_limit import DrainUnreadBody, drain

CLOSE = (b"connection", b"close")


class _Client:
    def __init__(self, *messages: Message, hang: bool = False) -> None:
        self.messages = list(messages)
        self.hang = hang
        self.reads = 0
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        self.reads += 1
        if not self.messages and self.hang:
            await asyncio.Event().wait()  # a client that stopped sending
        return self.messages.pop(0)

    async def send(self, message: Message) -> None:
        self.sent.append(message)


def _chunk(body: bytes, more: bool = False) -> Message:
    return {"type": "http.request", "body": body, "more_body": more}


def _scope(*headers: tuple[bytes, bytes]) -> dict[str, Any]:
    return {"type": "http", "method": "POST", "path": "/", "headers": list(headers)}


def _app(status: int, *, read: int = 0) -> Any:
    """Reads `read` messages of the body, then answers `status`."""
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        for _ in range(read):
            await receive()
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    return app


async def test_an_answer_to_a_body_read_in_full_is_sent_as_it_is() -> None:
    client = _Client(_chunk(b"{", more=True), _chunk(b"}"))
    await DrainUnreadBody(_app(200, read=2))(_scope((b"content-length", b"2")), client.receive,
                                            client.send)
    assert client.sent[0]["headers"] == [] and client.reads == 2


async def test_an_early_answer_reads_the_rest_and_keeps_the_connection() -> None:
    client = _Client(_chunk(b"a", more=True), _chunk(b"b", more=True), _chunk(b"c"))
    await DrainUnreadBody(_app(401))(_scope((b"transfer-encoding", b"chunked")),
                                     client.receive, client.send)
    assert client.reads == 3 and client.sent[0]["status"] == 401
    assert CLOSE not in client.sent[0]["headers"]


async def test_a_client_gone_mid_body_is_answered_with_close() -> None:
    client = _Client(_chunk(b"a", more=True), {"type": "http.disconnect"})
    await DrainUnreadBody(_app(404))(_scope((b"content-length", b"9")), client.receive,
                                     client.send)
    assert CLOSE in client.sent[0]["headers"]


async def test_a_client_too_slow_to_drain_is_answered_with_close() -> None:
    client = _Client(_chunk(b"a", more=True), hang=True)
    assert await drain(client.receive, seconds=0) is False


async def test_requests_without_a_body_and_other_scopes_pass_untouched() -> None:
    seen: list[Receive] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(receive)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 413, "headers": []})

    client = _Client()
    for scope in (_scope(), _scope((b"content-length", b"0")),
                  _scope((b"content-length", b" ")), {"type": "lifespan"}):
        await DrainUnreadBody(app)(scope, client.receive, client.send)
    assert all(receive == client.receive for receive in seen)  # not wrapped
    assert client.reads == 0
    assert all(message["headers"] == [] for message in client.sent)  # even a 413


async def test_a_413_always_closes_even_after_the_body_was_drained() -> None:
    client = _Client(_chunk(b"a", more=True), _chunk(b"b"))
    await DrainUnreadBody(_app(413, read=1))(_scope((b"content-length", b"2")),
                                             client.receive, client.send)
    assert client.reads == 2 and CLOSE in client.sent[0]["headers"]
