"""Webhook routes (dev.commerce.server.webhooks@1.0): subscribe, list, read, delete, and the
delivery log with redelivery. Every subscription belongs to the principal that created it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.auth.principal import require_principal, writer_principal
from commerce_agent.commerce.pagination import pagination, read_page
from commerce_agent.commerce.services.webhooks import subscriptions as service
from commerce_agent.commerce.writes import write
from commerce_agent.db import Transaction
from commerce_agent.errors import validation_error
from commerce_agent.http import decode_body, encoder, json_response
from commerce_agent.openapi.models import Pagination, Timestamp
from commerce_agent.routing import Route
from commerce_agent.struct_rules import Rule, Ruled

# Known names, each once: service.check_events answers which one is not (its pointer).
EventName = Annotated[str, Meta(min_length=1, max_length=64, extra_json_schema={
    "enum": [*service.EVENTS, service.ALL_EVENTS]})]


def _any_case(word: str) -> str:
    return "".join(f"[{char.upper()}{char.lower()}]" if char.isalpha() else char
                   for char in word)


_HOST = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_PORT = r"(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])"
_LOOPBACK = rf"(?:127\.0\.0\.1|{_any_case('localhost')}|\[::1\])"
# https to a host name or IPv4 address, http only to loopback (schemes and host names in any
# case); then printable ASCII with no backslash and no credentials. Checked as the body is
# decoded (service.check_url's finer reasons remain for every other way in).
WEBHOOK_URL = (rf"^(?:{_any_case('https')}://{_HOST}(?:\.{_HOST})*|{_any_case('http')}://"
               rf"{_LOOPBACK})(?::{_PORT})?(?:[/?#][!-\[\]-~]*)?$")
# (key lengths: checked by service.check_metadata)
Metadata = Annotated[dict[str, Any], Meta(max_length=service.MAX_METADATA_KEYS, extra_json_schema={
    "propertyNames": {"minLength": 1, "maxLength": service.MAX_METADATA_KEY_LENGTH}})]


class CreateWebhookRequest(Ruled, forbid_unknown_fields=True):
    rules = (Rule({"properties": {"url": {"pattern": WEBHOOK_URL}}}, lambda: validation_error(
        "/url", "must be an https URL naming a host (http only to 127.0.0.1, ::1 or localhost), "
                "in printable ASCII, without credentials")),)

    url: Annotated[str, Meta(min_length=1, max_length=service.MAX_URL_LENGTH)]
    events: Annotated[list[EventName], Meta(min_length=1, max_length=len(service.EVENTS) + 1,
                                            extra_json_schema={"uniqueItems": True})]
    description: Annotated[str, Meta(max_length=500)] | None = None
    metadata: Metadata = {}


_create = msgspec.json.Decoder(CreateWebhookRequest)


# --- response shapes (for the OpenAPI document) ---------------------------------------------

class Webhook(msgspec.Struct, kw_only=True):
    """A webhook subscription (its secret is shown only when it is created)."""

    id: str
    url: str
    events: list[str]
    active: bool
    description: str | None
    metadata: dict[str, Any]
    createdAt: Timestamp
    updatedAt: Timestamp
    deactivatedReason: str | None = None


class CreatedWebhook(Webhook, kw_only=True):
    """The new subscription with its signing secret (`whsec_…`), shown this once."""

    secret: Annotated[str, Meta(pattern="^whsec_")]


class WebhookList(msgspec.Struct):
    webhooks: list[Webhook]
    pagination: Pagination


class DeliveryAttempt(msgspec.Struct):
    attempt: int
    attemptedAt: Timestamp
    statusCode: int | None
    error: str | None
    durationMs: int


class WebhookDelivery(msgspec.Struct):
    """One delivery of one event to one subscription, with every attempt made."""

    id: str
    subscriptionId: str
    eventId: str
    event: str
    storeId: str | None  # the store the event concerns (order, return, catalog events)
    status: Literal["pending", "delivered", "failed", "cancelled"]
    attempts: int
    nextAttemptAt: Timestamp | None
    lastStatusCode: int | None
    lastError: str | None
    createdAt: Timestamp
    deliveredAt: Timestamp | None
    attemptLog: list[DeliveryAttempt]


class DeliveryList(msgspec.Struct):
    deliveries: list[WebhookDelivery]
    pagination: Pagination


# --- handlers -------------------------------------------------------------------------------

async def create_webhook(request: Request) -> Response:
    """Subscribe a URL to events; the answer carries the signing secret, this once."""
    principal = await writer_principal(request)
    body = await decode_body(request, _create)

    async def work(tx: Transaction) -> Response:
        created = await service.create(tx, principal.user_id, body.url, body.events,
                                       body.description, body.metadata)
        return json_response(created, status=201,
                             headers={"Location": f"/webhooks/{created['id']}"})

    # The secret is added after the write, so not even the Idempotency-Key store keeps it:
    # a replay re-derives it.
    response = await write(request, principal, work)
    if response.status_code != 201:
        return response
    created = msgspec.json.decode(response.body)
    created["secret"] = await service.secret(request.app.state.db, created["id"])
    headers = {name: value for name, value in response.headers.items()
               if name != "content-length"}
    return Response(encoder.encode(created), status_code=201, headers=headers)


async def list_webhooks(request: Request) -> Response:
    principal = await require_principal(request)
    page = read_page(request)
    flag = request.query_params.get("includeInactive", "false")
    if flag not in {"true", "false"}:
        raise validation_error("includeInactive", "must be true or false", flag)
    webhooks, total = await service.list_page(request.app.state.db, principal.user_id,
                                              flag == "true", page)
    return json_response({"webhooks": webhooks, "pagination": pagination(page, total)})


async def get_webhook(request: Request) -> Response:
    principal = await require_principal(request)
    return json_response(await service.get(request.app.state.db, principal.user_id,
                                           request.path_params["webhook_id"]))


async def delete_webhook(request: Request) -> Response:
    """Remove a subscription: no more events are sent to it."""
    principal = await writer_principal(request)

    async def work(tx: Transaction) -> Response:
        await service.delete(tx, principal.user_id, request.path_params["webhook_id"])
        return Response(status_code=204)

    return await write(request, principal, work)


async def list_deliveries(request: Request) -> Response:
    """The delivery log of a subscription, newest first."""
    principal = await require_principal(request)
    page = read_page(request)
    deliveries, total = await service.deliveries(request.app.state.db, principal.user_id,
                                                 request.path_params["webhook_id"], page)
    return json_response({"deliveries": deliveries, "pagination": pagination(page, total)})


async def redeliver(request: Request) -> Response:
    """Send a delivery's event again (same event id and body) as a new delivery."""
    principal = await writer_principal(request)

    async def work(tx: Transaction) -> Response:
        delivery = await service.redeliver(tx, principal.user_id,
                                           request.path_params["webhook_id"],
                                           request.path_params["delivery_id"])
        return json_response(delivery, status=202)

    return await write(request, principal, work)


routes = [
    Route("/webhooks", create_webhook, methods=["POST"]),
    Route("/webhooks", list_webhooks, methods=["GET"]),
    Route("/webhooks/{webhook_id}", get_webhook, methods=["GET"]),
    Route("/webhooks/{webhook_id}", delete_webhook, methods=["DELETE"]),
    Route("/webhooks/{webhook_id}/deliveries", list_deliveries, methods=["GET"]),
    Route("/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", redeliver,
          methods=["POST"]),
]
