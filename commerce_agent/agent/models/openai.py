"""The `openai` model: any OpenAI-compatible chat-completions endpoint, streamed.

Text deltas are passed on as they arrive; tool calls are assembled from their streamed
fragments; with an output schema the request asks for `response_format: json_schema` and the
final answer is parsed as JSON (the runner validates it against the schema). The schema is
sent with `strict: true` (the model's output is then constrained to it) when it keeps to what
strict mode accepts; otherwise without, and the model is only guided by it.
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


# What OpenAI's strict structured outputs accept: these keywords, every object closed
# (additionalProperties false) with all its properties required, an object at the root, and a
# bounded nesting.
_STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "enum", "const",
    "anyOf", "$defs", "definitions", "$ref", "description", "title", "pattern", "format",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems",
    "maxItems"})
STRICT_MAX_DEPTH = 10


def _strict_node(node: Any, depth: int) -> bool:
    if isinstance(node, bool) or not isinstance(node, dict) or depth > STRICT_MAX_DEPTH:
        return False
    if not node.keys() <= _STRICT_KEYWORDS:
        return False
    kinds = node.get("type")
    children: list[Any] = []
    if kinds == "object" or (isinstance(kinds, list) and "object" in kinds) or \
            "properties" in node:
        properties = node.get("properties")
        required = node.get("required", [])
        if not isinstance(properties, dict) or node.get("additionalProperties") is not False \
                or not isinstance(required, list) or sorted(map(str, required)) != sorted(
                    properties):
            return False
        children.extend(properties.values())
    elif "additionalProperties" in node or "required" in node:
        return False
    if "items" in node:
        children.append(node["items"])
    if "anyOf" in node:
        if not isinstance(node["anyOf"], list):
            return False
        children.extend(node["anyOf"])
    for key in ("$defs", "definitions"):
        if key in node:
            if not isinstance(node[key], dict):
                return False
            children.extend(node[key].values())
    return all(_strict_node(child, depth + 1) for child in children)


def strict_ready(schema: dict[str, Any]) -> bool:
    """Whether strict mode accepts `schema` as it is (sent unchanged either way)."""
    return schema.get("type") == "object" and "anyOf" not in schema and \
        _strict_node(schema, 0)


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
        json_schema: dict[str, Any] = {"name": "result", "schema": request.output_schema}
        if strict_ready(request.output_schema):
            json_schema["strict"] = True
        body["response_format"] = {"type": "json_schema", "json_schema": json_schema}
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
