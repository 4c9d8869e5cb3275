"""Rules that tie the fields of a request body together ("exactly one of amount and
percentage"), stated once as JSON Schema on the struct they belong to.

msgspec checks each field as it decodes; what it cannot say (one field or another, this one
when that one is given) is a `Rule`: a JSON Schema fragment and the 400 to answer when a body
breaks it. A `Ruled` struct checks its rules right after decoding (`__post_init__`), and the
OpenAPI generator writes the same fragments into the struct's schema, so /openapi.json and
the server cannot disagree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import jsonschema
import msgspec

# Python's `\S` spelled out for patterns in /openapi.json: JSON Schema tools read `\s` as
# ECMA-262 does (without U+001C to U+001F and U+0085, which Python's `\s`, str.isspace and
# str.strip count as space), so a bare `\S` would let the document and the server disagree.
NOT_SPACE = r"[^\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

_TYPES: dict[str, tuple[type, ...]] = {
    "null": (type(None),), "string": (str,), "array": (list,), "object": (dict,),
    "boolean": (bool,), "integer": (int,), "number": (int, float)}
KEYWORDS = frozenset({"required", "properties", "not", "type", "const", "enum", "minItems",
                      "pattern", "anyOf", "oneOf", "allOf", "if", "then", "else"})


def _keywords(schema: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(schema, dict):
        found |= set(schema)
        for key, value in schema.items():
            if key == "properties":
                for inner in value.values():
                    found |= _keywords(inner)
            elif isinstance(value, dict):
                found |= _keywords(value)
            elif isinstance(value, list) and key != "required" and key != "enum":
                for inner in value:
                    found |= _keywords(inner)
    return found


def matches(schema: dict[str, Any], value: Any) -> bool:
    """JSON Schema validation for the keywords in KEYWORDS: jsonschema's validators take
    hundreds of microseconds for a rule, this a few (rules run on every decoded body)."""
    for key, expected in schema.items():
        if key == "required":
            if isinstance(value, dict) and any(name not in value for name in expected):
                return False
        elif key == "properties":
            if isinstance(value, dict) and any(
                    name in value and not matches(inner, value[name])
                    for name, inner in expected.items()):
                return False
        elif key == "not":
            if matches(expected, value):
                return False
        elif key == "type":
            if not isinstance(value, _TYPES[expected]) or (
                    expected in ("integer", "number") and isinstance(value, bool)):
                return False
        elif key == "const":
            if value != expected or type(value) is not type(expected):
                return False
        elif key == "enum":
            if not any(value == option and type(value) is type(option) for option in expected):
                return False
        elif key == "minItems":
            if isinstance(value, list) and len(value) < expected:
                return False
        elif key == "pattern":
            if isinstance(value, str) and not re.search(expected, value):
                return False
        elif key == "anyOf":
            if not any(matches(inner, value) for inner in expected):
                return False
        elif key == "oneOf":
            if sum(matches(inner, value) for inner in expected) != 1:
                return False
        elif key == "allOf":
            if not all(matches(inner, value) for inner in expected):
                return False
        elif key == "if":
            branch = schema.get("then" if matches(expected, value) else "else")
            if branch is not None and not matches(branch, value):
                return False
    return True


@dataclass(frozen=True)
class Rule:
    schema: dict[str, Any]  # JSON Schema (2020-12) the decoded body must match
    refusal: Callable[[], Exception]  # what a body that does not match is answered

    def __post_init__(self) -> None:
        jsonschema.Draft202012Validator.check_schema(self.schema)
        unknown = _keywords(self.schema) - KEYWORDS
        if unknown:
            raise ValueError(f"rules cannot use {sorted(unknown)} (see struct_rules.matches)")

    def holds(self, document: Any) -> bool:
        """Whether the body, as JSON data (msgspec.to_builtins), keeps the rule."""
        return matches(self.schema, document)


class Ruled(msgspec.Struct):
    """A request struct with rules across its fields, checked as soon as it is decoded."""

    rules: ClassVar[tuple[Rule, ...]] = ()

    def __post_init__(self) -> None:
        if self.rules:
            document = msgspec.to_builtins(self)
            for rule in self.rules:
                if not rule.holds(document):
                    raise rule.refusal()


def given(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """`name` is present and not null (and matches `schema`)."""
    return {"required": [name], "properties": {name: {"not": {"type": "null"}, **(schema or {})}}}


def absent(name: str) -> dict[str, Any]:
    """`name` is left out or null."""
    return {"properties": {name: {"type": "null"}}}


def exactly_one(*names: str) -> dict[str, Any]:
    return {"oneOf": [given(name) for name in names]}


def at_least_one(*names: str) -> dict[str, Any]:
    return {"anyOf": [given(name) for name in names]}


def schemas_of(kind: type) -> list[dict[str, Any]]:
    """The rules of a struct type as JSON Schema (none for a type without rules)."""
    rules: tuple[Rule, ...] = getattr(kind, "rules", ()) if isinstance(kind, type) \
        and issubclass(kind, Ruled) else ()
    return [rule.schema for rule in rules]
