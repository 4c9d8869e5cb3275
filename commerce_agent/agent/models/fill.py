"""Structured output for the scripted model: fill a JSON Schema from what the turn established.

Each property is looked up by name (case and punctuation ignored) among the facts, converted
to the type the schema asks for where that is lossless, and left out when nothing fits. A
required property that nothing fits is an error naming it: the model never invents a value.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any


class Unfillable(Exception):
    def __init__(self, fields: list[str]) -> None:
        super().__init__(", ".join(fields))
        self.fields = fields


def norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


class _NoValue(Exception):
    pass


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    if kind is None:
        return []
    return [kind] if isinstance(kind, str) else list(kind)


def _amount(value: Any) -> Decimal | None:
    if isinstance(value, dict) and "amount" in value:
        value = value["amount"]
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float | Decimal):
        return Decimal(str(value))
    if isinstance(value, str):
        try:
            return Decimal(value)
        except InvalidOperation:
            return None
    return None


def _as(kind: str, value: Any, schema: dict[str, Any]) -> Any:
    if kind == "string":
        if isinstance(value, dict) and "amount" in value:
            return str(value["amount"])
        if isinstance(value, str | int | float | Decimal) and not isinstance(value, bool):
            return str(value)
    elif kind in ("number", "integer"):
        amount = _amount(value)
        if amount is not None and amount == amount.to_integral_value() and (
                kind == "integer" or isinstance(value, int)):
            return int(amount)
        if amount is not None and kind == "number":
            return float(amount)
    elif kind == "boolean":
        if isinstance(value, bool):
            return value
    elif kind == "object":
        if isinstance(value, dict):
            if "properties" in schema:
                return fill(schema, value)
            return value
    elif kind == "array":
        if isinstance(value, list):
            items = schema.get("items", {})
            return [convert(item, items) for item in value]
    elif kind == "null":
        if value is None:
            return None
    raise _NoValue


def convert(value: Any, schema: dict[str, Any]) -> Any:
    """`value` as `schema` wants it, or _NoValue when it does not fit."""
    if value is None and "null" not in _types(schema):
        raise _NoValue
    kinds = _types(schema)
    if not kinds:
        if isinstance(value, dict) and "properties" in schema:
            return fill(schema, value)
        result = value
    else:
        for kind in kinds:
            try:
                result = _as(kind, value, schema)
                break
            except (_NoValue, Unfillable):
                continue
        else:
            raise _NoValue
    if "enum" in schema and result not in schema["enum"]:
        raise _NoValue
    if "const" in schema and result != schema["const"]:
        raise _NoValue
    return result


def fill(schema: dict[str, Any], facts: dict[str, Any]) -> dict[str, Any]:
    """An object for `schema` (which must describe an object) made of `facts` only."""
    known = {norm(key): value for key, value in facts.items()}
    result: dict[str, Any] = {}
    missing = []
    required = set(schema.get("required", []))
    for name, subschema in schema.get("properties", {}).items():
        if norm(name) not in known:
            if name in required:
                missing.append(name)
            continue
        try:
            result[name] = convert(known[norm(name)], subschema if isinstance(subschema, dict)
                                   else {})
        except (_NoValue, Unfillable):
            if name in required:
                missing.append(name)
    if missing:
        raise Unfillable(missing)
    return result
