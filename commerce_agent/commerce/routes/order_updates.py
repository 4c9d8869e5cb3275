"""GET /orders/{id}/updates: the order's changes as Server-Sent Events of JSON Patch."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from commerce_agent.auth.principal import require_principal
from commerce_agent.commerce.orders.updates import order_updates, parse_last_event_id
from commerce_agent.commerce.storage import order_events as storage
from commerce_agent.errors import not_found
from commerce_agent.routing import Route

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no",
               "Connection": "keep-alive"}


async def watch_order(request: Request) -> Response:
    """Follow an order's changes (SSE; resume with Last-Event-ID)"""
    principal = await require_principal(request)
    order_id = request.path_params["order_id"]
    state = request.app.state
    if await storage.snapshot(state.db, order_id, principal.user_id) is None:
        raise not_found("order", order_id)
    last_event_id = parse_last_event_id(request.headers.get("last-event-id"))
    body = order_updates(state.db, state.order_feed, order_id, principal.user_id,
                         last_event_id, state.settings.sse_heartbeat_seconds)
    return StreamingResponse(body, media_type="text/event-stream", headers=SSE_HEADERS)


routes = [Route("/orders/{order_id}/updates", watch_order, methods=["GET"])]
