"""The model interface: a conversation in, a stream of text, tool calls or a result out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from commerce_agent.operations import Tool


@dataclass
class ToolCallRecord:
    id: str
    name: str
    args: dict[str, Any]


@dataclass
class Message:
    """One entry of the conversation a model sees (rebuilt from the journal)."""

    role: Literal["user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    # Tool results only:
    tool_call_id: str = ""
    name: str = ""
    result: Any = None
    is_error: bool = False


@dataclass
class ModelRequest:
    instructions: str
    messages: list[Message]
    tools: list[Tool]
    output_schema: dict[str, Any] | None = None
    client_context: dict[str, Any] = field(default_factory=dict)
    # Which session the messages are (empty: none): a model may keep what it derived from
    # them between steps, but its steps must not depend on it.
    session_id: str = ""


@dataclass
class TextDelta:
    text: str


@dataclass
class CallTool:
    name: str
    args: dict[str, Any]
    # Why the model's arguments could not be read (not JSON, not an object): the runner
    # answers the call with an `invalid_arguments` tool error instead of running the tool.
    invalid: str = ""


@dataclass
class StructuredResult:
    value: Any


ModelOutput = TextDelta | CallTool | StructuredResult


class ModelError(Exception):
    """The model could not produce a step; the message says why (it ends the session)."""


class Model(Protocol):
    name: str

    def step(self, request: ModelRequest) -> AsyncIterator[ModelOutput]:
        """One model step: text deltas, then tool calls to run, or a final (structured) answer.

        A step that asks for no tool call ends the turn."""
        ...
