"""/docs: the OpenAPI document rendered as one self-contained HTML page (no JS, no CDN)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

_METHOD_ORDER = ("get", "post", "put", "patch", "delete")
_STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1f;line-height:1.45}
header{background:#1d3557;color:#fff;padding:1rem 2rem}header a{color:#cde}
main{display:grid;grid-template-columns:18rem 1fr;gap:2rem;padding:1rem 2rem}
nav{position:sticky;top:0;max-height:100vh;overflow:auto;font-size:.9rem}
nav ul{list-style:none;padding-left:.5rem}nav a{text-decoration:none;color:#1d3557}
section.op{border:1px solid #ddd;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
.m{display:inline-block;min-width:4.2rem;font-weight:700;font-family:monospace}
.get{color:#1a7f37}.post{color:#0550ae}.patch{color:#8250df}.delete{color:#cf222e}
.put{color:#9a6700}code,pre{font-family:ui-monospace,monospace;font-size:.85rem}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;border-radius:4px}
table{border-collapse:collapse;font-size:.9rem}td,th{border:1px solid #ddd;padding:.25rem .5rem;
text-align:left;vertical-align:top}.auth{font-size:.8rem;color:#6e7781}
@media (max-width:50rem){main{grid-template-columns:1fr}nav{position:static}}
"""


def _esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _anchor(method: str, path: str) -> str:
    return f"op-{method}-" + re.sub(r"[^a-zA-Z0-9]+", "-", path).strip("-")


def _schema_html(schema: Any) -> str:
    """Pretty JSON of a schema, with $ref values linked to their component."""
    text = _esc(json.dumps(schema, indent=2, ensure_ascii=False))

    def link(match: re.Match[str]) -> str:
        name = match.group(1)
        return f'"<a href="#schema-{_esc(name)}">#/components/schemas/{name}</a>"'

    return "<pre>" + re.sub(r"&quot;#/components/schemas/([^&]+)&quot;", link, text) + "</pre>"


def _parameters(operation: dict[str, Any], shared: dict[str, Any]) -> str:
    rows = []
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            parameter = shared[parameter["$ref"].rsplit("/", 1)[1]]
        schema = json.dumps(parameter.get("schema", {}), ensure_ascii=False)
        rows.append(f"<tr><td><code>{_esc(parameter['name'])}</code></td>"
                    f"<td>{_esc(parameter['in'])}</td>"
                    f"<td>{'yes' if parameter.get('required') else 'no'}</td>"
                    f"<td><code>{_esc(schema)}</code></td>"
                    f"<td>{_esc(parameter.get('description', ''))}</td></tr>")
    if not rows:
        return ""
    return ("<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th>"
            "<th>schema</th><th>description</th></tr>" + "".join(rows) + "</table>")


def _content(content: dict[str, Any]) -> str:
    return "".join(f"<p><code>{_esc(media)}</code></p>{_schema_html(body.get('schema', {}))}"
                   for media, body in content.items())


def _operation(method: str, path: str, operation: dict[str, Any],
               shared: dict[str, Any]) -> str:
    security = operation.get("security", [])
    auth = ("bearer token required" if security == [{"bearerAuth": []}] else
            "bearer token optional" if security else "public")
    parts = [f'<section class="op" id="{_anchor(method, path)}">'
             f'<h3><span class="m {method}">{method.upper()}</span> <code>{_esc(path)}</code>'
             f'</h3><p>{_esc(operation.get("summary", ""))} '
             f'<span class="auth">({auth})</span></p>']
    if operation.get("description"):
        parts.append(f"<p>{_esc(operation['description'])}</p>")
    parts.append(_parameters(operation, shared))
    if "requestBody" in operation:
        parts.append("<h4>Request body</h4>" + _content(operation["requestBody"]["content"]))
    parts.append("<h4>Responses</h4>")
    for status, response in operation.get("responses", {}).items():
        parts.append(f"<p><strong>{_esc(status)}</strong> {_esc(response['description'])}</p>")
        if response.get("content"):
            parts.append(_content(response["content"]))
    parts.append("</section>")
    return "".join(parts)


def render(document: dict[str, Any]) -> str:
    info = document["info"]
    shared = document["components"].get("parameters", {})
    groups: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, item in document["paths"].items():
        for method in _METHOD_ORDER:
            if method in item:
                tag = (item[method].get("tags") or ["Other"])[0]
                groups.setdefault(tag, []).append((method, path, item[method]))
    toc, body = [], []
    for tag, operations in groups.items():
        toc.append(f"<li><strong>{_esc(tag)}</strong><ul>")
        body.append(f"<h2>{_esc(tag)}</h2>")
        for method, path, operation in operations:
            toc.append(f'<li><a href="#{_anchor(method, path)}">{method.upper()} '
                       f"{_esc(path)}</a></li>")
            body.append(_operation(method, path, operation, shared))
        toc.append("</ul></li>")
    schemas = "".join(f'<section id="schema-{_esc(name)}"><h3>{_esc(name)}</h3>'
                      f"{_schema_html(schema)}</section>"
                      for name, schema in sorted(document["components"]["schemas"].items()))
    toc.append('<li><a href="#schemas"><strong>Schemas</strong></a></li>')
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width">'
            f"<title>{_esc(info['title'])} API reference</title><style>{_STYLE}</style></head>"
            f"<body><header><h1>{_esc(info['title'])} {_esc(info['version'])}</h1>"
            f"<p>{_esc(info.get('description', ''))} Machine-readable: "
            f'<a href="/openapi.json">/openapi.json</a>.</p></header><main>'
            f"<nav><ul>{''.join(toc)}</ul></nav><div>{''.join(body)}"
            f'<h2 id="schemas">Schemas</h2>{schemas}</div></main></body></html>')
