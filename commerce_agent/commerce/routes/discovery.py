"""Discovery: capabilities, the JSON Schemas they point at, and product search."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from importlib import resources
from typing import Annotated

from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth import bearer
from commerce_agent.commerce import capabilities
from commerce_agent.commerce.pagination import read_page
from commerce_agent.commerce.services import profile
from commerce_agent.commerce.services.catalog import search as search_service
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.http import json_response, request_locale
from commerce_agent.routing import Route

_SCHEMAS = resources.files("commerce_agent.commerce") / "schemas"


async def get_capabilities(request: Request) -> Response:
    body = {"@context": "/schemas/context.jsonld",
            "capabilities": capabilities.render_all(request.app.state.settings)}
    return json_response(body)


async def get_schema(request: Request) -> Response:
    path = request.path_params["path"]
    parts = path.split("/")
    if not path.endswith(".json") or any(part in ("", ".", "..") for part in parts):
        raise CommerceError(404, "schema_not_found", f"No schema at {path!r}.")
    target = _SCHEMAS.joinpath(*parts)
    if not target.is_file():
        raise CommerceError(404, "schema_not_found", f"No schema at {path!r}.")
    return Response(target.read_bytes(), media_type="application/schema+json")


# minPrice and maxPrice: what the server takes is what /openapi.json says (operations.py).
PRICE = re.compile(r"^[0-9]+(\.[0-9]+)?$")
Price = Annotated[str, Meta(pattern=PRICE.pattern, description="decimal amount, not negative")]


def _price_param(request: Request, name: str) -> Decimal | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not PRICE.match(raw):
        negative = raw.startswith("-") and PRICE.match(raw[1:])
        raise validation_error(name, "must not be negative" if negative
                               else "must be a decimal amount", raw)
    return Decimal(raw)


_CURRENCY = re.compile(r"^[A-Z]{3}$")


async def _currency(request: Request, bounded: bool) -> str | None:
    """The `currency` filter: as sent (`any`: none); else, when minPrice or maxPrice bound the
    price, the signed-in caller's saved currency (a bound means nothing without one).

    Prices stay in each store's currency (no conversion), so a preferred currency can only
    choose among items; a bad or missing token just means no default (search is public).
    """
    raw = request.query_params.get("currency")
    if raw is not None:
        if raw == "any":
            return None
        if not _CURRENCY.match(raw):
            raise validation_error("currency", "must be an ISO 4217 code or any", raw)
        return raw
    if not bounded:
        return None
    token = bearer.lookup_token(request.scope)
    if token is None:
        return None
    preferences = await profile.preferences_for_token(request.app.state.db, token,
                                                      request.scope.setdefault("state", {}))
    return None if preferences is None else preferences.currency


async def search(request: Request) -> Response:
    query = request.query_params.get("q", "")
    if len(query) > 200:
        raise validation_error("q", "must be at most 200 characters")
    page = read_page(request, search_service.cursor_key(request.app.state.db))
    available = request.query_params.get("available")
    if available not in (None, "true", "false"):
        raise validation_error("available", "must be true or false", available)
    min_price, max_price = _price_param(request, "minPrice"), _price_param(request, "maxPrice")
    bounded = min_price is not None or max_price is not None
    currency = await _currency(request, bounded)
    found = await search_service.search(
        request.app.state.db, query, store_id=request.query_params.get("storeId"),
        sort=request.query_params.get("sort", "relevance"),
        min_price=min_price, max_price=max_price,
        fulfillment_type=request.query_params.get("fulfillmentType"),
        available_only=available == "true", locale=request_locale(request), currency=currency,
        page=page)
    by_caller = bounded and "currency" not in request.query_params
    headers = {"Vary": "Authorization"} if by_caller else None
    return json_response({"query": query, "currency": currency, "items": found.items,
                          "pagination": found.pagination},
                         headers=headers)


async def context_document(request: Request) -> Response:
    body = {"@context": {"@vocab": "https://commerce-agent.dev/vocab#",
                         "id": "@id", "capabilities": {"@container": "@set"}}}
    return Response(json.dumps(body), media_type="application/ld+json")


routes = [
    Route("/capabilities", get_capabilities, methods=["GET"]),
    Route("/schemas/context.jsonld", context_document, methods=["GET"]),
    Route("/schemas/{path:path}", get_schema, methods=["GET"]),
    Route("/search", search, methods=["GET"]),
]
