"""An in-process OpenAI-compatible chat-completions server, for the `openai` model's fast tests.

It speaks the real wire format: `text/event-stream` bodies of `data:` chunks ending in
`data: [DONE]`, replayed from tests/recordings/openai or scripted (text in pieces, tool calls
with their arguments split across chunks), OpenAI's error bodies with their status and headers,
and a whole `chat.completion` for a server that ignores `stream: true`. `transport()` serves it
through httpx.ASGITransport and injects the failures a network adds (a refused connection, a
timeout, a connection dropped mid-body), which an in-process server cannot produce itself.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from commerce_agent.agent.agents import OPENAI_AGENT
from commerce_agent.agent.models.base import (
    CallTool,
    Message,
    ModelOutput,
    ModelRequest,
    TextDelta,
)
from commerce_agent.agent.models.openai import OpenAIModel
from commerce_agent.settings import Settings
from tests.support.app import running
from tests.support.seeded import copy_seeded

RECORDINGS = Path(__file__).parents[1] / "recordings" / "openai"
KEY = "sk-test"
BASE_URL = "http://openai.test/v1"
# The text of the recordings openai_text.sse and openai_long_text.sse.
FULL_TEXT = "The Limited Edition Glaze Mug is 18.00 USD."
LONG_TEXT = ("Here are two mugs: the Classic Stoneware Mug at 24.00 USD and the Limited "
             "Edition Glaze Mug at 18.00 USD.")
REQUEST = ModelRequest("You shop.", [Message("user", "a mug please")], [])
# The app on the fake, as `openai_app` yields it: the app, a client of it, Alice's headers.
OpenAIApp = tuple[Starlette, httpx.AsyncClient, dict[str, str]]


@dataclass
class Reply:
    """One answer: a recording, scripted text and calls, raw events, an error or a fault."""

    recording: str = ""
    text: str = ""
    # (name, raw arguments JSON text): sent as OpenAI does, name first, arguments in pieces.
    calls: list[tuple[str, str]] = field(default_factory=list)
    events: list[str] | None = None  # raw `data:` payloads, sent as they are
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    # OpenAI's {"error": {...}} from a dict, Ollama's {"error": "..."} from a str, bytes as
    # they are (a proxy's plain text).
    error: dict[str, Any] | str | bytes = field(default_factory=lambda: {"message": "overloaded"})
    whole: bytes | None = None  # a JSON body, as a server that ignores `stream: true` sends
    cut_after: int | None = None  # events sent before the body stops (no [DONE])
    dropped: bool = False  # after the events sent, the connection breaks
    fault: type[httpx.TransportError] | None = None  # raised before the server is reached
    piece: int = 4  # characters per content or arguments chunk
    gate: asyncio.Event | None = None  # the answer waits for it (a model still thinking)

    def payloads(self) -> list[str]:
        if self.events is not None:
            return self.events
        if self.recording:
            return recording_payloads(self.recording)
        return scripted_payloads(self.text, self.calls, self.piece)


def chunk(delta: dict[str, Any], finish: str | None = None, index: int = 0) -> str:
    return json.dumps({"id": "chatcmpl-fake", "object": "chat.completion.chunk",
                       "created": 1732456170, "model": "gpt-4o-mini",
                       "choices": [{"index": index, "delta": delta, "logprobs": None,
                                    "finish_reason": finish}]})


def scripted_payloads(text: str, calls: list[tuple[str, str]], piece: int = 4) -> list[str]:
    payloads = [chunk({"role": "assistant", "content": ""})]
    payloads += [chunk({"content": text[start:start + piece]})
                 for start in range(0, len(text), piece)]
    for index, (name, arguments) in enumerate(calls):
        payloads.append(chunk({"tool_calls": [{
            "index": index, "id": f"call_{index}", "type": "function",
            "function": {"name": name, "arguments": ""}}]}))
        payloads += [chunk({"tool_calls": [{"index": index, "function": {
            "arguments": arguments[start:start + piece]}}]})
            for start in range(0, len(arguments), piece)]
    payloads.append(chunk({}, "tool_calls" if calls else "stop"))
    return [*payloads, "[DONE]"]


def recording_payloads(name: str) -> list[str]:
    """The `data:` payloads of a recorded stream, `[DONE]` included."""
    lines = (RECORDINGS / name).read_text().splitlines()
    return [line[5:].strip() for line in lines if line.startswith("data:")]


def recording_chunks(name: str) -> list[dict[str, Any]]:
    """A recording's decoded chunks, without the closing `[DONE]`."""
    return [json.loads(payload) for payload in recording_payloads(name) if payload != "[DONE]"]


class FakeOpenAI:
    """Each request pops the next reply (a default text answer when none is left)."""

    default = "Nothing more to say."

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []
        self.arrived = asyncio.Event()  # set by each request that reaches the endpoint
        self.app = Starlette(routes=[Route("/v1/chat/completions", self._completions,
                                           methods=["POST"])])

    def _next(self) -> Reply:
        return self.replies.pop(0) if self.replies else Reply(text=self.default)

    async def _completions(self, request: Request) -> Response:
        if request.headers.get("authorization") != f"Bearer {KEY}":
            return JSONResponse({"error": {"message": "Incorrect API key provided: sk-wr***ng.",
                                           "type": "invalid_request_error",
                                           "code": "invalid_api_key"}}, status_code=401)
        self.requests.append(await request.json())
        reply = request.scope["state"]["reply"]
        self.arrived.set()
        if reply.gate is not None:
            await reply.gate.wait()
        if reply.status != 200:
            if isinstance(reply.error, bytes):
                return Response(reply.error, status_code=reply.status, headers=reply.headers,
                                media_type="text/plain")
            return JSONResponse({"error": reply.error}, status_code=reply.status,
                                headers=reply.headers)
        if reply.recording.endswith(".json"):
            reply.whole = (RECORDINGS / reply.recording).read_bytes()
        if reply.whole is not None:
            return Response(reply.whole, media_type="application/json")
        return StreamingResponse(self._events(reply), media_type="text/event-stream")

    async def _events(self, reply: Reply) -> AsyncIterator[bytes]:
        yield b": keep-alive\n\n"  # a comment line, as proxies and some servers send
        for number, payload in enumerate(reply.payloads()):
            if reply.cut_after is not None and number >= reply.cut_after:
                return
            yield f"data: {payload}\n\n".encode()

    def transport(self) -> httpx.AsyncBaseTransport:
        return _Network(self)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=self.transport())


class _Dropped(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream) -> None:
        self.inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for part in self.inner:
            yield part
        raise httpx.RemoteProtocolError("peer closed connection without sending complete "
                                        "message body (incomplete chunked read)")


class _Network(httpx.AsyncBaseTransport):
    """The fake behind httpx.ASGITransport, with the network's failures on cue."""

    def __init__(self, fake: FakeOpenAI) -> None:
        self.fake = fake

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        reply = self.fake._next()
        self.fake.headers.append(request.headers)
        if reply.fault is not None:
            self.fake.requests.append(json.loads(request.content))
            raise reply.fault(f"{reply.fault.__name__} (injected)", request=request)
        inner = httpx.ASGITransport(app=_WithReply(self.fake.app, reply))
        response = await inner.handle_async_request(request)
        if reply.dropped:
            assert isinstance(response.stream, httpx.AsyncByteStream)
            return httpx.Response(response.status_code, headers=response.headers,
                                  stream=_Dropped(response.stream), request=request)
        return response


class _WithReply:
    """Hands the reply chosen for this request to the endpoint through the ASGI scope."""

    def __init__(self, app: Starlette, reply: Reply) -> None:
        self.app, self.reply = app, reply

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        scope = {**scope, "state": {**scope.get("state", {}), "reply": self.reply}}
        await self.app(scope, receive, send)


class Sleeps:
    """Records the waits the model asks for instead of sleeping them."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@asynccontextmanager
async def openai_app(settings: Settings, seeded: Path, fake: FakeOpenAI, **changes: Any
                     ) -> AsyncIterator[OpenAIApp]:
    """The app on a seeded database with the `openai-shopper` agent, whose model talks to
    `fake` in-process; yields the app, a client of it and Alice's headers."""
    copy_seeded(seeded, settings.db_path)
    options = {"openai_base_url": BASE_URL, "openai_api_key": KEY, "openai_model": "gpt-4o-mini",
               "openai_retry_seconds": 0.001, "journal": "memory", **changes}
    async with running(settings, **options) as (app, http, alice), fake.client() as wire:
        model = app.state.agent.agents[OPENAI_AGENT].model
        assert isinstance(model, OpenAIModel)
        model.client = wire  # the app's own model object, speaking to the fake
        yield app, http, alice


@pytest.fixture
def openai_fake() -> FakeOpenAI:
    """The fake server a test scripts (registered in tests/conftest.py)."""
    return FakeOpenAI()


@pytest.fixture
async def openai_api(settings: Settings, seeded_sqlite: Path, openai_fake: FakeOpenAI
                     ) -> AsyncIterator[OpenAIApp]:
    """The app whose `openai-shopper` talks to `openai_fake` (registered in tests/conftest.py)."""
    async with openai_app(settings, seeded_sqlite, openai_fake) as made:
        yield made


async def outputs(model: OpenAIModel, request: ModelRequest = REQUEST) -> list[ModelOutput]:
    """Everything one step of the model gives."""
    return [output async for output in model.step(request)]


def text_of(found: list[ModelOutput]) -> str:
    return "".join(output.text for output in found if isinstance(output, TextDelta))


def calls_of(found: list[ModelOutput]) -> list[CallTool]:
    return [output for output in found if isinstance(output, CallTool)]
