"""Folding a journal back into the conversation a model sees and the state of the open turn."""

from __future__ import annotations

from commerce_agent.agent.conversation import close_turn, fold
from commerce_agent.agent.events import Event, encode_line, event
from commerce_agent.agent.turn import _unsent


def lines(*events: Event) -> list[bytes]:
    for index, item in enumerate(events):
        item.streamIndex = index
    return [encode_line(item) for item in events]


def call(identifier: str, name: str = "search_products") -> Event:
    return event("agent.tool_call", {"toolCallId": identifier, "tool": {"name": name},
                                     "args": {"query": "mug"}})


def result(identifier: str, value: object = None, error: bool = False) -> Event:
    return event("agent.tool_result", {"toolCallId": identifier, "tool": {"name": "x"},
                                       "result": value, "isError": error})


def user(text: str) -> Event:
    return event("message.appended", {"id": "u", "role": "user", "content": text})


def test_a_finished_turn_becomes_user_assistant_tool_assistant() -> None:
    conversation = fold(lines(
        event("session.started", {}), event("agent.start"), user("find a mug"),
        event("agent.content.delta", {"text": "Let me "}),
        event("agent.content.delta", {"text": "look. "}),
        call("call_1_0_0"), call("call_1_0_1"),
        result("call_1_0_0", {"n": 1}), result("call_1_0_1", {"n": 2}),
        event("agent.content.delta", {"text": "Found it."}),
        event("message.completed", {"id": "msg_1_assistant", "role": "assistant",
                                    "content": "Let me look. Found it."}),
        event("agent.complete"), event("session.waiting")))
    roles = [(m.role, m.content, [c.id for c in m.tool_calls], m.tool_call_id)
             for m in conversation.messages]
    assert roles == [("user", "find a mug", [], ""),
                     ("assistant", "Let me look. ", ["call_1_0_0", "call_1_0_1"], ""),
                     ("tool", "", [], "call_1_0_0"), ("tool", "", [], "call_1_0_1"),
                     ("assistant", "Found it.", [], "")]
    assert not conversation.turn_open and conversation.pending == []
    assert conversation.content == "Let me look. Found it."


def test_an_interrupted_turn_knows_its_step_and_pending_calls() -> None:
    conversation = fold(lines(
        event("agent.start"), user("a"), call("call_1_0_0"), result("call_1_0_0"),
        call("call_1_1_0"), call("call_1_1_1"), result("call_1_1_0"),
        event("agent.start"), user("b"), call("call_2_0_0"), result("call_2_0_0"),
        event("agent.content.delta", {"text": "Half a sen"})))
    assert conversation.turn == 2 and conversation.turn_open
    assert conversation.step == 1 and conversation.step_text == "Half a sen"
    assert conversation.pending == []
    first_turn = fold(lines(event("agent.start"), user("a"), call("call_1_0_0"),
                            result("call_1_0_0"), call("call_1_1_0"), call("call_1_1_1"),
                            result("call_1_1_0")))
    assert [c.tool_call_id for c in first_turn.pending] == ["call_1_1_1"]
    assert first_turn.step == 2


def test_close_turn_fails_pending_calls_and_waits() -> None:
    conversation = fold(lines(event("agent.start"), user("a"), call("call_1_0_0")))
    closing = close_turn(conversation, "cancelled")
    assert [e.type for e in closing] == ["agent.tool_result", "message.appended",
                                         "message.completed", "agent.complete",
                                         "session.waiting"]
    assert closing[0].data == {"toolCallId": "call_1_0_0", "tool": {"name": "search_products"},
                               "result": {"code": "cancelled",
                                          "message": "The turn was cancelled."},
                               "isError": True}
    assert conversation.pending == []


def test_a_resumed_step_sends_only_what_was_not_sent() -> None:
    assert _unsent("Hello ", "Hello wor") == ("", "wor")
    assert _unsent("world", "wor") == ("ld", "")
    assert _unsent("again", "") == ("again", "")
    assert _unsent("different", "Hel") == ("different", "")
