"""Turns: a model that never stops calling tools is stopped after MAX_MODEL_STEPS steps."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.agent.models.base import CallTool, ModelOutput, ModelRequest
from commerce_agent.agent.turn import MAX_MODEL_STEPS
from tests.support.agent_support import ndjson

pytestmark = pytest.mark.both_backends

MOUNT = "/agent/v1"


class AlwaysATool:
    """A model that answers every step with one more tool call."""

    name = "looping"

    def __init__(self) -> None:
        self.steps = 0

    async def step(self, request: ModelRequest) -> AsyncIterator[ModelOutput]:
        self.steps += 1
        yield CallTool("list_stores", {})


async def test_a_turn_that_keeps_calling_tools_fails_at_the_step_limit(
        app: Starlette, client: httpx.AsyncClient) -> None:
    model = AlwaysATool()
    app.state.agent.agents["shopper"].model = model
    created = await client.post(f"{MOUNT}/session", json={"message": "hello"})
    session_id = created.json()["sessionId"]
    response = await asyncio.wait_for(
        client.get(f"{MOUNT}/session/{session_id}/stream"), 30)
    events = ndjson(response.text)
    failed = events[-1]
    assert failed["type"] == "session.failed"
    assert f"{MAX_MODEL_STEPS} steps" in failed["data"]["error"]
    calls = [e for e in events if e["type"] == "agent.tool_call"]
    results = [e for e in events if e["type"] == "agent.tool_result"]
    assert len(calls) == len(results) == model.steps == MAX_MODEL_STEPS
    assert all(not e["data"]["isError"] for e in results)
    token = created.json()["continuationToken"]
    again = await client.post(f"{MOUNT}/session/{session_id}", json={"message": "hi"},
                              headers={"Authorization": f"Bearer {token}"})
    assert again.status_code == 410
