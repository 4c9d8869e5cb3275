"""The `openai` model against a local server speaking the chat-completions streaming protocol."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from commerce_agent.agent.models.openai import strict_ready
from commerce_agent.app import create_app
from commerce_agent.auth.tokens import mint_token
from commerce_agent.settings import Settings
from tests.support.agent_support import consent, ndjson
from tests.support.lifecycle_support import mug_order
from tests.support.live import free_port

MOUNT = "/agent/v1"
AGENT = "openai-shopper"


class FakeOpenAI:
    """Answers from a script: each request pops the next reply (text, tool calls or JSON)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.replies: list[dict[str, Any]] = []

    async def completions(self, request: Request) -> Response:
        if request.headers.get("authorization") != "Bearer sk-test":
            return JSONResponse({"error": {"message": "bad key"}}, status_code=401)
        body = await request.json()
        self.requests.append(body)
        reply = self.replies.pop(0) if self.replies else {"text": "Nothing more to say."}
        if reply.get("status"):
            return JSONResponse({"error": {"message": "overloaded"}},
                                status_code=int(reply["status"]))
        return StreamingResponse(self._chunks(reply), media_type="text/event-stream")

    async def _chunks(self, reply: dict[str, Any]) -> AsyncIterator[bytes]:
        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            data = {"id": "chatcmpl-1", "object": "chat.completion.chunk",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            return f"data: {json.dumps(data)}\n\n".encode()

        yield chunk({"role": "assistant", "content": ""})
        text = reply.get("text", "")
        for start in range(0, len(text), 7):
            yield chunk({"content": text[start:start + 7]})
            await asyncio.sleep(0)
        for index, (name, args) in enumerate(reply.get("calls", [])):
            encoded = json.dumps(args)
            yield chunk({"tool_calls": [{"index": index, "id": f"call_fake{index}",
                                         "type": "function",
                                         "function": {"name": name, "arguments": ""}}]})
            for start in range(0, len(encoded), 5):
                yield chunk({"tool_calls": [{"index": index, "function": {
                    "arguments": encoded[start:start + 5]}}]})
        yield chunk({}, "tool_calls" if reply.get("calls") else "stop")
        yield b"data: [DONE]\n\n"


@pytest.fixture
async def fake() -> AsyncIterator[tuple[FakeOpenAI, str]]:
    model = FakeOpenAI()
    app = Starlette(routes=[Route("/v1/chat/completions", model.completions,
                                  methods=["POST"])])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off", ws="none"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    yield model, f"http://127.0.0.1:{port}/v1"
    server.should_exit = True
    await task


@pytest.fixture
async def agent_client(fake: tuple[FakeOpenAI, str],
                       tmp_path: os.PathLike[str]) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(db_path=os.path.join(tmp_path, "openai.db"), base_url="http://test",
                        simulate=False, sqlite_synchronous="NORMAL", journal="memory",
                        openai_base_url=fake[1], openai_api_key="sk-test",
                        openai_model="fake-model", openai_retry_seconds=0.001)
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def run(client: httpx.AsyncClient, message: str, **body: Any) -> list[dict[str, Any]]:
    created = await client.post(f"{MOUNT}/session",
                                json={"message": message, "agent": AGENT, **body})
    assert created.status_code == 202, created.text
    response = await client.get(f"{MOUNT}/session/{created.json()['sessionId']}/stream")
    return ndjson(response.text)


def text(events: list[dict[str, Any]]) -> str:
    return "".join(e["data"]["text"] for e in events if e["type"] == "agent.content.delta")


async def test_the_openai_agent_is_listed(agent_client: httpx.AsyncClient) -> None:
    info = (await agent_client.get(f"{MOUNT}/info")).json()
    assert {"name": AGENT, "model": "openai:fake-model"}.items() <= next(
        a for a in info["agents"] if a["name"] == AGENT).items()


async def test_streamed_text_and_tool_calls(fake: tuple[FakeOpenAI, str],
                                            agent_client: httpx.AsyncClient) -> None:
    model, _ = fake
    model.replies = [
        {"text": "Let me search. ", "calls": [("search_products",
                                               {"query": "mug", "maxPrice": "20"})]},
        {"text": "The Limited Edition Glaze Mug costs 18.00 USD."},
    ]
    events = await run(agent_client, "find a mug under $20")
    assert text(events) == "Let me search. The Limited Edition Glaze Mug costs 18.00 USD."
    call = next(e["data"] for e in events if e["type"] == "agent.tool_call")
    assert call["tool"]["name"] == "search_products"
    assert call["args"] == {"query": "mug", "maxPrice": "20"}
    result = next(e["data"] for e in events if e["type"] == "agent.tool_result")
    assert result["isError"] is False
    assert result["result"]["results"][0]["itemId"] == "item_limited_glaze_mug"
    assert events[-1]["type"] == "session.waiting"

    first, second = model.requests
    assert first["model"] == "fake-model" and first["stream"] is True
    assert first["messages"][0]["role"] == "system"
    assert first["messages"][-1] == {"role": "user", "content": "find a mug under $20"}
    assert {tool["function"]["name"] for tool in first["tools"]} >= {
        "search_products", "connection__commerce__place_order"}
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool"]
    assistant, tool_message = second["messages"][-2:]
    assert assistant["content"] == "Let me search. "
    assert assistant["tool_calls"][0]["id"] == call["toolCallId"]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == call["args"]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == call["toolCallId"]
    assert json.loads(tool_message["content"])["results"][0]["name"] == \
        "Limited Edition Glaze Mug"


async def test_structured_output(fake: tuple[FakeOpenAI, str],
                                 agent_client: httpx.AsyncClient) -> None:
    model, _ = fake
    schema = {"type": "object", "properties": {"item": {"type": "string"},
                                               "price": {"type": "number"}},
              "required": ["item", "price"], "additionalProperties": False}
    model.replies = [{"text": json.dumps({"item": "Limited Edition Glaze Mug", "price": 18})}]
    events = await run(agent_client, "the cheapest mug as JSON", outputSchema=schema)
    assert model.requests[0]["response_format"] == {
        "type": "json_schema", "json_schema": {"name": "result", "schema": schema,
                                               "strict": True}}
    result = next(e["data"] for e in events if e["type"] == "result.completed")
    assert result == {"result": {"item": "Limited Edition Glaze Mug", "price": 18}}
    assert [e["type"] for e in events][-2:] == ["agent.complete", "session.waiting"]


async def test_a_result_missing_a_required_field_fails_the_turn(
        fake: tuple[FakeOpenAI, str], agent_client: httpx.AsyncClient) -> None:
    model, _ = fake
    schema = {"type": "object", "properties": {"item": {"type": "string"},
                                               "price": {"type": "number"}},
              "required": ["item", "price"]}
    model.replies = [{"text": json.dumps({"item": "Mug"})}]
    events = await run(agent_client, "as JSON", outputSchema=schema)
    # Not closed (additionalProperties): strict mode would refuse it, so it is not asked for.
    assert model.requests[0]["response_format"] == {
        "type": "json_schema", "json_schema": {"name": "result", "schema": schema}}
    assert events[-1]["type"] == "session.failed"
    assert "'price' is a required property" in events[-1]["data"]["error"]
    assert "result.completed" not in [e["type"] for e in events]


async def test_an_endpoint_error_fails_the_session_with_the_reason(
        fake: tuple[FakeOpenAI, str], agent_client: httpx.AsyncClient) -> None:
    fake[0].replies = [{"status": 503}] * 4  # the first try and three retries
    events = await run(agent_client, "hello")
    assert events[-1]["type"] == "session.failed"
    assert "answered 503" in events[-1]["data"]["error"]
    assert len(fake[0].requests) == 4 and fake[0].replies == []


def closed(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False, **extra}


@pytest.mark.parametrize(("schema", "ready"), [
    (closed({"a": {"type": "string"}}), True),
    (closed({"a": {"type": ["string", "null"], "description": "maybe"},
             "b": {"type": "array", "items": closed({"c": {"enum": ["x", "y"]}}),
                   "maxItems": 3},
             "d": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
             "e": {"$ref": "#/$defs/e"}},
            **{"$defs": {"e": closed({"f": {"type": "string", "pattern": "^[a-z]+$"}})}}),
     True),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, False),
    (closed({"a": {"type": "string"}}, required=[]), False),
    (closed({"a": closed({"b": {"type": "object", "properties": {}}})}), False),
    (closed({"a": {"type": "string", "minLength": 1}}), False),
    (closed({"a": {"type": "string", "default": "x"}}), False),
    ({"type": "array", "items": {"type": "string"}}, False),
    ({"anyOf": [closed({"a": {"type": "string"}})]}, False),
    (closed({"a": {"type": "object"}}), False),
])
def test_strict_only_for_schemas_strict_mode_accepts(schema: dict[str, Any],
                                                     ready: bool) -> None:
    assert strict_ready(schema) is ready


async def test_a_catastrophic_pattern_fails_the_result_without_stalling(
        fake: tuple[FakeOpenAI, str], agent_client: httpx.AsyncClient) -> None:
    model, _ = fake
    schema = closed({"code": {"type": "string", "pattern": "^(a|a)*$"}})
    model.replies = [{"text": json.dumps({"code": "a" * 27 + "b"})}]  # about 2**27 steps in re
    started = time.monotonic()
    events = await run(agent_client, "as JSON", outputSchema=schema)
    assert time.monotonic() - started < 5
    assert events[-1]["type"] == "session.failed"
    assert "took too long" in events[-1]["data"]["error"]


async def test_a_cancel_the_openai_model_asks_for_waits_for_approval(
        fake: tuple[FakeOpenAI, str], tmp_path: os.PathLike[str]) -> None:
    """The openai model sits behind the same policy: its cancel_order call parks the turn with
    the order's prompt; rejected, the order is untouched and the model hears exactly that."""
    settings = Settings(db_path=os.path.join(tmp_path, "policy.db"), base_url="http://test",
                        simulate=False, sqlite_synchronous="NORMAL", journal="memory",
                        openai_base_url=fake[1], openai_api_key="sk-test",
                        openai_model="fake-model", openai_retry_seconds=0.001)
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        async with application.state.db.transaction() as tx:
            alice = {"Authorization": f"Bearer {await mint_token(tx, 'user_alice', 'test')}"}
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            order_id = (await mug_order(client, alice))["id"]
            model, _ = fake
            model.replies = [
                {"text": "Cancelling. ", "calls": [("connection__commerce__cancel_order",
                                                    {"orderId": order_id})]},
                {"text": "You chose to keep it."}]
            created = await client.post(f"{MOUNT}/session",
                                        json={"message": "cancel it", "agent": AGENT})
            session_id, token = created.json()["sessionId"], created.json()["continuationToken"]
            stream = f"{MOUNT}/session/{session_id}/stream"
            parked = ndjson((await client.get(stream)).text)
            assert (await consent(client, parked[-1]["data"]["authUrl"])).status_code == 200
            events = ndjson((await client.get(stream)).text)
            asked = events[-1]
            assert asked["type"] == "input.requested"
            assert f"Cancel order {order_id} from Hearth & Kiln Ceramics?" in \
                asked["data"]["prompt"]
            assert "Refund: $26.50" in asked["data"]["prompt"]
            assert "agent.tool_result" not in [e["type"] for e in events]
            answered = await client.post(
                f"{MOUNT}/session/{session_id}",
                json={"continuationToken": token,
                      "inputResponses": {asked["data"]["requestId"]: "reject"}},
                headers={"Authorization": f"Bearer {token}"})
            assert answered.status_code == 200
            events = ndjson((await client.get(stream)).text)
            assert events[-1]["type"] == "session.waiting"
            assert text(events).endswith("You chose to keep it.")
            order = (await client.get(f"/orders/{order_id}", headers=alice)).json()
            assert order["status"] == "confirmed"
            heard = json.loads(model.requests[-1]["messages"][-1]["content"])["error"]
            assert heard["code"] == "rejected_by_user" and heard["orderId"] == order_id
            assert heard["changed"] is False
