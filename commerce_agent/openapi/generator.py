"""Build the OpenAPI 3.1 document of the running app from its routes and msgspec structs.

Every route of the app becomes an operation (mounts included). Request bodies are the structs
the handlers decode with, path parameters come from the route, auth and Idempotency-Key from
the helpers the handler uses; `operations.py` adds what code cannot say (responses, query
parameters, form fields). All schemas go through one `msgspec.json.schema_components` call.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
import msgspec.inspect
from starlette.applications import Starlette

from commerce_agent.agent.agents import agent_names
from commerce_agent.auth.principal import (
    optional_principal,
    require_principal,
    writer_principal,
)
from commerce_agent.commerce.admin.access import merchant_principal, owned, owned_write
from commerce_agent.commerce.admin.operations import ADMIN_OPERATIONS
from commerce_agent.commerce.writes import write
from commerce_agent.http import MEDIA_TYPE
from commerce_agent.openapi import introspect, models
from commerce_agent.openapi.operations import (
    AGENT_OPERATIONS,
    JSON,
    OPERATIONS,
    Answer,
    Operation,
    Param,
)
from commerce_agent.settings import Settings
from commerce_agent.struct_rules import schemas_of

API_MEDIA = MEDIA_TYPE.split(";")[0]
REF = "#/components/schemas/{name}"
_HEADERS = {
    "Location": "Where the created or next resource is.",
    "Link": "RFC 8288 link to the next page (rel=\"next\").",
    "X-PAYMENT-RESPONSE": "Base64 JSON settlement receipt (x402).",
    "PAYMENT-RESPONSE": "Base64 JSON settlement receipt (x402 version 2, answering "
                        "PAYMENT-SIGNATURE).",
    "PAYMENT-REQUIRED": "Base64 JSON x402 version 2 payment requirements (the `exact` "
                        "entries on CAIP-2 networks); sent when one is offered.",
}
_SHARED_PARAMETERS = {
    "AcceptLanguage": {"name": "Accept-Language", "in": "header", "required": False,
                       "description": "Preferred languages with q-values; the answer says "
                                      "which one it used in Content-Language.",
                       "schema": {"type": "string"}},
    "AcceptCommerceCapabilities": {
        "name": "Accept-Commerce-Capabilities", "in": "header", "required": False,
        "description": "Comma-separated capability identifiers with the versions wanted.",
        "schema": {"type": "string"}},
    "IdempotencyKey": {"name": "Idempotency-Key", "in": "header", "required": False,
                       "description": "Repeating a request with the same key and body "
                                      "replays the first answer (kept 24 hours).",
                       "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                                  # printable characters, as writes._idempotency_key checks
                                  "pattern": "^[\\x20-\\x7E\\xA1-\\xAC\\xAE-\\xFF]+$"}},
}


class _Schemas:
    """Collects the types to describe, then resolves them in one schema_components call."""

    def __init__(self) -> None:
        self._types: list[Any] = []

    def ref(self, kind: Any) -> int:
        if kind not in self._types:
            self._types.append(kind)
        return self._types.index(kind)

    def resolve(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        if not self._types:
            return [], {}
        schemas, components = msgspec.json.schema_components(self._types, ref_template=REF)
        for kind in _struct_types(self._types):
            rules = schemas_of(kind)
            if rules:
                components[_component_name(kind, components)]["allOf"] = rules
        return list(schemas), components


def _struct_types(types: list[Any]) -> list[type]:
    """Every struct type the given types use, nested ones included."""
    found: list[type] = []
    seen: set[int] = set()
    stack: list[Any] = list(msgspec.inspect.multi_type_info(types))
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, msgspec.inspect.StructType) and node.cls not in found:
            found.append(node.cls)
        if isinstance(node, msgspec.Struct):
            stack.extend(getattr(node, name) for name in node.__struct_fields__)
        elif isinstance(node, tuple):
            stack.extend(node)
    return found


def _component_name(kind: type, components: dict[str, Any]) -> str:
    # msgspec names a component after its class, or after its full path when two share a name
    full = re.sub(r"[^a-zA-Z0-9.\-_]", "_", f"{kind.__module__}.{kind.__qualname__}")
    return full if full in components else kind.__name__


def _param(param: Param, where: str, schemas: _Schemas) -> dict[str, Any]:
    return {"name": param.name, "in": where, "required": param.required or where == "path",
            "description": param.description, "schema": schemas.ref(param.schema)}


def _content(media: str, index: int) -> dict[str, Any]:
    return {media: {"schema": index}}


def _answer(answer: Answer, agent: bool, schemas: _Schemas) -> dict[str, Any]:
    response: dict[str, Any] = {"description": answer.description}
    if answer.schema is not None:
        media = answer.media or (JSON if agent else API_MEDIA)
        response["content"] = _content(media, schemas.ref(answer.schema))
    if answer.headers:
        response["headers"] = {name: {"description": _HEADERS.get(name, name),
                                      "schema": {"type": "string"}}
                               for name in answer.headers}
    return response


def _operation(endpoint: introspect.Endpoint, spec: Operation | None, agent: bool,
               schemas: _Schemas) -> dict[str, Any]:
    handler = endpoint.handler
    operation: dict[str, Any] = {
        "operationId": endpoint.method.lower() + re.sub(r"[^a-zA-Z0-9]+", "_",
                                                        endpoint.path).rstrip("_"),
        "summary": introspect.summary(handler),
    }
    if spec and spec.description:
        operation["description"] = spec.description
    tag = (spec.tags if spec and spec.tags else ("Agent sessions",) if agent else ())
    if tag:
        operation["tags"] = list(tag)
    checked = {param.name: param for param in spec.path} if spec else {}
    parameters: list[dict[str, Any]] = [
        _param(checked[name], "path", schemas) if name in checked
        else {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in endpoint.params]
    if spec:
        parameters += [_param(param, "query", schemas) for param in spec.query]
        parameters += [_param(param, "header", schemas) for param in spec.headers]
    if not agent:
        parameters += [{"$ref": "#/components/parameters/AcceptLanguage"},
                       {"$ref": "#/components/parameters/AcceptCommerceCapabilities"}]
    if introspect.refers_to(handler, write, owned_write):
        parameters.append({"$ref": "#/components/parameters/IdempotencyKey"})
    if parameters:
        operation["parameters"] = parameters
    bodies = introspect.request_types(handler)
    if bodies:
        kind = bodies[0] if len(bodies) == 1 else bodies[0] | bodies[1]
        media = JSON if agent else API_MEDIA
        content = _content(media, schemas.ref(kind))
        if not agent:
            content[JSON] = content[media]
        operation["requestBody"] = {"required": spec.body_required if spec else True,
                                    "content": content}
    elif spec and spec.form is not None:
        form_schema = {"type": "object", "required": list(spec.required_form),
                       "properties": {name: {"type": "string", "description": text,
                                             **({"minLength": 1} if name in spec.required_form
                                                else {})}
                                      for name, text in spec.form.items()}}
        operation["requestBody"] = {"required": True, "content": {
            "application/x-www-form-urlencoded": {"schema": form_schema}}}
    elif spec and spec.raw_body is not None:
        operation["requestBody"] = {"required": True, "content": {
            # an empty file is refused (import_routes._read_file)
            media: {"schema": {"type": "string", "minLength": 1, "description": text}}
            for media, text in spec.raw_body.items()}}
    if introspect.refers_to(handler, require_principal) \
            or introspect.refers_to(handler, writer_principal) \
            or introspect.refers_to(handler, merchant_principal, owned, owned_write):
        operation["security"] = [{"bearerAuth": []}]
    elif introspect.refers_to(handler, optional_principal) or agent:
        operation["security"] = [{}, {"bearerAuth": []}]
    else:
        operation["security"] = []
    responses = {str(status): _answer(answer, agent, schemas)
                 for status, answer in (spec.responses.items() if spec else ())}
    if spec and spec.query and "400" not in responses and not agent:
        # A query parameter out of its range, or a cursor this server did not issue.
        responses["400"] = {"description": "bad_request: a query parameter is invalid (a "
                                           "cursor this server did not issue, a limit out of "
                                           "range).",
                            "content": _content(API_MEDIA, schemas.ref(models.Error))}
    if not any(status.startswith("2") or status.startswith("3") for status in responses):
        responses["2XX"] = {"description": "Success (shape not documented yet).",
                            "content": {"*/*": {"schema": {}}}}
    error = models.AgentError if agent else models.Error
    responses["default"] = {"description": "Error.", "content": _content(
        JSON if agent else API_MEDIA, schemas.ref(error))}
    operation["responses"] = responses
    return operation


def _fill(node: Any, resolved: list[dict[str, Any]]) -> Any:
    """Swap the placeholder indexes left at every `schema` key for the resolved schemas."""
    if isinstance(node, dict):
        return {key: (resolved[value] if key == "schema" and isinstance(value, int)
                      else _fill(value, resolved)) for key, value in node.items()}
    if isinstance(node, list):
        return [_fill(value, resolved) for value in node]
    return node


def _vocabularies(node: Any, words: dict[str, list[str]]) -> Any:
    """Swap each `x-vocabulary` mark for the enum of words this server knows by that name
    (they depend on its settings, as the agents it runs do)."""
    if isinstance(node, dict):
        if "x-vocabulary" in node:
            node = {**node, "enum": words[node["x-vocabulary"]]}
            del node["x-vocabulary"]
        return {key: _vocabularies(value, words) for key, value in node.items()}
    if isinstance(node, list):
        return [_vocabularies(value, words) for value in node]
    return node


def endpoints(app: Starlette) -> list[introspect.Endpoint]:
    return list(introspect.walk(app.routes))


def undocumented(app: Starlette, settings: Settings) -> list[tuple[str, str]]:
    """Operations without an entry in operations.py (their answers are undescribed)."""
    missing = []
    for endpoint in endpoints(app):
        agent = endpoint.mount == settings.agent_mount
        key = (endpoint.method, endpoint.path[len(endpoint.mount):] if agent else endpoint.path)
        if key not in (AGENT_OPERATIONS if agent else {**OPERATIONS, **ADMIN_OPERATIONS}):
            missing.append((endpoint.method, endpoint.path))
    return missing


def build(app: Starlette, settings: Settings) -> dict[str, Any]:
    schemas = _Schemas()
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in endpoints(app):
        agent = endpoint.mount == settings.agent_mount
        if agent:
            spec = AGENT_OPERATIONS.get((endpoint.method, endpoint.path[len(endpoint.mount):]))
        else:
            spec = OPERATIONS.get((endpoint.method, endpoint.path)) \
                or ADMIN_OPERATIONS.get((endpoint.method, endpoint.path))
        paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = _operation(
            endpoint, spec, agent, schemas)
    resolved, components = schemas.resolve()
    words = {"agents": agent_names(settings)}
    resolved, components = _vocabularies(resolved, words), _vocabularies(components, words)
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "commerce-agent",
            "version": "1.0.0-rc.1",
            "summary": "Commerce API and Agent Session Streaming API of this server.",
            "description": "Generated from the running server's routes and msgspec structs. "
                           "Start at GET /capabilities; errors share one shape (Error).",
        },
        "servers": [{"url": settings.base_url.rstrip("/")}],
        "paths": _fill(paths, resolved),
        "components": {
            "schemas": components,
            "parameters": _SHARED_PARAMETERS,
            "securitySchemes": {"bearerAuth": {
                "type": "http", "scheme": "bearer",
                "description": "Opaque token from POST /auth/token, "
                               "`commerce-agent token create`, or the demo tokens."}},
        },
    }
    return document
