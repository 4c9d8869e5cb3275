"""The `openai` model against real-provider behaviour: a local server on 127.0.0.1 replays
chat-completion streams in the wire format of OpenAI and local servers (tests/recordings/openai)
and misbehaves on cue: 429 with Retry-After, 5xx, dropped streams, slow answers, a wrong key."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from commerce_agent.agent.models.base import (
    CallTool,
    Message,
    ModelError,
    ModelRequest,
    ToolCallRecord,
)
from commerce_agent.agent.models.openai import OpenAIModel, RetryPolicy, request_body
from commerce_agent.agent.models.openai.budget import TRIMMED, fit_messages
from commerce_agent.agent.models.openai.transport import retry_after
from commerce_agent.app import create_app
from commerce_agent.settings import Settings
from tests.support.agent_support import ndjson
from tests.support.live import free_port
from tests.support.openai_fake import (
    FULL_TEXT,
    KEY,
    LONG_TEXT,
    RECORDINGS,
    Sleeps,
    calls_of,
    outputs,
    text_of,
)


@dataclass
class Reply:
    """One scripted answer: a status with headers, or a recorded stream (maybe cut short)."""

    recording: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    error: dict[str, Any] = field(default_factory=lambda: {"message": "overloaded"})
    cut_after: int | None = None  # events sent before the stream stops
    abort: bool = False  # stop by breaking the connection rather than ending the body
    delay: float = 0.0  # seconds of silence before the first byte


class Provider:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []

    async def completions(self, request: Request) -> Response:
        if request.headers.get("authorization") != f"Bearer {KEY}":
            return JSONResponse({"error": {"message": "Incorrect API key provided: sk-wr***ng.",
                                           "type": "invalid_request_error",
                                           "code": "invalid_api_key"}}, status_code=401)
        self.requests.append(await request.json())
        reply = self.replies.pop(0) if self.replies else Reply("openai_text.sse")
        if reply.delay:
            await asyncio.sleep(reply.delay)
        if reply.status != 200:
            return JSONResponse({"error": reply.error}, status_code=reply.status,
                                headers=reply.headers)
        if reply.recording.endswith(".json"):  # a server that ignores `stream: true`
            return Response((RECORDINGS / reply.recording).read_bytes(),
                            media_type="application/json")
        return StreamingResponse(self._replay(reply), media_type="text/event-stream")

    async def _replay(self, reply: Reply) -> AsyncIterator[bytes]:
        events = (RECORDINGS / reply.recording).read_text().split("\n\n")
        for number, item in enumerate(event for event in events if event.strip()):
            if reply.cut_after is not None and number >= reply.cut_after:
                if reply.abort:
                    raise ConnectionResetError("the provider dropped the stream")
                return
            yield (item + "\n\n").encode()
            await asyncio.sleep(0)


@pytest.fixture
async def provider() -> AsyncIterator[tuple[Provider, str]]:
    fake = Provider()
    app = Starlette(routes=[Route("/v1/chat/completions", fake.completions, methods=["POST"])])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(),
                                           log_level="critical", lifespan="off", ws="none"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    yield fake, f"http://127.0.0.1:{server.config.port}/v1"
    server.should_exit = True
    await task


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


def model_for(url: str, http: httpx.AsyncClient, sleeps: Sleeps, key: str = KEY,
              **options: Any) -> OpenAIModel:
    return OpenAIModel(url, key, "gpt-4o-mini", http, sleep=sleeps,
                       policy=RetryPolicy(max_retries=3, base_delay=0.5), **options)




# -- retries ---------------------------------------------------------------------------------

async def test_429_waits_as_long_as_retry_after_says(provider: tuple[Provider, str],
                                                      http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply(status=429, headers={"Retry-After": "7"}),
                    Reply(status=429, headers={"retry-after-ms": "250"}),
                    Reply("openai_text.sse")]
    sleeps = Sleeps()
    found = await outputs(model_for(url, http, sleeps))
    assert sleeps.waits == [7.0, 0.25]
    assert text_of(found) == FULL_TEXT and len(fake.requests) == 3


async def test_5xx_backs_off_exponentially_then_gives_up(provider: tuple[Provider, str],
                                                          http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply(status=status) for status in (500, 502, 503, 504)]
    sleeps = Sleeps()
    with pytest.raises(ModelError, match=r"answered 504: overloaded \(gave up after 4 attempts"):
        await outputs(model_for(url, http, sleeps))
    assert len(fake.requests) == 4 and len(sleeps.waits) == 3
    for retry, wait in enumerate(sleeps.waits):  # half to all of 0.5, 1, 2 s (jitter)
        assert 0.5 * 2 ** retry / 2 <= wait <= 0.5 * 2 ** retry


async def test_a_retry_after_beyond_the_limit_fails_at_once(provider: tuple[Provider, str],
                                                             http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply(status=429, headers={"Retry-After": "3600"})]
    sleeps = Sleeps()
    with pytest.raises(ModelError, match="asked to retry after 3600 s"):
        await outputs(model_for(url, http, sleeps))
    assert sleeps.waits == [] and len(fake.requests) == 1


async def test_exhausted_quota_is_not_retried(provider: tuple[Provider, str],
                                              http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply(status=429, error={"message": "You exceeded your current quota.",
                                             "code": "insufficient_quota"})]
    with pytest.raises(ModelError, match="quota is used up"):
        await outputs(model_for(url, http, Sleeps()))
    assert len(fake.requests) == 1


@pytest.mark.parametrize("abort", [True, False])
async def test_a_dropped_stream_is_retried_without_repeating_text(
        provider: tuple[Provider, str], http: httpx.AsyncClient, abort: bool) -> None:
    fake, url = provider
    fake.replies = [Reply("openai_long_text.sse", cut_after=6, abort=abort),
                    Reply("openai_long_text.sse")]
    sleeps = Sleeps()
    found = await outputs(model_for(url, http, sleeps))
    assert text_of(found) == LONG_TEXT  # the first five words were sent once, not twice
    assert len(fake.requests) == 2 and len(sleeps.waits) == 1


async def test_a_regenerated_answer_continues_where_the_first_stopped(
        provider: tuple[Provider, str], http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply("openai_long_text.sse", cut_after=3, abort=True),
                    Reply("openai_text.sse")]
    found = await outputs(model_for(url, http, Sleeps()))
    assert text_of(found) == "Here are" + FULL_TEXT


async def test_a_silent_endpoint_times_out_and_is_retried(provider: tuple[Provider, str],
                                                          http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply("openai_text.sse", delay=0.5), Reply("openai_text.sse")]
    found = await outputs(model_for(url, http, Sleeps(), timeout=0.1))
    assert text_of(found) == FULL_TEXT and len(fake.requests) == 2


async def test_an_unreachable_endpoint_says_so(http: httpx.AsyncClient) -> None:
    sleeps = Sleeps()
    model = model_for(f"http://127.0.0.1:{free_port()}/v1", http, sleeps)
    with pytest.raises(ModelError, match=r"could not be reached .* is the server running\?"):
        await outputs(model)
    assert len(sleeps.waits) == 3


async def test_a_wrong_key_is_named_and_not_retried(provider: tuple[Provider, str],
                                                    http: httpx.AsyncClient) -> None:
    fake, url = provider
    sleeps = Sleeps()
    with pytest.raises(ModelError, match=r"rejected the API key \(401 Unauthorized\): "
                                         r"Incorrect API key provided"):
        await outputs(model_for(url, http, sleeps, key="sk-wrong"))
    assert sleeps.waits == []


def test_retry_after_reads_seconds_milliseconds_and_dates() -> None:
    assert retry_after(httpx.Headers({"Retry-After": "3"})) == 3.0
    assert retry_after(httpx.Headers({"retry-after-ms": "1500", "Retry-After": "9"})) == 1.5
    dated = retry_after(httpx.Headers({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}))
    assert dated is not None and dated < 0
    assert retry_after(httpx.Headers({"Retry-After": "soon"})) is None
    assert retry_after(httpx.Headers()) is None


# -- assembling tool calls -----------------------------------------------------------------

async def test_arguments_split_across_chunks_are_joined(provider: tuple[Provider, str],
                                                        http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply("openai_split_arguments.sse")]
    found = await outputs(model_for(url, http, Sleeps()))
    assert calls_of(found) == [CallTool("search_products",
                                        {"query": "glaze mug", "maxPrice": "20"})]


@pytest.mark.parametrize(("recording", "expected"), [
    ("openai_two_calls.sse", [("search_products", {"query": "teapot"}),
                              ("search_products", {"query": "matcha bowl",
                                                   "storeId": "store_midori"})]),
    ("ollama_whole_calls.sse", [("search_products", {"query": "teapot"}), ("list_stores", {})]),
])
async def test_two_tool_calls_in_one_step(provider: tuple[Provider, str],
                                          http: httpx.AsyncClient, recording: str,
                                          expected: list[tuple[str, dict[str, Any]]]) -> None:
    fake, url = provider
    fake.replies = [Reply(recording)]
    found = await outputs(model_for(url, http, Sleeps()))
    assert [(call.name, call.args, call.invalid) for call in calls_of(found)] == \
        [(name, args, "") for name, args in expected]


async def test_an_answer_that_was_not_streamed_is_read_whole(
        provider: tuple[Provider, str], http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply("not_streamed_completion.json")]
    found = await outputs(model_for(url, http, Sleeps()))
    assert text_of(found) == "Looking that up."
    assert calls_of(found) == [CallTool("search_products", {"query": "celadon teapot"})]


async def test_malformed_arguments_become_an_invalid_call(provider: tuple[Provider, str],
                                                          http: httpx.AsyncClient) -> None:
    fake, url = provider
    fake.replies = [Reply("malformed_arguments.sse")]
    bad, schema_failing = calls_of(await outputs(model_for(url, http, Sleeps())))
    assert bad.args == {} and "not valid JSON" in bad.invalid and "{'query': 'mug'}" in bad.invalid
    assert schema_failing.invalid == "" and schema_failing.args == {"query": "mug",
                                                                     "colour": "blue"}


# -- the context budget -----------------------------------------------------------------------

def conversation(results: int, size: int) -> list[Message]:
    messages = [Message("user", "find mugs")]
    for step in range(results):
        messages.append(Message("assistant", "", tool_calls=[
            ToolCallRecord(f"call_{step}", "search_products", {"query": "mug"})]))
        messages.append(Message("tool", tool_call_id=f"call_{step}", name="search_products",
                                result={"results": ["x" * size]}))
    return messages


def test_old_tool_results_are_trimmed_first() -> None:
    request = ModelRequest("You shop.", conversation(4, 2000), [])
    wire = request_body("m", request, budget_tokens=1500)["messages"]
    tools = [message for message in wire if message["role"] == "tool"]
    assert [message["content"] == TRIMMED for message in tools] == [True, True, False, False] \
        or [message["content"] == TRIMMED for message in tools] == [True, True, True, False]
    assert tools[-1]["content"] != TRIMMED  # the latest step's result is whole
    assert wire[0]["role"] == "system" and wire[1] == {"role": "user", "content": "find mugs"}
    # Each tool call still has its answer (the protocol requires it).
    assert [m["tool_call_id"] for m in tools] == [f"call_{step}" for step in range(4)]
    assert request_body("m", request, budget_tokens=100_000)["messages"] == \
        request_body("m", request)["messages"]


def test_old_exchanges_go_when_trimming_results_is_not_enough() -> None:
    messages = [{"role": "system", "content": "rules"},
                {"role": "user", "content": "a" * 4000}, {"role": "assistant", "content": "ok"},
                {"role": "user", "content": "b" * 4000}, {"role": "assistant", "content": "ok"},
                {"role": "user", "content": "latest"}]
    fitted = fit_messages(messages, budget_tokens=1200)
    assert fitted[0]["content"] == "rules" and fitted[-1]["content"] == "latest"
    assert [m["content"][:1] for m in fitted] == ["r", "b", "o", "l"]
    assert fit_messages(messages, budget_tokens=10) == [messages[0], messages[-1]]


async def test_the_budget_applies_to_what_is_sent(provider: tuple[Provider, str],
                                                  http: httpx.AsyncClient) -> None:
    fake, url = provider
    request = ModelRequest("You shop.", [*conversation(3, 4000), Message("user", "more")], [])
    await outputs(model_for(url, http, Sleeps(), context_tokens=2000), request)
    sent = [m["content"] for m in fake.requests[0]["messages"] if m["role"] == "tool"]
    assert sent[:2] == [TRIMMED, TRIMMED] and sent[2] != TRIMMED


# -- through the Agent Session API -------------------------------------------------------------

@pytest.fixture
async def agent_api(provider: tuple[Provider, str], tmp_path: os.PathLike[str]
                    ) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(db_path=os.path.join(tmp_path, "provider.db"), base_url="http://test",
                        simulate=False, sqlite_synchronous="NORMAL", journal="memory",
                        openai_base_url=provider[1], openai_api_key=KEY,
                        openai_model="gpt-4o-mini", openai_retry_seconds=0.001)
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def run(client: httpx.AsyncClient, message: str) -> list[dict[str, Any]]:
    created = await client.post("/agent/v1/session",
                                json={"message": message, "agent": "openai-shopper"})
    assert created.status_code == 202, created.text
    response = await client.get(f"/agent/v1/session/{created.json()['sessionId']}/stream")
    return ndjson(response.text)


async def test_two_calls_run_and_both_results_reach_the_model(
        provider: tuple[Provider, str], agent_api: httpx.AsyncClient) -> None:
    fake, _ = provider
    fake.replies = [Reply("openai_two_calls.sse"), Reply("openai_text.sse")]
    events = await run(agent_api, "a teapot and a matcha bowl")
    results = [e["data"] for e in events if e["type"] == "agent.tool_result"]
    assert [r["isError"] for r in results] == [False, False]
    # The raku bowl is sold out (the tool lists what is available): matcha comes back.
    teapots, matcha = (r["result"]["results"] for r in results)
    assert teapots[0]["itemId"] == "item_tokoname_kyusu"
    assert "Matcha" in matcha[0]["name"]
    assert events[-1]["type"] == "session.waiting"
    second = fake.requests[1]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool", "tool"]
    assert len(second[2]["tool_calls"]) == 2


async def test_invalid_arguments_are_answered_as_tool_errors(
        provider: tuple[Provider, str], agent_api: httpx.AsyncClient) -> None:
    fake, _ = provider
    fake.replies = [Reply("malformed_arguments.sse"), Reply("openai_text.sse")]
    events = await run(agent_api, "a mug")
    results = [e["data"] for e in events if e["type"] == "agent.tool_result"]
    assert [(r["isError"], r["result"]["code"]) for r in results] == [
        (True, "invalid_arguments"), (True, "invalid_arguments")]
    assert "not valid JSON" in results[0]["result"]["message"]
    assert "colour" in results[1]["result"]["message"]
    # The model heard both errors and answered; the session goes on.
    errors = [json.loads(m["content"]) for m in fake.requests[1]["messages"]
              if m["role"] == "tool"]
    assert [error["error"]["code"] for error in errors] == ["invalid_arguments"] * 2
    assert events[-1]["type"] == "session.waiting"


async def test_a_wrong_key_fails_the_session_with_a_clear_reason(
        provider: tuple[Provider, str], tmp_path: os.PathLike[str]) -> None:
    settings = Settings(db_path=os.path.join(tmp_path, "key.db"), base_url="http://test",
                        simulate=False, sqlite_synchronous="NORMAL", journal="memory",
                        openai_base_url=provider[1], openai_api_key="sk-wrong")
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            events = await run(client, "hello")
    assert events[-1]["type"] == "session.failed"
    reason = events[-1]["data"]["error"]
    assert "rejected the API key (401 Unauthorized)" in reason and "--openai-api-key" in reason


async def test_a_429_through_the_api_is_retried(provider: tuple[Provider, str],
                                                agent_api: httpx.AsyncClient) -> None:
    fake, _ = provider
    fake.replies = [Reply(status=429, headers={"retry-after-ms": "5"}), Reply("openai_text.sse")]
    events = await run(agent_api, "a mug")
    deltas = "".join(e["data"]["text"] for e in events if e["type"] == "agent.content.delta")
    assert deltas == FULL_TEXT and events[-1]["type"] == "session.waiting"


async def test_a_call_failing_its_schema_asks_nobody(provider: tuple[Provider, str],
                                                     agent_api: httpx.AsyncClient) -> None:
    """place_order without a cart: no consent link, no approval prompt, an error to the model."""
    fake, _ = provider
    fake.replies = [Reply("place_order_without_cart.sse"), Reply("openai_text.sse")]
    events = await run(agent_api, "buy it")
    kinds = [e["type"] for e in events]
    assert "authorization.required" not in kinds and "input.requested" not in kinds
    result = next(e["data"] for e in events if e["type"] == "agent.tool_result")
    assert result["isError"] and result["result"]["code"] == "invalid_arguments"
    assert "cartId" in result["result"]["message"]
    assert kinds[-1] == "session.waiting"
