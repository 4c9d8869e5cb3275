"""Filling an output schema from the facts a turn established (commerce_agent/agent/models/
fill.py): whatever it returns satisfies the schema, holds only values taken from the facts,
and a required property nothing fits is named rather than invented."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent import schemas
from commerce_agent.agent.models.fill import Unfillable, convert, fill, norm

FACT_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6),
    st.decimals(-1000, 1000, places=2, allow_nan=False, allow_infinity=False),
    st.text(max_size=8), st.sampled_from(["18.00", "7", "x1", "1e3", ""]),
    st.fixed_dictionaries({"amount": st.sampled_from(["18.00", "26.5", "3", "free"]),
                           "currency": st.just("USD")}),
    st.lists(st.integers(0, 9), max_size=3))
KINDS = st.sampled_from(["string", "number", "integer", "boolean", "null", "array", "object"])
NAMES = st.sampled_from(["price", "itemId", "item_id", "Total", "count", "inStock", "tags",
                         "name"])


@st.composite
def property_schemas(draw: st.DrawFn) -> dict[str, Any]:
    kinds = draw(st.lists(KINDS, min_size=1, max_size=2, unique=True))
    schema: dict[str, Any] = {"type": kinds[0] if len(kinds) == 1 else kinds}
    if "array" in kinds:
        schema["items"] = {"type": draw(st.sampled_from(["integer", "string", "number"]))}
    return schema


@st.composite
def object_schemas(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(NAMES, min_size=1, max_size=5, unique_by=norm))
    properties = {name: draw(property_schemas()) for name in names}
    required = draw(st.lists(st.sampled_from(names), unique=True))
    return {"type": "object", "properties": properties, "required": required}


def plain(value: Any) -> Any:
    """A fact as JSON would carry it (Decimal as its number)."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


@settings(max_examples=150)
@given(schema=object_schemas(),
       facts=st.dictionaries(st.one_of(NAMES, st.sampled_from(["PRICE", "item-id", "other"])),
                             FACT_VALUES, max_size=6))
def test_what_fill_returns_satisfies_the_schema(schema: dict[str, Any],
                                                facts: dict[str, Any]) -> None:
    try:
        result = fill(schema, facts)
    except Unfillable as missing:
        assert missing.fields and set(missing.fields) <= set(schema["required"])
        assert str(missing) == ", ".join(missing.fields)
        return
    assert schemas.problem(schema, plain(result)) is None, (schema, facts, result)
    assert set(result) <= set(schema["properties"])
    assert set(schema["required"]) <= set(result)
    known = {norm(key) for key in facts}
    assert all(norm(name) in known for name in result)  # nothing invented


@given(schema=object_schemas(), facts=st.dictionaries(NAMES, FACT_VALUES, max_size=6))
def test_fill_is_deterministic_and_idempotent(schema: dict[str, Any],
                                              facts: dict[str, Any]) -> None:
    """Filling again from its own result gives the same object."""
    try:
        first = fill(schema, facts)
    except Unfillable:
        return
    assert fill(schema, first) == first == fill(schema, facts)


@pytest.mark.parametrize(("value", "schema", "expected"), [
    ({"amount": "18.00", "currency": "USD"}, {"type": "string"}, "18.00"),
    ({"amount": "18.00", "currency": "USD"}, {"type": "number"}, 18.0),
    ({"amount": "18.00", "currency": "USD"}, {"type": "integer"}, 18),
    ("26.5", {"type": "number"}, 26.5),
    (7, {"type": "number"}, 7),
    (7, {"type": "string"}, "7"),
    (Decimal("2.50"), {"type": "string"}, "2.50"),
    (None, {"type": ["string", "null"]}, None),
    ([1, "2"], {"type": "array", "items": {"type": "string"}}, ["1", "2"]),
    ({"name": "Mug", "price": "18"}, {"type": "object", "properties": {"name": {}}},
     {"name": "Mug"}),
    ({"a": 1}, {"type": "object"}, {"a": 1}),
    ("blue", {"enum": ["blue", "red"]}, "blue"),
    ("x", {"const": "x"}, "x"),
    ({"price": 3}, {"properties": {"price": {"type": "integer"}}}, {"price": 3}),
])
def test_values_convert_where_nothing_is_lost(value: Any, schema: dict[str, Any],
                                              expected: Any) -> None:
    converted = convert(value, schema)
    assert converted == expected and type(converted) is type(expected)


@pytest.mark.parametrize(("value", "schema"), [
    ("26.5", {"type": "integer"}),  # a fraction is not an integer
    ("free", {"type": "number"}),
    (True, {"type": "number"}),  # a yes is not a one
    (True, {"type": "string"}),
    ("true", {"type": "boolean"}),
    (None, {"type": "string"}),
    (1, {"type": "null"}),
    ("3", {"type": "array"}),
    ([1], {"type": "object"}),
    ("green", {"enum": ["blue", "red"]}),
    ("y", {"const": "x"}),
    ({"amount": None}, {"type": "number"}),
    ([1, "x"], {"type": "array", "items": {"type": "integer"}}),
])
def test_values_that_do_not_fit_are_left_out(value: Any, schema: dict[str, Any]) -> None:
    facts = {"field": value}
    assert fill({"type": "object", "properties": {"field": schema}}, facts) == {}
    with pytest.raises(Unfillable) as missing:
        fill({"type": "object", "properties": {"field": schema}, "required": ["field"]}, facts)
    assert missing.value.fields == ["field"]


def test_names_match_whatever_their_case_and_punctuation() -> None:
    schema = {"type": "object", "properties": {"item_id": {"type": "string"},
                                               "Total Price": {"type": "string"}},
              "required": ["item_id"]}
    assert fill(schema, {"itemId": "item_1", "total-price": {"amount": "5.00"}}) == {
        "item_id": "item_1", "Total Price": "5.00"}


def test_a_nested_required_property_missing_fails_its_parent() -> None:
    schema = {"type": "object", "required": ["order"], "properties": {
        "order": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}}}
    with pytest.raises(Unfillable) as missing:
        fill(schema, {"order": {"status": "confirmed"}})
    assert missing.value.fields == ["order"]
    assert fill(schema, {"order": {"id": "ord_1", "status": "x"}}) == {"order": {"id": "ord_1"}}
