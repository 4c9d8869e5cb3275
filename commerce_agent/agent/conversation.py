"""Rebuild a session's conversation from its journal.

The journal is the only memory a turn needs: folding its events gives the messages a model
sees (user text, assistant text with its tool calls, tool results) and the state of the open
turn (its step, the text already streamed in that step, tool calls still waiting for a
result). A turn resumed after a crash folds the journal and carries on from there.

Tool call ids are `call_<turn>_<step>_<n>`: the step of a call is read back from its id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from commerce_agent.agent.events import Event, decode_line, event
from commerce_agent.agent.models.base import Message, ToolCallRecord
from commerce_agent.digits import whole_number


def call_id(turn: int, step: int, position: int) -> str:
    return f"call_{turn}_{step}_{position}"


def step_of(tool_call_id: str) -> int:
    parts = tool_call_id.split("_")
    step = whole_number(parts[2]) if len(parts) == 4 else None
    return -1 if step is None else step


@dataclass
class CallState:
    """One entry of an assistant message's toolCalls."""

    tool_call_id: str
    name: str
    args: dict[str, Any]
    result: Any = None
    is_error: bool = False
    status: str = "pending"

    def render(self) -> dict[str, Any]:
        return {"id": self.tool_call_id, "toolCallId": self.tool_call_id,
                "toolName": self.name, "args": self.args, "result": self.result,
                "isError": self.is_error, "status": self.status}


@dataclass
class Conversation:
    messages: list[Message] = field(default_factory=list)
    turn: int = 0
    turn_open: bool = False
    step: int = 0
    step_text: str = ""
    content: str = ""
    calls: list[CallState] = field(default_factory=list)
    _last_call_step: int = -1

    @property
    def assistant_id(self) -> str:
        return f"msg_{self.turn}_assistant"

    @property
    def pending(self) -> list[CallState]:
        return [call for call in self.calls if call.status == "pending"]

    def assistant_state(self) -> dict[str, Any]:
        return {"id": self.assistant_id, "role": "assistant", "content": self.content,
                "toolCalls": [call.render() for call in self.calls]}

    def apply(self, item: Event) -> None:
        data = item.data or {}
        kind = item.type
        if kind == "agent.start":
            self.turn += 1
            self.turn_open = True
            self.step, self.step_text, self.content = 0, "", ""
            self.calls, self._last_call_step = [], -1
        elif kind == "message.appended" and data.get("role") == "user":
            self.messages.append(Message("user", str(data.get("content", ""))))
        elif kind == "agent.content.delta":
            text = str(data.get("text", ""))
            self.step_text += text
            self.content += text
        elif kind == "agent.tool_call":
            self._tool_call(data)
        elif kind == "agent.tool_result":
            self._tool_result(data)
        elif kind == "message.completed" and data.get("role") == "assistant":
            self.messages.append(Message("assistant", self.step_text))
            self.step_text = ""
        elif kind in ("agent.complete", "session.failed"):
            self.turn_open = False

    def _tool_call(self, data: dict[str, Any]) -> None:
        identifier = str(data["toolCallId"])
        step = step_of(identifier)
        name = str((data.get("tool") or {}).get("name", ""))
        args = data.get("args") or {}
        record = ToolCallRecord(identifier, name, args)
        if step == self._last_call_step and self.messages and \
                self.messages[-1].role == "assistant" and self.messages[-1].tool_calls:
            self.messages[-1].tool_calls.append(record)
        else:
            self.messages.append(Message("assistant", self.step_text, tool_calls=[record]))
            self.step_text = ""
        self._last_call_step = step
        self.step = step + 1
        self.calls.append(CallState(identifier, name, args))

    def _tool_result(self, data: dict[str, Any]) -> None:
        identifier = str(data["toolCallId"])
        call = next((c for c in self.calls if c.tool_call_id == identifier), None)
        is_error = bool(data.get("isError"))
        if call is not None:
            call.result, call.is_error, call.status = data.get("result"), is_error, "complete"
        name = str((data.get("tool") or {}).get("name", call.name if call else ""))
        self.messages.append(Message("tool", tool_call_id=identifier, name=name,
                                     result=data.get("result"), is_error=is_error))


def fold(lines: list[bytes]) -> Conversation:
    conversation = Conversation()
    for line in lines:
        conversation.apply(decode_line(line))
    return conversation


def tool_result(call: CallState, result: Any, is_error: bool) -> Event:
    return event("agent.tool_result", {"toolCallId": call.tool_call_id,
                                       "tool": {"name": call.name}, "result": result,
                                       "isError": is_error})


def close_turn(conversation: Conversation, reason: str) -> list[Event]:
    """Events that end the open turn early (cancelled): every waiting tool call gets a failed
    result, the assistant message is completed as it stands, and the session waits."""
    events: list[Event] = []
    for call in conversation.pending:
        item = tool_result(call, {"code": reason, "message": f"The turn was {reason}."}, True)
        conversation.apply(item)
        events.append(item)
    if conversation.calls or conversation.content:
        events.append(event("message.appended", conversation.assistant_state()))
    completed = event("message.completed", {"id": conversation.assistant_id,
                                            "role": "assistant",
                                            "content": conversation.content})
    conversation.apply(completed)
    events.extend([completed, event("agent.complete", {"reason": reason}),
                   event("session.waiting")])
    return events
