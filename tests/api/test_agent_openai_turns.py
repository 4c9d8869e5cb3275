"""Whole turns of the `openai-shopper` agent in-process: the app's own model object talks to the
fake chat-completions server (tests/support/openai_fake.py). What a model gets wrong (garbled
arguments, an unknown tool, endless tool calls, a result off its schema) becomes a tool error or
a failed session with a reason, never a crash; changes wait for the person's answer."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from commerce_agent.agent.agents import OPENAI_AGENT
from commerce_agent.agent.turn import MAX_MODEL_STEPS
from commerce_agent.settings import Settings
from tests.support.agent_support import consent, ndjson
from tests.support.lifecycle_support import mug_order
from tests.support.openai_fake import FULL_TEXT, FakeOpenAI, OpenAIApp, Reply, openai_app

MOUNT = "/agent/v1"



async def start(http: httpx.AsyncClient, message: str, **body: Any) -> tuple[str, str]:
    created = await http.post(f"{MOUNT}/session",
                              json={"message": message, "agent": OPENAI_AGENT, **body})
    assert created.status_code == 202, created.text
    return created.json()["sessionId"], created.json()["continuationToken"]


async def events_of(http: httpx.AsyncClient, session_id: str) -> list[dict[str, Any]]:
    return ndjson((await http.get(f"{MOUNT}/session/{session_id}/stream")).text)


async def run(http: httpx.AsyncClient, message: str, **body: Any) -> list[dict[str, Any]]:
    session_id, _ = await start(http, message, **body)
    return await events_of(http, session_id)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["type"] == kind]


def heard(openai_fake: FakeOpenAI, request: int = -1) -> list[dict[str, Any]]:
    """The tool results the model was sent in a request, decoded."""
    return [json.loads(m["content"]) for m in openai_fake.requests[request]["messages"]
            if m["role"] == "tool"]


async def test_garbled_arguments_are_answered_as_tool_errors(openai_api: OpenAIApp,
                                                            openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    openai_fake.replies = [Reply("malformed_arguments.sse"), Reply("openai_text.sse")]
    events = await run(http, "a mug")
    results = of_type(events, "agent.tool_result")
    assert [(r["isError"], r["result"]["code"]) for r in results] == [
        (True, "invalid_arguments"), (True, "invalid_arguments")]
    assert "not valid JSON" in results[0]["result"]["message"]
    assert "colour" in results[1]["result"]["message"]  # valid JSON, off the tool's schema
    assert [e["error"]["code"] for e in heard(openai_fake)] == ["invalid_arguments"] * 2
    assert events[-1]["type"] == "session.waiting"


async def test_an_unknown_tool_is_an_error_the_model_hears(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    openai_fake.replies = [Reply(calls=[("delete_the_store", "{}")]), Reply(text="Sorry.")]
    events = await run(http, "delete everything")
    (call,) = of_type(events, "agent.tool_call")
    assert call["tool"] == {"name": "delete_the_store", "description": "", "parameters": {}}
    (result,) = of_type(events, "agent.tool_result")
    assert result["isError"] and result["result"] == {
        "code": "unknown_tool", "message": "There is no tool 'delete_the_store'."}
    assert heard(openai_fake)[0]["error"]["code"] == "unknown_tool"
    assert events[-1]["type"] == "session.waiting"


async def test_a_model_that_never_stops_calling_tools_is_stopped(openai_api: OpenAIApp,
                                                                 openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    openai_fake.replies = [Reply(calls=[("list_stores", "{}")])] * (MAX_MODEL_STEPS + 5)
    events = await run(http, "loop")
    assert events[-1]["type"] == "session.failed"
    assert f"took {MAX_MODEL_STEPS} steps" in events[-1]["data"]["error"]
    assert len(openai_fake.requests) == MAX_MODEL_STEPS
    assert len(of_type(events, "agent.tool_result")) == MAX_MODEL_STEPS


async def test_the_conversation_carries_over_to_the_next_message(openai_api: OpenAIApp,
                                                                 openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    openai_fake.replies = [Reply(text="Hello!"), Reply(text="Still here.")]
    session_id, token = await start(http, "hi")
    assert (await events_of(http, session_id))[-1]["type"] == "session.waiting"
    sent = await http.post(f"{MOUNT}/session/{session_id}",
                           json={"continuationToken": token, "message": "again"},
                           headers={"Authorization": f"Bearer {token}"})
    assert sent.status_code == 200, sent.text
    events = await events_of(http, session_id)
    assert "".join(d["text"] for d in of_type(events, "agent.content.delta")) == \
        "Hello!Still here."
    assert [(m["role"], m["content"]) for m in openai_fake.requests[1]["messages"][1:]] == [
        ("user", "hi"), ("assistant", "Hello!"), ("user", "again")]


async def test_a_result_off_its_schema_fails_the_session(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    schema = {"type": "object", "properties": {"price": {"type": "number"}},
              "required": ["price"], "additionalProperties": False}
    openai_fake.replies = [Reply(text='{"price": "cheap"}')]
    events = await run(http, "price as JSON", outputSchema=schema)
    assert events[-1]["type"] == "session.failed"
    assert "does not match the output schema" in events[-1]["data"]["error"]
    assert of_type(events, "result.completed") == []
    openai_fake.replies = [Reply(text="about eighteen dollars")]
    events = await run(http, "price as JSON", outputSchema=schema)
    assert "not the JSON the output schema asks for" in events[-1]["data"]["error"]


async def test_an_endpoint_that_keeps_failing_fails_the_session(openai_api: OpenAIApp,
                                                               openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    openai_fake.replies = [Reply(status=429, headers={"retry-after-ms": "1"}),
                           Reply("openai_text.sse")]
    events = await run(http, "a mug")
    assert "".join(d["text"] for d in of_type(events, "agent.content.delta")) == FULL_TEXT
    openai_fake.replies = [Reply(status=401, error={"message": "Incorrect API key provided."})]
    events = await run(http, "a mug")
    assert events[-1]["type"] == "session.failed"
    assert "rejected the API key (401 Unauthorized)" in events[-1]["data"]["error"]
    assert "--openai-api-key" in events[-1]["data"]["error"]


async def test_the_context_budget_setting_trims_what_is_sent(
        settings: Settings, seeded_sqlite: Path, openai_fake: FakeOpenAI) -> None:
    async with openai_app(settings, seeded_sqlite, openai_fake, openai_context_tokens=3000) as (
            _, http, _):
        openai_fake.replies = [Reply(calls=[("search_products", '{"query": "mug"}')]),
                               Reply(calls=[("search_products", '{"query": "bowl"}')]),
                               Reply(calls=[("search_products", '{"query": "vase"}')]),
                               Reply(text="Done.")]
        events = await run(http, "everything")
        assert events[-1]["type"] == "session.waiting"
        last = openai_fake.requests[-1]["messages"]
        tools = [m for m in last if m["role"] == "tool"]
        assert len(tools) == 3
        assert "trimmed" in json.loads(tools[0]["content"])  # the oldest result made room
        assert "results" in json.loads(tools[-1]["content"])  # the latest stays whole
        assert last[0]["role"] == "system" and last[1] == {"role": "user",
                                                           "content": "everything"}


@pytest.mark.parametrize("answer", ["approve", "reject"])
async def test_a_cancel_waits_for_the_persons_answer(openai_api: OpenAIApp, openai_fake: FakeOpenAI,
                                                     answer: str) -> None:
    _, http, alice = openai_api
    order_id = (await mug_order(http, alice))["id"]
    openai_fake.replies = [Reply(text="Cancelling. ", calls=[
        ("connection__commerce__cancel_order", json.dumps({"orderId": order_id}))]),
        Reply(text="Done as you said.")]
    session_id, token = await start(http, "cancel my order")
    parked = await events_of(http, session_id)
    assert parked[-1]["type"] == "authorization.required"
    assert (await consent(http, parked[-1]["data"]["authUrl"])).status_code == 200
    asked = (await events_of(http, session_id))[-1]
    assert asked["type"] == "input.requested"
    assert len(openai_fake.requests) == 1  # the model waits with the turn
    reply = await http.post(f"{MOUNT}/session/{session_id}",
                            json={"continuationToken": token,
                                  "inputResponses": {asked["data"]["requestId"]: answer}},
                            headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    events = await events_of(http, session_id)
    assert events[-1]["type"] == "session.waiting"
    order = (await http.get(f"/orders/{order_id}", headers=alice)).json()
    (result,) = heard(openai_fake)
    if answer == "approve":
        assert order["status"] == "cancelled"
        assert result["orderId"] == order_id and result["status"] == "cancelled"
        assert result["total"] == {"amount": "26.50", "currency": "USD"}
    else:
        assert order["status"] == "confirmed"
        assert result["error"]["code"] == "rejected_by_user"
        assert result["error"]["changed"] is False


async def test_another_sessions_token_is_refused(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    _, http, _ = openai_api
    session_id, token = await start(http, "hi")
    await events_of(http, session_id)
    other_id, other_token = await start(http, "hello")
    await events_of(http, other_id)
    crossed = await http.post(f"{MOUNT}/session/{session_id}",
                              json={"continuationToken": other_token, "message": "mine now"},
                              headers={"Authorization": f"Bearer {other_token}"})
    assert crossed.status_code == 401, crossed.text
    assert crossed.json()["error"]["code"] == "unauthorized"
    assert crossed.headers["www-authenticate"] == 'Bearer realm="agent"'
    events = await events_of(http, session_id)
    sent = openai_fake.requests[0]["messages"]
    assert [m["content"] for m in sent if m["role"] == "user"] == ["hi"]
    assert "mine now" not in json.dumps(events)


async def test_a_stopped_runner_hands_its_turn_on_at_once(
        openai_api: OpenAIApp, openai_fake: FakeOpenAI) -> None:
    """Stopping (a shutdown) releases the lease of a turn still waiting for the model: the
    next scan claims it at once and the turn finishes, its events numbered without a gap."""
    app, http, _ = openai_api
    openai_fake.replies = [Reply(text="never sent", gate=asyncio.Event()),
                           Reply(text="Back again.")]
    session_id, _ = await start(http, "hello")
    await asyncio.wait_for(openai_fake.arrived.wait(), 5)
    runner = app.state.agent.runner
    await runner.stop()
    record = await app.state.agent.journal.load(session_id)
    assert record.status == "running" and record.lease_until == 0.0
    assert runner.turns == {}
    await runner.start()  # scans at once: the released turn is claimed and resumed
    await runner.idle()
    events = await events_of(http, session_id)
    assert events[-1]["type"] == "session.waiting"
    assert [e["streamIndex"] for e in events] == list(range(len(events)))
    assert "".join(d["text"] for d in of_type(events, "agent.content.delta")) == "Back again."
    assert len(openai_fake.requests) == 2
