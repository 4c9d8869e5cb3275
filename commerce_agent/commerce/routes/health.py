"""Health checks for load balancers and orchestrators: `GET /health/live` (the process serves
requests; never touches the database) and `GET /health` (ready: the database answered a query
within HEALTH_TIMEOUT_SECONDS, else 503 service_unavailable with Retry-After)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.db import DatabaseUnavailable
from commerce_agent.errors import service_unavailable
from commerce_agent.http import json_response
from commerce_agent.routing import Route

# Shorter than a request's own bound: a balancer must hear of a lost database quickly.
HEALTH_TIMEOUT_SECONDS = 2.0
_NO_STORE = {"Cache-Control": "no-store"}


async def get_live(request: Request) -> Response:
    return json_response({"status": "ok"}, headers=_NO_STORE)


async def get_ready(request: Request) -> Response:
    try:
        await request.app.state.db.ping(HEALTH_TIMEOUT_SECONDS)
    except DatabaseUnavailable:
        raise service_unavailable() from None
    return json_response({"status": "ok", "database": "ok"}, headers=_NO_STORE)


routes = [
    Route("/health", get_ready, methods=["GET"]),
    Route("/health/live", get_live, methods=["GET"]),
]
