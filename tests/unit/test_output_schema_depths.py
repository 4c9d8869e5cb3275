"""Output schemas are checked all the way down when they arrive: a pattern that is no regular
expression or a `$ref` that points outside the schema is refused wherever it sits (under
`not`, `if`, `allOf`, `prefixItems`, `$defs`, `patternProperties`…), and refs that do resolve
inside the schema are kept and used."""

from __future__ import annotations

from typing import Any

import pytest

from commerce_agent.agent.schemas import SchemaRefused, check, problem

BAD_PATTERN = "([a-z"
OUTSIDE = "https://schemas.example/elsewhere.json"


def nested(where: str, inner: dict[str, Any]) -> dict[str, Any]:
    """`inner` placed at one subschema position of an object schema."""
    places: dict[str, dict[str, Any]] = {
        "not": {"not": inner},
        "if": {"if": inner, "then": {"type": "object"}},
        "then": {"if": {"type": "object"}, "then": inner},
        "else": {"if": {"type": "object"}, "else": inner},
        "allOf": {"allOf": [{"type": "object"}, inner]},
        "anyOf": {"anyOf": [inner]},
        "oneOf": {"oneOf": [inner]},
        "properties": {"properties": {"name": inner}},
        "$defs": {"$defs": {"part": inner}},
        "additionalProperties": {"additionalProperties": inner},
        "propertyNames": {"propertyNames": inner},
        "items": {"type": "array", "items": inner},
        "prefixItems": {"type": "array", "prefixItems": [{"type": "string"}, inner]},
        "contains": {"type": "array", "contains": inner},
        "dependentSchemas": {"dependentSchemas": {"name": inner}},
    }
    return places[where]


PLACES = ["not", "if", "then", "else", "allOf", "anyOf", "oneOf", "properties", "$defs",
          "additionalProperties", "propertyNames", "items", "prefixItems", "contains",
          "dependentSchemas"]


@pytest.mark.parametrize("where", PLACES)
def test_a_bad_pattern_is_refused_wherever_it_sits(where: str) -> None:
    with pytest.raises(SchemaRefused, match="not a valid regular expression|not a valid"):
        check(nested(where, {"type": "string", "pattern": BAD_PATTERN}))


@pytest.mark.parametrize("where", PLACES)
def test_a_ref_outside_the_schema_is_refused_wherever_it_sits(where: str) -> None:
    with pytest.raises(SchemaRefused, match="does not resolve inside the schema"):
        check(nested(where, {"$ref": OUTSIDE}))


def test_a_bad_pattern_property_name_is_refused() -> None:
    with pytest.raises(SchemaRefused):
        check({"type": "object", "patternProperties": {BAD_PATTERN: {"type": "string"}}})


def test_a_dynamic_ref_outside_the_schema_is_refused() -> None:
    with pytest.raises(SchemaRefused, match=r"\$dynamicRef"):
        check({"type": "object", "properties": {"a": {"$dynamicRef": OUTSIDE}}})


def test_refs_inside_the_schema_are_kept_and_validate() -> None:
    schema = {"type": "object", "$defs": {
        "money": {"type": "object", "required": ["amount", "currency"],
                  "properties": {"amount": {"type": "string", "pattern": r"^\d+\.\d\d$"},
                                 "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}}}},
        "properties": {"total": {"$ref": "#/$defs/money"},
                       "lines": {"type": "array", "items": {"$ref": "#/$defs/money"}}},
        "required": ["total"]}
    assert check(schema) is schema
    assert problem(schema, {"total": {"amount": "4.00", "currency": "USD"},
                            "lines": [{"amount": "4.00", "currency": "USD"}]}) is None
    found = problem(schema, {"total": {"amount": "4", "currency": "USD"}})
    assert found is not None and "4" in found
    lines = problem(schema, {"total": {"amount": "4.00", "currency": "USD"},
                             "lines": [{"amount": "1.00", "currency": "usd"}]})
    assert lines is not None and "usd" in lines


def test_a_ref_to_a_missing_local_definition_is_refused() -> None:
    with pytest.raises(SchemaRefused, match="does not resolve"):
        check({"type": "object", "properties": {"a": {"$ref": "#/$defs/nowhere"}}})


@pytest.mark.parametrize("value", [[], "schema", 3, None, True])
def test_only_an_object_is_a_schema(value: Any) -> None:
    with pytest.raises(SchemaRefused, match="must be a JSON object"):
        check(value)


def test_an_unknown_dialect_is_refused_and_a_known_one_kept() -> None:
    with pytest.raises(SchemaRefused, match="dialect"):
        check({"$schema": "https://schemas.example/my-dialect", "type": "object"})
    with pytest.raises(SchemaRefused, match="dialect"):
        check({"$schema": 7, "type": "object"})
    kept = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    assert check(kept) is kept


def test_a_schema_that_is_not_valid_json_schema_is_refused() -> None:
    with pytest.raises(SchemaRefused, match="not a valid JSON Schema"):
        check({"type": "objekt"})
    with pytest.raises(SchemaRefused, match="not a valid JSON Schema"):
        check({"type": "object", "required": "name"})
