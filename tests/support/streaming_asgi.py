"""An httpx transport that calls the app in-process and streams its response as it is sent.

httpx.ASGITransport runs the app to its end before handing back the response, so a stream
that never ends (a followed NDJSON session stream) hangs it. This one returns the response at
`http.response.start` and passes body parts on as they come; closing the response tells the
app the client went away (`http.disconnect`) and stops it. Lets open-ended streams be read in
process, as a client that stops at the event it waits for.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx

ASGIApp = Any


class StreamingASGITransport(httpx.AsyncBaseTransport):
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": request.method,
                 "headers": [(k.lower(), v) for (k, v) in request.headers.raw],
                 "scheme": request.url.scheme, "path": request.url.path,
                 "raw_path": request.url.raw_path.split(b"?")[0],
                 "query_string": request.url.query,
                 "server": (request.url.host, request.url.port),
                 "client": ("127.0.0.1", 123), "root_path": ""}
        parts: asyncio.Queue[bytes | None] = asyncio.Queue()
        started: asyncio.Future[tuple[int, list[tuple[bytes, bytes]]]] = \
            asyncio.get_running_loop().create_future()
        gone = asyncio.Event()
        request_sent = False

        async def receive() -> dict[str, Any]:
            nonlocal request_sent
            if not request_sent:
                request_sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                started.set_result((message["status"], list(message.get("headers", []))))
            elif message["type"] == "http.response.body":
                if message.get("body"):
                    await parts.put(message["body"])
                if not message.get("more_body", False):
                    await parts.put(None)

        async def run() -> None:
            try:
                await self.app(scope, receive, send)
            except Exception as exc:
                if not started.done():
                    started.set_exception(exc)
            finally:
                if not started.done():
                    started.set_exception(RuntimeError("the app sent no response"))
                await parts.put(None)

        task = asyncio.create_task(run())
        status, headers = await started
        return httpx.Response(status, headers=headers, request=request,
                              stream=_Body(parts, task, gone))


class _Body(httpx.AsyncByteStream):
    def __init__(self, parts: asyncio.Queue[bytes | None], task: asyncio.Task[None],
                 gone: asyncio.Event) -> None:
        self.parts, self.task, self.gone = parts, task, gone

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while (part := await self.parts.get()) is not None:
            yield part

    async def aclose(self) -> None:
        self.gone.set()
        if not self.task.done():
            self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


class Cut(httpx.AsyncBaseTransport):
    """Passes requests on to `inner`; the responses whose path contains `path_part` lose
    their connection after the given number of body bytes, one number per response in order
    (None: the whole body), as a network drop would."""

    def __init__(self, inner: httpx.AsyncBaseTransport, path_part: str,
                 cuts: list[int | None]) -> None:
        self.inner, self.path_part, self.cuts = inner, path_part, list(cuts)
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if self.path_part not in request.url.path:
            return response
        self.requests.append(request)
        limit = self.cuts.pop(0) if self.cuts else None
        if limit is None:
            return response
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return httpx.Response(response.status_code, headers=response.headers, request=request,
                              stream=_CutBody(response.stream, limit))


class _CutBody(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, limit: int) -> None:
        self.inner, self.limit = inner, limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        left = self.limit
        async for part in self.inner:
            if len(part) >= left:
                if left:
                    yield part[:left]
                break
            left -= len(part)
            yield part
        raise httpx.RemoteProtocolError("peer closed connection without sending complete "
                                        "message body (incomplete chunked read)")

    async def aclose(self) -> None:
        await self.inner.aclose()
