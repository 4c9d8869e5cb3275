"""The chat-completions request body: messages, tools and the output schema on the wire.

With an output schema the request asks for `response_format: json_schema`. The schema is sent
with `strict: true` (the model's output is then constrained to it) when it keeps to what strict
mode accepts; otherwise without, and the model is only guided by it.
"""

from __future__ import annotations

import json
from typing import Any

from commerce_agent.agent.models.base import Message, ModelRequest
from commerce_agent.agent.models.openai.budget import fit_messages


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


def request_body(model: str, request: ModelRequest,
                 budget_tokens: int | None = None) -> dict[str, Any]:
    """The streamed request; with `budget_tokens`, the conversation is trimmed to fit it."""
    system = request.instructions
    if request.client_context:
        system += "\n\nClient context: " + json.dumps(request.client_context, ensure_ascii=False)
    messages = [{"role": "system", "content": system},
                *(_wire_message(message) for message in request.messages)]
    body: dict[str, Any] = {"model": model, "stream": True, "messages": messages}
    if request.tools:
        body["tools"] = [{"type": "function", "function": tool.describe()}
                         for tool in request.tools]
    if budget_tokens is not None:
        body["messages"] = fit_messages(messages, budget_tokens, fixed=body.get("tools", []))
    if request.output_schema is not None:
        json_schema: dict[str, Any] = {"name": "result", "schema": request.output_schema}
        if strict_ready(request.output_schema):
            json_schema["strict"] = True
        body["response_format"] = {"type": "json_schema", "json_schema": json_schema}
    return body
