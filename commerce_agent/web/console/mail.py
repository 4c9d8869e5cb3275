"""Kept mail (GET /console/mail): the messages about the merchant's stores' orders (to the
customer and to the merchant), newest first, with each one readable in full. Without
`--smtp` the outbox keeps them here instead of sending them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.storage import mail as storage
from commerce_agent.errors import not_found
from commerce_agent.web.console.base import Console, open_console

PAGE = "console-mail"
SHOWN = 100


async def mail_page(request: Request) -> Response:
    """The kept messages: to, subject, when, status (?store=)."""
    console = await open_console(request, PAGE)
    if not isinstance(console, Console):
        return console
    wanted = request.query_params.get("store") or None
    stores = [console.store(wanted)["id"]] if wanted \
        else [store["id"] for store in console.stores]
    rows = await storage.for_stores(console.db, stores, SHOWN)
    smtp = bool(request.app.state.settings.smtp)
    return console.show("console/mail.html", messages=rows, chosen_store=wanted or "",
                        smtp=smtp)


async def message_page(request: Request) -> Response:
    """One message in full (a message about another merchant's store is 404)."""
    console = await open_console(request, PAGE)
    if not isinstance(console, Console):
        return console
    message_id = request.path_params["message_id"][:100]
    row = await storage.message(console.db, message_id)
    if row is None or row["store_id"] not in {store["id"] for store in console.stores}:
        raise not_found("message", message_id)
    return console.show("console/message.html", message=row)
