"""Assemble one streamed chat completion: text as it arrives, tool calls from fragments.

Tool calls arrive as fragments keyed by `index`; their `arguments` JSON is split across any
number of chunks. Servers differ: OpenAI and vLLM send an id and name once, then argument
pieces; some servers (older Ollama and LM Studio builds) send each call whole, every one at
index 0, or omit `index`. A fragment bringing a new call id where a call already has
arguments starts a new call, so calls are never glued together.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from commerce_agent.agent.models.base import CallTool


@dataclass
class _Call:
    id: str = ""
    name: str = ""
    arguments: str = ""

    def to_call(self) -> CallTool:
        """The assembled call; arguments that are not a JSON object make it invalid (the
        runner answers the model with a tool error rather than running the tool)."""
        raw = self.arguments.strip() or "{}"
        try:
            args = json.loads(raw)
        except json.JSONDecodeError as exc:
            return CallTool(self.name, {}, invalid=f"The arguments are not valid JSON ({exc}): "
                                                   f"{_clip(raw)}")
        if not isinstance(args, dict):
            return CallTool(self.name, {}, invalid=f"The arguments must be a JSON object, not "
                                                   f"{_clip(raw)}")
        return CallTool(self.name, args)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


class StreamAssembler:
    """Feed it each decoded `data:` chunk; it returns the text to pass on."""

    def __init__(self) -> None:
        self.calls: list[_Call] = []
        self._by_index: dict[int, _Call] = {}
        self.done = False
        self.finish_reason: str | None = None

    @property
    def complete(self) -> bool:
        """Whether the stream ended properly ([DONE] or a finish reason), not cut off."""
        return self.done or self.finish_reason is not None

    def feed(self, chunk: dict[str, Any]) -> list[str]:
        texts: list[str] = []
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue  # n=1 is asked for; another choice would be a second answer
            delta = choice.get("delta") or {}
            content = delta.get("content")
            if isinstance(content, str) and content:
                texts.append(content)
            for fragment in delta.get("tool_calls") or []:
                if isinstance(fragment, dict):
                    self._fragment(fragment)
            if isinstance(delta.get("function_call"), dict):  # the pre-tools protocol
                self._fragment({"index": 0, "function": delta["function_call"]})
            if choice.get("finish_reason"):
                self.finish_reason = str(choice["finish_reason"])
        return texts

    def _fragment(self, fragment: dict[str, Any]) -> None:
        index = fragment.get("index")
        call_id = fragment.get("id") or ""
        current = self._by_index.get(index) if isinstance(index, int) else \
            (self.calls[-1] if self.calls else None)
        if current is None or (call_id and current.id and call_id != current.id
                               and current.arguments):
            current = _Call(id=call_id)
            self.calls.append(current)
            if isinstance(index, int):
                self._by_index[index] = current
        current.id = current.id or call_id
        function = fragment.get("function") or {}
        name = function.get("name") or ""
        if name != current.name:  # some servers repeat the whole name in every fragment
            current.name += name
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            current.arguments += arguments
        elif isinstance(arguments, dict):  # a few servers send the object itself
            current.arguments += json.dumps(arguments)

    def tool_calls(self) -> list[CallTool]:
        return [call.to_call() for call in self.calls]
