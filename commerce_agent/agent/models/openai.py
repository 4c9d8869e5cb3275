"""The `openai` model: any OpenAI-compatible chat-completions endpoint, streamed.

Text deltas are passed on as they arrive; tool calls are assembled from their streamed
fragments; with an output schema the request asks for `response_format: json_schema` and the
final answer is parsed as JSON (the runner validates it against the schema).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx

from commerce_agent.agent.models.base import (
    CallTool,
    Message,
    ModelError,
    ModelOutput,
    ModelRequest,
    StructuredResult,
    TextDelta,
)


def _wire_message(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        payload = {"error": message.result} if message.is_error else message.result
        return {"role": "tool", "tool_call_id": message.tool_call_id,
                "content": json.dumps(payload, ensure_ascii=False)}
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        wire["tool_calls"] = [
            {"id": call.id, "type": "function",
             "function": {"name": call.name, "arguments": json.dumps(call.args)}}
            for call in message.tool_calls]
    return wire


def request_body(model: str, request: ModelRequest) -> dict[str, Any]:
    system = request.instructions
    if request.client_context:
        system += "\n\nClient context: " + json.dumps(request.client_context, ensure_ascii=False)
    body: dict[str, Any] = {
        "model": model, "stream": True,
        "messages": [{"role": "system", "content": system},
                     *(_wire_message(message) for message in request.messages)],
    }
    if request.tools:
        body["tools"] = [{"type": "function", "function": tool.describe()}
                         for tool in request.tools]
    if request.output_schema is not None:
        body["response_format"] = {"type": "json_schema", "json_schema": {
            "name": "result", "schema": request.output_schema}}
    return body


class OpenAIModel:
    name = "openai"

    def __init__(self, base_url: str, api_key: str, model: str,
                 client: httpx.AsyncClient) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.model = model
        self.client = client

    async def step(self, request: ModelRequest) -> AsyncIterator[ModelOutput]:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        url = f"{self.base_url}/chat/completions"
        content = ""
        calls: dict[int, dict[str, str]] = {}
        try:
            async with self.client.stream("POST", url, json=request_body(self.model, request),
                                          headers=headers) as response:
                if response.status_code != 200:
                    text = (await response.aread()).decode(errors="replace")[:300]
                    raise ModelError(f"The model endpoint answered {response.status_code}: "
                                     f"{text}")
                async for line in response.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    chunk = json.loads(data)
                    if chunk.get("error"):
                        raise ModelError(f"The model endpoint failed: {chunk['error']}")
                    for choice in chunk.get("choices", []):
                        delta = choice.get("delta") or {}
                        if delta.get("content"):
                            content += delta["content"]
                            yield TextDelta(delta["content"])
                        for fragment in delta.get("tool_calls") or []:
                            slot = calls.setdefault(int(fragment.get("index", 0)),
                                                    {"name": "", "arguments": ""})
                            function = fragment.get("function") or {}
                            slot["name"] += function.get("name") or ""
                            slot["arguments"] += function.get("arguments") or ""
        except httpx.HTTPError as exc:
            raise ModelError(f"The model endpoint could not be reached: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise ModelError(f"The model endpoint sent a malformed chunk: {exc}") from exc
        for index in sorted(calls):
            try:
                args = json.loads(calls[index]["arguments"] or "{}")
            except json.JSONDecodeError:
                raise ModelError(f"The model sent malformed arguments for "
                                 f"{calls[index]['name']}.") from None
            yield CallTool(calls[index]["name"], args if isinstance(args, dict) else {})
        if not calls and request.output_schema is not None:
            try:
                yield StructuredResult(json.loads(content))
            except json.JSONDecodeError:
                raise ModelError("The model's answer is not the JSON the output schema "
                                 "asks for.") from None
