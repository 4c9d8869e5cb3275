"""/docs: the OpenAPI document rendered as one self-contained HTML page (no JS, no CDN), from
the template openapi/templates/docs.html."""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup, escape

from commerce_agent import templating

_METHOD_ORDER = ("get", "post", "put", "patch", "delete")
_REF = re.compile(r"&#34;#/components/schemas/([^&]+)&#34;")


def _anchor(method: str, path: str) -> str:
    return f"op-{method}-" + re.sub(r"[^a-zA-Z0-9]+", "-", path).strip("-")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _schema(schema: Any) -> Markup:
    """Pretty JSON of a schema, escaped, with $ref values linked to their component."""
    text = str(escape(json.dumps(schema, indent=2, ensure_ascii=False)))

    def link(match: re.Match[str]) -> str:
        name = match.group(1)
        return f'"<a href="#schema-{name}">#/components/schemas/{name}</a>"'

    return Markup("<pre>" + _REF.sub(link, text) + "</pre>")  # noqa: S704 - escaped above


def _auth(operation: dict[str, Any]) -> str:
    security = operation.get("security", [])
    return ("bearer token required" if security == [{"bearerAuth": []}] else
            "bearer token optional" if security else "public")


def render(document: dict[str, Any]) -> str:
    shared = document["components"].get("parameters", {})
    groups: dict[str, list[dict[str, Any]]] = {}
    for path, item in document["paths"].items():
        for method in _METHOD_ORDER:
            if method in item:
                operation = item[method]
                parameters = [shared[parameter["$ref"].rsplit("/", 1)[1]]
                              if "$ref" in parameter else parameter
                              for parameter in operation.get("parameters", [])]
                tag = (operation.get("tags") or ["Other"])[0]
                groups.setdefault(tag, []).append({
                    "method": method, "path": path, "operation": operation,
                    "anchor": _anchor(method, path), "auth": _auth(operation),
                    "parameters": parameters})
    environment = templating.environment("commerce_agent.openapi")
    template = environment.get_template("docs.html")
    return template.render(info=document["info"], groups=groups, schema=_schema,
                           schemas=sorted(document["components"]["schemas"].items()),
                           tojson_text=_json)
