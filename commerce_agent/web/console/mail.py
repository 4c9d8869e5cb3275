"""Kept mail (GET /console/mail): the messages about the merchant's stores' orders (to the
customer and to the merchant), newest first, with each one readable in full. Without
`--smtp` the outbox keeps them here instead of sending them."""

from __future__ import annotations

from starlette.responses import Response

from commerce_agent.commerce.storage import mail as storage
from commerce_agent.errors import not_found
from commerce_agent.web.console.base import Console, page_endpoint

PAGE = "console-mail"
SHOWN = 100


@page_endpoint(PAGE)
async def mail_page(console: Console) -> Response:
    """The kept messages: to, subject, when, status (?store=)."""
    wanted, _, stores = console.filters(())
    rows = await storage.for_stores(console.db, stores, SHOWN)
    smtp = bool(console.request.app.state.settings.smtp)
    return console.show("console/mail.html", messages=rows, chosen_store=wanted or "",
                        smtp=smtp)


@page_endpoint(PAGE)
async def message_page(console: Console) -> Response:
    """One message in full (a message about another merchant's store is 404)."""
    message_id = console.request.path_params["message_id"][:100]
    row = await storage.message(console.db, message_id)
    if row is None or row["store_id"] not in {store["id"] for store in console.stores}:
        raise not_found("message", message_id)
    return console.show("console/message.html", message=row)
