"""Rules that tie the fields of a request body together ("exactly one of amount and
percentage"), stated once as JSON Schema on the struct they belong to.

msgspec checks each field as it decodes; what it cannot say (one field or another, this one
when that one is given) is a `Rule`: a JSON Schema fragment and the 400 to answer when a body
breaks it. A `Ruled` struct checks its rules right after decoding (`__post_init__`), and the
OpenAPI generator writes the same fragments into the struct's schema, so /openapi.json and
the server cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import jsonschema
import msgspec


@dataclass(frozen=True)
class Rule:
    schema: dict[str, Any]  # JSON Schema (2020-12) the decoded body must match
    refusal: Callable[[], Exception]  # what a body that does not match is answered
    _validator: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        jsonschema.Draft202012Validator.check_schema(self.schema)
        object.__setattr__(self, "_validator", jsonschema.Draft202012Validator(self.schema))

    def holds(self, value: msgspec.Struct) -> bool:
        return bool(self._validator.is_valid(msgspec.to_builtins(value)))


class Ruled(msgspec.Struct):
    """A request struct with rules across its fields, checked as soon as it is decoded."""

    rules: ClassVar[tuple[Rule, ...]] = ()

    def __post_init__(self) -> None:
        for rule in self.rules:
            if not rule.holds(self):
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
