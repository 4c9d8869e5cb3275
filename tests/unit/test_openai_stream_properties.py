"""Invariants of the `openai` model's pure parts: however a server splits an answer into chunks,
the assembled text and tool calls are the same; a retried answer never repeats text already
passed on; the context budget keeps the instructions and the latest question."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.models.base import CallTool, Message, ModelRequest, ToolCallRecord
from commerce_agent.agent.models.openai.budget import (
    MESSAGE_OVERHEAD,
    TRIMMED,
    estimate_tokens,
    fit_messages,
)
from commerce_agent.agent.models.openai.model import _Resent
from commerce_agent.agent.models.openai.stream import StreamAssembler
from commerce_agent.agent.models.openai.wire import STRICT_MAX_DEPTH, request_body, strict_ready
from tests.support.openai_fake import chunk, recording_chunks

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8)
ARGS = st.dictionaries(st.text(min_size=1, max_size=8), JSON_VALUES, max_size=4)


def cuts(text: str, points: list[int]) -> list[str]:
    """`text` cut at `points` (positions taken modulo its length), in order."""
    where = sorted({point % (len(text) + 1) for point in points} | {0, len(text)})
    return [text[start:end] for start, end in zip(where, where[1:], strict=False)]


def feed(assembler: StreamAssembler, deltas: list[dict[str, Any]]) -> str:
    text = ""
    for delta in deltas:
        text += "".join(assembler.feed(json.loads(chunk(delta))))
    return text


@given(text=st.text(max_size=60), points=st.lists(st.integers(0, 80), max_size=10))
def test_text_is_the_same_however_it_is_chunked(text: str, points: list[int]) -> None:
    assembler = StreamAssembler()
    assert feed(assembler, [{"content": piece} for piece in cuts(text, points)]) == text
    assert not assembler.complete and assembler.tool_calls() == []


@settings(max_examples=40)
@given(calls=st.lists(st.tuples(st.sampled_from(["search_products", "add_to_cart"]), ARGS),
                      min_size=1, max_size=3),
       points=st.lists(st.integers(0, 200), max_size=12), ids=st.booleans())
def test_calls_are_the_same_however_their_arguments_are_split(
        calls: list[tuple[str, dict[str, Any]]], points: list[int], ids: bool) -> None:
    """OpenAI's shape: id and name once per index, then argument pieces of any size (the id
    repeated on every piece, as some proxies do, changes nothing)."""
    deltas: list[dict[str, Any]] = []
    for index, (name, args) in enumerate(calls):
        deltas.append({"tool_calls": [{"index": index, "id": f"call_{index}", "type": "function",
                                       "function": {"name": name, "arguments": ""}}]})
        for piece in cuts(json.dumps(args), points):
            fragment: dict[str, Any] = {"index": index, "function": {"arguments": piece}}
            if ids:
                fragment["id"] = f"call_{index}"
            deltas.append({"tool_calls": [fragment]})
    assembler = StreamAssembler()
    assert feed(assembler, deltas) == ""
    assert assembler.tool_calls() == [CallTool(name, args) for name, args in calls]


@settings(max_examples=40)
@given(calls=st.lists(st.tuples(st.sampled_from(["search_products", "list_stores"]), ARGS),
                      min_size=1, max_size=4), with_index=st.booleans())
def test_whole_calls_at_one_index_are_never_glued(calls: list[tuple[str, dict[str, Any]]],
                                                  with_index: bool) -> None:
    """Older Ollama and LM Studio builds send every call whole at index 0 (or with no index):
    a new id starts a new call."""
    assembler = StreamAssembler()
    for number, (name, args) in enumerate(calls):
        fragment: dict[str, Any] = {"id": f"call_{number}", "type": "function",
                                    "function": {"name": name, "arguments": json.dumps(args)}}
        if with_index:
            fragment["index"] = 0
        assembler.feed(json.loads(chunk({"tool_calls": [fragment]})))
    assert assembler.tool_calls() == [CallTool(name, args) for name, args in calls]


def test_a_name_repeated_in_every_fragment_is_not_doubled() -> None:
    assembler = StreamAssembler()
    for piece in ('{"query"', ': "mug"}'):
        assembler.feed(json.loads(chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {
            "name": "search_products", "arguments": piece}}]})))
    assert assembler.tool_calls() == [CallTool("search_products", {"query": "mug"})]


def test_arguments_sent_as_an_object_are_taken() -> None:
    assembler = StreamAssembler()
    assembler.feed(json.loads(chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {
        "name": "get_item", "arguments": {"itemId": "item_1"}}}]}, "tool_calls")))
    assert assembler.complete and assembler.finish_reason == "tool_calls"
    assert assembler.tool_calls() == [CallTool("get_item", {"itemId": "item_1"})]


def test_chunks_of_no_use_are_skipped() -> None:
    assembler = StreamAssembler()
    for data in ({}, {"choices": None}, {"choices": ["not a dict"]},
                 {"choices": [{"index": 0, "delta": None}]},
                 {"choices": [{"index": 0, "delta": {"content": ""}}]},
                 {"choices": [{"index": 0, "delta": {"tool_calls": ["x", None]}}]},
                 {"choices": [{"index": 0, "delta": {"content": 7}}]}):
        assert assembler.feed(data) == []
    assert assembler.calls == [] and not assembler.complete


def test_the_recordings_assemble_into_their_answers() -> None:
    assembler = StreamAssembler()
    text = "".join("".join(assembler.feed(data)) for data in recording_chunks("openai_text.sse"))
    assert text == "The Limited Edition Glaze Mug is 18.00 USD."
    assert assembler.finish_reason == "stop"
    assembler = StreamAssembler()
    for data in recording_chunks("place_order_without_cart.sse"):
        assembler.feed(data)
    (call,) = assembler.tool_calls()
    assert call.name == "connection__commerce__place_order" and call.invalid == ""


# -- a retried answer ------------------------------------------------------------------------

@given(answer=st.text(min_size=1, max_size=50), sent_upto=st.integers(0, 50),
       points=st.lists(st.integers(0, 60), max_size=8))
def test_a_regenerated_identical_answer_is_passed_on_once(answer: str, sent_upto: int,
                                                          points: list[int]) -> None:
    sent = answer[:sent_upto]
    resent = _Resent(sent)
    fresh = "".join(resent.unsent(piece) for piece in cuts(answer, points))
    assert sent + fresh == answer


@given(sent=st.text(min_size=1, max_size=20), other=st.text(min_size=1, max_size=20))
def test_a_different_answer_continues_from_where_it_differs(sent: str, other: str) -> None:
    resent = _Resent(sent)
    passed = resent.unsent(other)
    if sent.startswith(other):
        assert passed == ""
    elif other.startswith(sent):
        assert passed == other[len(sent):]
    else:
        assert passed == other
        assert resent.unsent("more") == "more"  # from then on everything is new


# -- the context budget ----------------------------------------------------------------------

def wire(messages: list[dict[str, Any]]) -> int:
    return sum(estimate_tokens(message) + MESSAGE_OVERHEAD for message in messages)


def exchange(step: int, size: int) -> list[dict[str, Any]]:
    return [{"role": "user", "content": f"question {step}"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": f"c{step}"}]},
            {"role": "tool", "tool_call_id": f"c{step}", "content": "r" * size},
            {"role": "assistant", "content": f"answer {step}"}]


@given(sizes=st.lists(st.integers(0, 3000), min_size=1, max_size=6),
       budget=st.integers(10, 8000), tools=st.integers(0, 2000))
def test_the_budget_keeps_instructions_and_the_latest_question(
        sizes: list[int], budget: int, tools: int) -> None:
    messages = [{"role": "system", "content": "You shop."}]
    for step, size in enumerate(sizes):
        messages += exchange(step, size)
    fixed = [{"function": "f" * tools}] if tools else None
    fitted = fit_messages(messages, budget, fixed=fixed)
    room = budget - (estimate_tokens(fixed) if fixed else 0)
    assert fitted[0] == messages[0]
    last_question = {"role": "user", "content": f"question {len(sizes) - 1}"}
    assert last_question in fitted
    # Always a tail of the conversation with results maybe trimmed, never reordered or changed.
    tail = messages[len(messages) - len(fitted) + 1:]
    assert [m["role"] for m in fitted[1:]] == [m["role"] for m in tail]
    for kept, original in zip(fitted[1:], tail, strict=True):
        assert kept == original or (kept["role"] == "tool" and kept["content"] == TRIMMED)
    if wire(fitted) > room:  # only when even the latest exchange alone does not fit
        assert fitted[1] == last_question
    if wire(messages) <= room:
        assert fitted == messages
    assert messages[0] == {"role": "system", "content": "You shop."}  # the input is not changed


def test_the_results_of_the_latest_step_stay_whole() -> None:
    messages = [{"role": "system", "content": "s"}, *exchange(0, 4000),
                {"role": "user", "content": "and now?"},
                {"role": "assistant", "content": "", "tool_calls": [{"id": "c9"}]},
                {"role": "tool", "tool_call_id": "c9", "content": "n" * 4000}]
    fitted = fit_messages(messages, 1200)
    assert fitted[3]["content"] == TRIMMED  # the older result made room
    assert fitted[-1]["content"] == "n" * 4000


def test_a_conversation_that_fits_is_sent_as_it_is() -> None:
    request = ModelRequest("You shop.", [
        Message("user", "mugs?"),
        Message("assistant", "Looking.", tool_calls=[ToolCallRecord("c1", "search_products",
                                                                    {"query": "mug"})]),
        Message("tool", tool_call_id="c1", name="search_products", result={"message": "none"},
                is_error=True)], [])
    body = request_body("m", request, budget_tokens=10_000)
    assert body["messages"][1:] == [
        {"role": "user", "content": "mugs?"},
        {"role": "assistant", "content": "Looking.", "tool_calls": [{
            "id": "c1", "type": "function",
            "function": {"name": "search_products", "arguments": '{"query": "mug"}'}}]},
        {"role": "tool", "tool_call_id": "c1",
         "content": json.dumps({"error": {"message": "none"}})}]
    assert request_body("m", request, budget_tokens=None)["messages"] == body["messages"]


# -- strict structured outputs ---------------------------------------------------------------

def closed(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False, **extra}


def deep(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = closed({"a": schema})
    return schema


@pytest.mark.parametrize(("schema", "ready"), [
    (closed({"a": {"type": ["object", "null"], "properties": {}, "required": [],
                   "additionalProperties": False}}), True),
    (closed({"a": {"anyOf": "not a list"}}), False),
    (closed({"a": {"$defs": ["not", "a", "map"]}}), False),
    (closed({"a": True}), False),  # a boolean schema: strict mode wants objects
    (closed({"a": {"type": "string", "required": ["x"]}}), False),
    (closed({"a": {"type": "array", "items": {"type": "string", "default": ""}}}), False),
    (closed({"a": {"type": "object", "properties": {"b": {"type": "string"}},
                   "required": ["b"], "additionalProperties": True}}), False),
    (deep(STRICT_MAX_DEPTH), True),
    (deep(STRICT_MAX_DEPTH + 1), False),
])
def test_strict_mode_is_asked_only_where_it_is_accepted(schema: dict[str, Any],
                                                         ready: bool) -> None:
    assert strict_ready(schema) is ready
    request = ModelRequest("s", [Message("user", "x")], [], output_schema=schema)
    json_schema = request_body("m", request)["response_format"]["json_schema"]
    assert json_schema["schema"] is schema  # sent unchanged either way
    assert json_schema.get("strict", False) is ready
