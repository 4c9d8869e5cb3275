"""Bad input on every Commerce API write and list, generated (hypothesis): bodies of the
wrong shape, fields of the wrong type, unknown fields, NaN and infinities, huge strings, deep
nesting, bytes that are not UTF-8, the wrong Content-Type, no body at all; and query
parameters of any text. Whatever arrives, the answer is never a 5xx and never a hang: a 4xx in
the one error shape, and exactly 400 whenever the body breaks the route's own schema in
/openapi.json. The routes are read from the app (a new one joins by itself, and must be given a
body it accepts in tests/support/commerce_world.py)."""

from __future__ import annotations

import asyncio
import json
import math
from dataclasses import dataclass
from typing import Any

import httpx
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette

from commerce_agent.openapi import introspect
from tests.support.commerce_world import World, commerce_endpoints, good_bodies
from tests.support.fuzzing import examples
from tests.support.helpers import SHAPE
from tests.support.openapi import fetch_document

EXAMPLES = examples(40)
# The updates feed is an open-ended stream: fuzzed with unknown ids in test_openapi_fuzz.py.
STREAMS = {"/orders/{order_id}/updates"}
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(["", " ", "0", "-1", "1e309", "USD", "2.00", "\u202e", "\U0001f600"])
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


class Spec:
    """The request schemas and query parameters /openapi.json gives each route."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document

    def _operation(self, method: str, path: str) -> dict[str, Any]:
        operation: dict[str, Any] = self.document["paths"][path][method.lower()]
        return operation

    def body_schema(self, method: str, path: str) -> dict[str, Any]:
        content = self._operation(method, path)["requestBody"]["content"]
        schema = content["application/json"]["schema"]
        return {**schema, "components": self.document["components"]}

    def body_required(self, method: str, path: str) -> bool:
        return bool(self._operation(method, path)["requestBody"].get("required"))

    def fields(self, method: str, path: str) -> list[str]:
        schema = self.body_schema(method, path)
        name = schema["$ref"].rsplit("/", 1)[1]
        return sorted(self.document["components"]["schemas"][name]["properties"])

    def valid(self, method: str, path: str, body: Any) -> bool:
        validator = jsonschema.Draft202012Validator(self.body_schema(method, path))
        return bool(validator.is_valid(body))

    def query(self, method: str, path: str) -> dict[str, dict[str, Any]]:
        found = {}
        for parameter in self._operation(method, path).get("parameters", []):
            if "$ref" in parameter:  # #/components/parameters/<name>
                name = parameter["$ref"].rsplit("/", 1)[1]
                parameter = self.document["components"]["parameters"][name]
            if parameter["in"] == "query":
                found[parameter["name"]] = parameter["schema"]
        return found


def json_routes(app: Starlette) -> list[tuple[str, str]]:
    """(method, path) of every Commerce API route that decodes a JSON body."""
    return sorted(
        (endpoint.method, endpoint.path)
        for endpoint in commerce_endpoints(app)
        if introspect.request_types(endpoint.handler)
    )


@dataclass
class Target:
    """What every test here sends to: the app, Alice's client of it, the things her requests
    name, and the schemas the routes publish."""

    app: Starlette
    client: httpx.AsyncClient
    alice: dict[str, str]
    world: World
    spec: Spec

    def draw_route(self, data: st.DataObject) -> tuple[str, str, Any]:
        """A JSON route, and the body made for it that it accepts."""
        method, path = data.draw(st.sampled_from(json_routes(self.app)), label="route")
        return method, path, good_bodies(self.world)[(method, path)]

    async def send(
        self, method: str, path: str, content_type: str, content: bytes
    ) -> httpx.Response:
        headers = {**self.alice, "Content-Type": content_type}
        return await asyncio.wait_for(
            self.client.request(method, self.world.path(path), content=content, headers=headers),
            timeout=20,
        )


@pytest.fixture
async def target(
    app: Starlette, client: httpx.AsyncClient, alice: dict[str, str], world: World
) -> Target:
    return Target(app, client, alice, world, Spec(await fetch_document(client)))


def assert_refusal(response: httpx.Response, what: str) -> dict[str, Any]:
    """A 4xx in the one error shape (never a 5xx); or, for an order, x402's 402."""
    assert 400 <= response.status_code < 500, (what, response.status_code, response.text[:500])
    if response.status_code == 402:
        requirements: dict[str, Any] = response.json()
        assert requirements["x402Version"] == 1 and requirements["accepts"], what
        return {"code": "payment_required", **requirements}
    assert response.headers["content-type"].startswith("application/commerce+json"), what
    body: dict[str, Any] = response.json()
    assert SHAPE <= body.keys(), (what, body)
    assert body["status"] == response.status_code, (what, body)
    assert isinstance(body["code"], str) and body["code"], (what, body)
    assert body["userMessage"]["localizationKey"] == f"error.{body['code']}", (what, body)
    return body


def encoded(value: Any) -> bytes:
    """JSON text as a careless client writes it: NaN and Infinity as bare words."""
    return json.dumps(value, allow_nan=True).encode()


async def test_every_json_route_has_a_body_it_accepts(target: Target) -> None:
    """The bodies the bad ones are made from pass each schema and the route's decoding: a
    refusal of them is about stored data, never a 400 about the body's shape."""
    bodies = good_bodies(target.world)
    routes = json_routes(target.app)
    assert len(routes) >= 15
    for method, path in routes:
        assert (method, path) in bodies, f"give {method} {path} a body in commerce_world.py"
        body = bodies[(method, path)]
        assert target.spec.valid(method, path, body), (method, path, body)
        response = await target.client.request(
            method, target.world.path(path), json=body, headers=target.alice
        )
        if response.status_code >= 400:
            error = assert_refusal(response, f"{method} {path}")
            assert error["code"] not in ("bad_request", "invalid_json"), (method, path, error)


@EXAMPLES
@given(data=st.data())
async def test_bodies_that_break_the_schema_are_400(target: Target, data: st.DataObject) -> None:
    method, path, good = target.draw_route(data)
    assert good is not None
    fields = target.spec.fields(method, path)
    kind = data.draw(st.sampled_from(["whole", "field", "extra", "nan", "nested"]), label="kind")
    body: Any
    if kind == "whole":
        body = data.draw(JSON_VALUES, label="body")
    elif kind == "field":
        body = {**good, data.draw(st.sampled_from(fields)): data.draw(JSON_VALUES, label="value")}
    elif kind == "extra":
        name = data.draw(st.text(min_size=1, max_size=12).filter(lambda key: key not in fields))
        body = {**good, name: data.draw(JSON_VALUES, label="value")}
    elif kind == "nan":
        number = data.draw(st.sampled_from([math.nan, math.inf, -math.inf]))
        body = {**good, data.draw(st.sampled_from(fields)): number}
    else:
        depth = data.draw(st.integers(5, 300))
        nested: Any = data.draw(SCALARS)
        for _ in range(depth):
            nested = [nested] if data.draw(st.booleans()) else {"a": nested}
        body = {**good, data.draw(st.sampled_from(fields)): nested}
    content = encoded(body)
    response = await target.send(method, path, "application/json", content)
    what = f"{method} {path} {content[:300]!r}"
    breaks_schema = kind in ("nan", "extra") or not target.spec.valid(
        method, path, json.loads(content)
    )
    if breaks_schema:
        error = assert_refusal(response, what)
        assert response.status_code == 400, what
        assert error["code"] == "bad_request", (what, error)
    elif response.status_code >= 400:
        assert_refusal(response, what)


@EXAMPLES
@given(data=st.data())
async def test_bytes_that_are_not_a_json_body_are_refused(
    target: Target, data: st.DataObject
) -> None:
    """Bad bytes, an empty body, a body cut short, the wrong Content-Type, a string past the
    body limit: refused before the route's schema, with the status that says which."""
    method, path, good_body = target.draw_route(data)
    good = encoded(good_body)
    limit = target.app.state.settings.max_body_bytes
    kind = data.draw(
        st.sampled_from(["bytes", "empty", "cut", "type", "huge", "latin1"]), label="kind"
    )
    content_type = "application/json"
    expected: tuple[int, ...] = (400,)
    optional = not target.spec.body_required(method, path)
    if kind == "bytes":
        content = data.draw(st.binary(min_size=1, max_size=200), label="bytes")
        try:
            json.loads(content)
            expected = (400, 404, 409, 422, 200, 201)  # happened to be JSON: judged as such
        except ValueError:
            if optional and not content.strip():
                expected = ()  # no body, where none is needed: the route goes on
    elif kind == "empty":
        content = data.draw(st.sampled_from([b"", b" ", b"\n\t "]))
        if optional:
            expected = ()
    elif kind == "cut":
        content = good[: data.draw(st.integers(1, len(good) - 1))]
    elif kind == "type":
        content = good
        content_type = data.draw(
            st.sampled_from(
                [
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data",
                    "application/xml",
                    "application/jsonx",
                    "json",
                ]
            )
        )
        expected = (415,)
    elif kind == "huge":
        content = b'{"x": "' + b"x" * (limit + data.draw(st.integers(1, 5000))) + b'"}'
        expected = (413,)
    else:  # a field in Latin-1: é is one byte, not UTF-8
        content = good[:-1] + b', "note": "caf\xe9"}'
    response = await target.send(method, path, content_type, content)
    what = f"{kind}: {method} {path} {content[:120]!r}"
    if response.status_code < 400:
        assert not expected or response.status_code in expected, what
        return
    assert_refusal(response, what)
    assert not expected or response.status_code in expected, (
        what,
        response.status_code,
        response.text[:300],
    )


def _query_value(schema: dict[str, Any]) -> st.SearchStrategy[str]:
    """Any text, and the near misses of the parameter's own kind."""
    near: list[str] = ["", "0", "-1", "101", "1.5", "1e3", "NaN", "null", "%", "\u00e9"]
    if "enum" in schema:
        near += [value.upper() for value in schema["enum"]] + [f"{schema['enum'][0]} "]
    return st.text(max_size=40).filter(lambda text: "\x00" not in text) | st.sampled_from(near)


@EXAMPLES
@given(data=st.data())
async def test_query_parameters_of_any_text_are_answered_or_refused_with_400(
    target: Target, data: st.DataObject
) -> None:
    routes = sorted(
        endpoint.path
        for endpoint in commerce_endpoints(target.app)
        if endpoint.method == "GET"
        and endpoint.path not in STREAMS
        and target.spec.query("GET", endpoint.path)
    )
    assert len(routes) >= 8, routes
    path = data.draw(st.sampled_from(routes), label="route")
    parameters = target.spec.query("GET", path)
    names = data.draw(st.lists(st.sampled_from(sorted(parameters)), min_size=1, unique=True))
    query = {name: data.draw(_query_value(parameters[name]), label=name) for name in names}
    response = await asyncio.wait_for(
        target.client.get(target.world.path(path), params=query, headers=target.alice), timeout=20
    )
    what = f"GET {path} {query}"
    valid = all(_query_valid(parameters[name], value) for name, value in query.items())
    if response.status_code >= 400:
        error = assert_refusal(response, what)
        assert response.status_code == 400, what
        assert not valid or "cursor" in query, (what, error)
        assert error["details"][0]["field"] in query, (what, error)
    else:
        assert response.status_code == 200 and valid, what


def _query_valid(schema: dict[str, Any], value: str) -> bool:
    """Whether `value` meets the parameter's schema, read as a query string's text."""
    if schema.get("type") == "integer":
        try:
            number = int(value)
        except ValueError:
            return False
        return str(number) == value.strip() and schema["minimum"] <= number <= schema["maximum"]
    converted: Any = value
    return bool(jsonschema.Draft202012Validator(schema).is_valid(converted))
