"""Oversized bodies: every client that sends too much reads a 413, over a real socket too,
and the server never keeps more of the body than its limit."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Message

from commerce_agent.body_limit import DrainUnreadBody, drain
from commerce_agent.http import read_body
from commerce_agent.settings import Settings
from tests.support.live import LiveServer, start_live_server, user_token

TWO_MIB = 2 * 1024 * 1024
CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = start_live_server(os.path.join(tmp_path_factory.mktemp("limit"), "live.db"))
    live.tokens["alice"] = user_token(live.db_path)
    try:
        yield live
    finally:
        live.stop()


def _post(server: LiveServer, path: str, body: bytes, *, chunked: bool = False,
          content_type: str = "application/json", signed_in: bool = True) -> bytes:
    """Send the whole request over a fresh socket, then read the whole answer. The request
    says `Connection: close`, the case where an answer sent before the body was read used
    to be lost to a connection reset."""
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Content-Type: {content_type}\r\n")
    if signed_in:
        head += f"Authorization: Bearer {server.tokens['alice']}\r\n"
    if chunked:
        parts = [b"%x\r\n%s\r\n" % (len(body[at:at + CHUNK]), body[at:at + CHUNK])
                 for at in range(0, len(body), CHUNK)]
        data = (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + b"".join(parts) \
            + b"0\r\n\r\n"
    else:
        data = (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def test_a_2_mib_cart_body_reads_413_every_time(server: LiveServer) -> None:
    body = b'{"storeId": "' + b"x" * TWO_MIB + b'"}'
    answers = [_post(server, "/carts", body) for _ in range(20)]
    assert [_status(answer) for answer in answers] == [413] * 20
    assert b"payload_too_large" in answers[0]
    assert b"connection: close" in answers[0].lower()


def test_a_chunked_body_without_length_reads_413(server: LiveServer) -> None:
    body = b'{"storeId": "' + b"x" * TWO_MIB + b'"}'
    for _ in range(3):
        assert _status(_post(server, "/carts", body, chunked=True)) == 413


def test_agent_and_form_posts_read_413_too(server: LiveServer) -> None:
    body = b'{"message": "' + b"x" * TWO_MIB + b'"}'
    assert _status(_post(server, "/agent/v1/session", body)) == 413
    form = b"email=" + b"x" * TWO_MIB
    for chunked in (False, True):
        assert _status(_post(server, "/account/sign-in", form, chunked=chunked,
                             content_type="application/x-www-form-urlencoded")) == 413


def test_an_early_answer_to_an_unread_body_arrives(server: LiveServer) -> None:
    # 401 from the headers alone: the answer still arrives before the connection closes.
    answer = _post(server, "/carts", b'{"x": "' + b"y" * TWO_MIB + b'"}', signed_in=False)
    assert _status(answer) == 401


# --- in process: what is kept, what is drained ------------------------------------------

class _Sender:
    """A client sending `total` bytes in CHUNK pieces; counts what the server took."""

    def __init__(self, total: int) -> None:
        self.left = total
        self.taken = 0
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        size = min(CHUNK, self.left)
        self.left -= size
        self.taken += size
        return {"type": "http.request", "body": b"x" * size, "more_body": self.left > 0}

    async def send(self, message: Message) -> None:
        # By the time the answer starts, the whole body has been read from the client.
        if message["type"] == "http.response.start":
            message = {**message, "unread_then": self.left}
        self.sent.append(message)


def _scope(headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {"type": "http", "method": "POST", "path": "/carts", "headers": headers,
            "query_string": b"", "state": {}}


async def test_read_body_keeps_at_most_the_limit() -> None:
    limit = Settings().max_body_bytes
    sender = _Sender(TWO_MIB)
    seen: dict[str, int] = {}

    async def endpoint(request: Request) -> Response:
        try:
            await read_body(request)
        except Exception as exc:  # noqa: BLE001 - the 413 checked below
            seen["taken"] = sender.taken
            return Response(str(getattr(exc, "status", 0)), status_code=413)
        return Response("read", status_code=200)

    app = Starlette(routes=[Route("/carts", endpoint, methods=["POST"])])
    app.state.settings = Settings()
    scope = _scope([(b"transfer-encoding", b"chunked"), (b"content-type", b"application/json")])
    await DrainUnreadBody(app)(scope, sender.receive, sender.send)
    # read_body stopped at the first chunk past the limit: it held no more than limit bytes.
    assert limit < seen["taken"] <= limit + CHUNK
    # The rest was read (and thrown away) before the answer started.
    assert sender.sent[0]["status"] == 413 and sender.sent[0]["unread_then"] == 0
    assert (b"connection", b"close") in sender.sent[0]["headers"]


async def test_a_declared_length_past_the_limit_is_refused_unread_then_drained() -> None:
    sender = _Sender(TWO_MIB)

    async def endpoint(request: Request) -> Response:
        await read_body(request)
        return Response("read")

    from commerce_agent.errors import CommerceError, commerce_error_handler

    app = Starlette(routes=[Route("/carts", endpoint, methods=["POST"])],
                    exception_handlers={CommerceError: commerce_error_handler})
    app.state.settings = Settings()
    scope = _scope([(b"content-length", str(TWO_MIB).encode()),
                    (b"content-type", b"application/json")])
    await DrainUnreadBody(app)(scope, sender.receive, sender.send)
    assert sender.sent[0]["status"] == 413 and sender.sent[0]["unread_then"] == 0


async def test_drain_is_bounded() -> None:
    sender = _Sender(10 * TWO_MIB)
    assert await drain(sender.receive, max_bytes=TWO_MIB) is False
    assert sender.taken <= TWO_MIB + CHUNK
    assert await drain(_Sender(TWO_MIB).receive) is True


async def test_a_client_waiting_for_100_continue_is_not_asked_for_its_body() -> None:
    sender = _Sender(TWO_MIB)

    async def endpoint(request: Request) -> Response:
        return Response("no", status_code=401)

    app = Starlette(routes=[Route("/carts", endpoint, methods=["POST"])])
    scope = _scope([(b"content-length", str(TWO_MIB).encode()), (b"expect", b"100-continue")])
    await DrainUnreadBody(app)(scope, sender.receive, sender.send)
    assert sender.taken == 0
    assert sender.sent[0]["status"] == 401
    assert (b"connection", b"close") in sender.sent[0]["headers"]
