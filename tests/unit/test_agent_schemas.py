"""Output schemas: what is refused when a request brings one, and validating a result with one
never reaches the network nor runs a pattern without a time limit."""

from __future__ import annotations

import time
import urllib.request
from typing import Any

import pytest

from commerce_agent.agent import schemas
from commerce_agent.agent.schemas import SchemaRefused, check, problem

CATASTROPHIC = "^(a|a)*$"  # exponential backtracking on "aaa…ab"
SLOW_TEXT = "a" * 32 + "b"


def nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"x": schema}}
    return schema


@pytest.mark.parametrize(("schema", "reason"), [
    ({"$ref": "https://example.com/schema.json"}, "does not resolve inside"),
    ({"properties": {"a": {"$ref": "http://127.0.0.1:9/a.json"}}}, "does not resolve inside"),
    ({"$ref": "#/$defs/missing"}, "does not resolve inside"),
    ({"$id": "https://example.com/root.json", "$ref": "other.json"}, "does not resolve inside"),
    ({"$ref": "https://json-schema.org/draft/2020-12/schema"}, "does not resolve inside"),
    ({"$dynamicRef": "#nowhere"}, "does not resolve inside"),
    ({"$schema": "https://example.com/my-dialect"}, "not a JSON Schema dialect"),
    ({"$schema": 7}, "not a JSON Schema dialect"),
    ({"properties": {"a": {"$schema": "http://json-schema.org/draft-07/schema#",
                           "pattern": CATASTROPHIC}}}, "only at the root"),
    ({"unevaluatedProperties": False, "patternProperties": {"^a": {}}}, "cannot combine"),
    ({"allOf": [{"unevaluatedProperties": False}],
      "$defs": {"x": {"const": {"patternProperties": {CATASTROPHIC: {}}}}}}, "cannot combine"),
    (nested(schemas.MAX_DEPTH), "nests too deeply"),
    ({"enum": list(range(schemas.MAX_NODES))}, "too large"),
    ({"type": "string", "pattern": "(("}, "not a valid JSON Schema"),
    ({"type": "nope"}, "not a valid JSON Schema"),
    ([], "must be a JSON object"),
])
def test_refused_schemas(schema: Any, reason: str) -> None:
    with pytest.raises(SchemaRefused, match=reason):
        check(schema)


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}},
     "$defs": {"a": {"type": "string", "pattern": "^[a-z]+$"}}},
    {"$id": "https://example.com/root.json", "$ref": "item.json",
     "$defs": {"item": {"$id": "item.json", "type": "integer"}}},
    {"$schema": "http://json-schema.org/draft-07/schema#",
     "definitions": {"n": {"type": "integer"}}, "properties": {"n": {"$ref": "#/definitions/n"}}},
    {"type": "object", "properties": {"$schema": {"type": "string"}}},
    {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
     "additionalProperties": False},
    nested(schemas.MAX_DEPTH // 2 - 1),
])
def test_accepted_schemas(schema: dict[str, Any]) -> None:
    assert check(schema) is schema


def test_validation_never_fetches_a_ref(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema stored before refs were checked still validates without the network."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("validation tried to fetch a URL")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    found = problem({"$ref": "http://127.0.0.1:9/schema.json"}, {"a": 1})
    assert found is not None and "does not resolve" in found


@pytest.mark.parametrize(("schema", "value"), [
    ({"type": "string", "pattern": CATASTROPHIC}, SLOW_TEXT),
    ({"type": "object", "patternProperties": {CATASTROPHIC: {"type": "integer"}}},
     {SLOW_TEXT: 1}),
    ({"type": "object", "patternProperties": {CATASTROPHIC: {}},
      "additionalProperties": False}, {SLOW_TEXT: 1}),
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/slow"}},
      "$defs": {"slow": {"pattern": CATASTROPHIC}}}, {"a": SLOW_TEXT}),
])
def test_a_catastrophic_pattern_fails_in_bounded_time(schema: dict[str, Any],
                                                     value: Any) -> None:
    check(schema)
    started = time.monotonic()
    found = problem(schema, value)
    # Loose on purpose: a busy machine slows every run, while an unbounded match of this
    # pattern on SLOW_TEXT would take hours.
    assert time.monotonic() - started < 2 * schemas.PATTERN_SECONDS + 2.5
    assert found is not None and "took too long" in found and CATASTROPHIC in found


class SlowMatches:
    """Stands in for `regex`: every match takes 40 ms (or times out when allowed less)."""

    error = schemas.regex.error
    calls = 0

    @classmethod
    def search(cls, pattern: str, text: str, *, timeout: float, concurrent: bool) -> object:
        cls.calls += 1
        time.sleep(min(0.04, timeout))
        if timeout < 0.04:
            raise TimeoutError("regex timed out")
        return object()


def test_one_validation_has_one_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # 200 matches each under the per-match limit must not add up to an 8 s stall.
    monkeypatch.setattr(schemas, "regex", SlowMatches)
    monkeypatch.setattr(schemas, "BUDGET_SECONDS", 0.2)
    schema = {"type": "array", "items": {"type": "string", "pattern": "^a"}}
    started = time.monotonic()
    found = problem(schema, ["a"] * 200)
    assert time.monotonic() - started < 0.6
    assert SlowMatches.calls < 10
    assert found is not None and ("ran out of time" in found or "took too long" in found)


def test_results_are_checked_as_before() -> None:
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$"},
                                               "n": {"type": "integer"}},
              "required": ["code"], "additionalProperties": False}
    assert problem(schema, {"code": "ABC", "n": 1}) is None
    assert problem(schema, {"code": "abc"}) == "'abc' does not match '^[A-Z]+$' (at /code)"
    assert problem(schema, {"n": 1}) == "'code' is a required property (at /)"
    assert problem(schema, {"code": "A", "x": 1}) == (
        "Additional properties are not allowed ('x' was unexpected) (at /)")
    assert problem({"$ref": "#"}, 1) == "the output schema refers to itself without end"
