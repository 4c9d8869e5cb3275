"""The keywords the output-schema validator runs itself (bounded-time `pattern`,
`patternProperties`, `additionalProperties`): the same answers as the JSON Schema spec, and
messages that name what was wrong."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.agent.schemas import problem

HEADERS: dict[str, Any] = {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
           "additionalProperties": False}


@pytest.mark.parametrize(("schema", "value", "expected"), [
    (HEADERS, {"x-a": "1", "x-b": "2"}, None),
    (HEADERS, {"x-a": "1", "b": 1}, "'b' does not match any of the regexes: '^x-' (at /)"),
    (HEADERS, {"b": 1, "c": 2}, "'b', 'c' do not match any of the regexes: '^x-' (at /)"),
    (HEADERS, {"x-a": 1}, "1 is not of type 'string' (at /x-a)"),
    # Without "type", the object keywords let any other value through.
    ({k: v for k, v in HEADERS.items() if k != "type"}, ["not", "an", "object"], None),
    ({"type": "object", "additionalProperties": {"type": "integer"}}, {"a": 1, "b": "x"},
     "'x' is not of type 'integer' (at /b)"),
    ({"type": "object", "properties": {"a": {}}, "additionalProperties": False},
     {"a": 1, "z": 2, "y": 3}, "Additional properties are not allowed ('y', 'z' were "
                               "unexpected) (at /)"),
    ({"type": "object", "properties": {"a": {}}, "additionalProperties": True}, {"z": 1}, None),
    ({"type": "object", "properties": {"n": {"patternProperties": {"^[0-9]+$": {
        "type": "boolean"}}}}}, {"n": {"12": True, "3": "yes", "x": 1}},
     "'yes' is not of type 'boolean' (at /n/3)"),
    ({"pattern": "^a"}, 5, None),  # a pattern says nothing about a number
    ({"pattern": "^a"}, "ba", "'ba' does not match '^a' (at /)"),
    ({"pattern": "(("}, "x", "the pattern '((' is not a valid regular expression: missing ) "
                             "at position 2"),
])
def test_bounded_keywords_answer_as_the_spec_does(schema: dict[str, Any], value: Any,
                                                  expected: str | None) -> None:
    assert problem(schema, value) == expected


def test_the_first_error_by_position_is_reported() -> None:
    schema = {"type": "array", "items": {"type": "object", "required": ["id"]}}
    assert problem(schema, [{"id": 1}, {}, {"x": 1}]) == "'id' is a required property (at /1)"


def test_draft_7_schemas_validate_with_their_own_dialect() -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#",
              "items": [{"type": "string"}], "additionalItems": False}
    assert problem(schema, ["a"]) is None
    assert problem(schema, ["a", "b"]) is not None
