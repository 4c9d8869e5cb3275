"""The discovery routes: the OpenAPI document, its HTML rendering, and /.well-known/commerce."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from commerce_agent.http import json_response
from commerce_agent.openapi import docs, generator
from commerce_agent.routing import Route


def document(request: Request) -> dict[str, Any]:
    """The app's OpenAPI document, built once per app (routes do not change after start)."""
    state = request.app.state
    built: dict[str, Any] | None = getattr(state, "openapi_document", None)
    if built is None:
        built = generator.build(request.app, state.settings)
        state.openapi_document = built
    return built


async def openapi_json(request: Request) -> Response:
    """The OpenAPI 3.1 document of every route of this server."""
    return json_response(document(request), media_type="application/json",
                         headers={"Access-Control-Allow-Origin": "*"})


async def docs_page(request: Request) -> Response:
    """The API reference as one self-contained HTML page."""
    state = request.app.state
    page: str | None = getattr(state, "openapi_docs", None)
    if page is None:
        page = docs.render(document(request))
        state.openapi_docs = page
    return HTMLResponse(page, headers={
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                                   "frame-ancestors 'none'; base-uri 'none'",
        "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff"})


async def well_known(request: Request) -> Response:
    """Where this server's API resources are (RFC 8615), like upstream's /.well-known/ocp."""
    base = request.app.state.settings.base_url.rstrip("/")
    body = {"commerce": {"capabilities": f"{base}/capabilities", "version": "1.0",
                         "context": f"{base}/schemas/context.jsonld",
                         "openapi": f"{base}/openapi.json", "docs": f"{base}/docs"}}
    return json_response(body, media_type="application/json", headers={
        "Cache-Control": "max-age=3600", "Access-Control-Allow-Origin": "*"})


routes = [
    Route("/.well-known/commerce", well_known, methods=["GET"]),
    Route("/openapi.json", openapi_json, methods=["GET"]),
    Route("/docs", docs_page, methods=["GET"]),
]
