"""Webhooks (GET /console/webhooks): the merchant's subscriptions (order, refund, return and
catalog events of their stores), a form to subscribe a URL, deletion, and each one's delivery
log (GET /console/webhooks/{id}) with redelivery. The signing secret is shown once, on the
page that answers the new subscription."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from commerce_agent.commerce.pagination import Page
from commerce_agent.commerce.services.webhooks import subscriptions as service
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError, validation_error
from commerce_agent.web import paths
from commerce_agent.web.console.base import Console, form_endpoint, page_endpoint, refused, submit

PAGE = "console-webhooks"
SHOWN = 50
FIELDS = {"/url": "url", "/events": "events", "/description": "description"}


async def _webhooks(console: Console, status: int = 200, **extra: Any) -> Response:
    """Webhook subscriptions, with the form to add one."""
    hooks, _ = await service.list_page(console.db, console.principal.user_id, True,
                                       Page(SHOWN))
    return console.show("console/webhooks.html", status, webhooks=hooks,
                        webhook_events=service.EVENTS, **extra)


webhooks_page = page_endpoint(PAGE)(_webhooks)


@form_endpoint(PAGE)
async def create_webhook(console: Console) -> Response:
    """POST /console/webhooks: subscribe a URL; the page shows its signing secret once."""
    form = console.form
    events = [key.removeprefix("event:") for key, value in form.items()
              if key.startswith("event:") and value]
    url = form.get("url", "").strip()
    description = form.get("description", "").strip() or None

    async def work(tx: Transaction) -> dict[str, Any]:
        if not events:
            raise validation_error("/events", "choose at least one event")
        if description is not None and len(description) > 500:
            raise validation_error("/description", "must be at most 500 characters")
        chosen = [service.ALL_EVENTS] if service.ALL_EVENTS in events else events
        return await service.create(tx, console.principal.user_id, url, chosen, description,
                                    {})

    try:
        created = await console.write(work)
    except CommerceError as error:
        return await refused(console, error, "new-webhook", FIELDS, _webhooks)
    secret = await service.secret(console.db, created["id"])
    return await _webhooks(console, created=created, secret=secret)


@form_endpoint(PAGE)
async def delete_webhook(console: Console) -> Response:
    """POST /console/webhooks/{id}/delete."""
    webhook_id = console.request.path_params["webhook_id"][:100]
    try:
        hook = await service.get(console.db, console.principal.user_id, webhook_id)
        await console.write(lambda tx: service.delete(tx, console.principal.user_id,
                                                       webhook_id))
    except CommerceError as error:
        return await refused(console, error, f"delete-{webhook_id}", {}, _webhooks)
    return console.done(paths.CONSOLE_WEBHOOKS, f"Deleted the subscription to {hook['url']}.")


async def _log(console: Console, status: int = 200, **extra: Any) -> Response:
    """One subscription's delivery log, newest first (another's subscription is 404)."""
    webhook_id = console.request.path_params["webhook_id"][:100]
    owner = console.principal.user_id
    hook = await service.get(console.db, owner, webhook_id)
    deliveries, total = await service.deliveries(console.db, owner, webhook_id, Page(SHOWN))
    return console.show("console/webhook.html", status, hook=hook, deliveries=deliveries,
                        total=total, **extra)


webhook_page = page_endpoint(PAGE)(_log)


@form_endpoint(PAGE)
async def redeliver(console: Console) -> Response:
    """POST /console/webhooks/{id}/deliveries/{delivery}/redeliver: send the event again."""
    webhook_id = console.request.path_params["webhook_id"][:100]
    delivery_id = console.request.path_params["delivery_id"][:100]

    async def work(tx: Transaction) -> str:
        again = await service.redeliver(tx, console.principal.user_id, webhook_id, delivery_id)
        return f"Sent {again['event']} again as a new delivery."

    return await submit(console, work, f"redeliver-{delivery_id}", {}, _log,
                        paths.CONSOLE_WEBHOOK.replace("{webhook_id}", webhook_id))
