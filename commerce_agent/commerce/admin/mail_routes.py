"""GET /admin/mail: the mail about the merchant's stores' orders (the outbox), newest first.

Without an SMTP server the messages are kept here, readable by the store's merchants."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.admin.access import merchant_principal
from commerce_agent.commerce.pagination import COUNT_CAP, keyed, read_page, total_count
from commerce_agent.commerce.storage import mail as storage
from commerce_agent.db import Row
from commerce_agent.errors import not_found
from commerce_agent.http import json_response
from commerce_agent.routing import Route


class MailMessage(msgspec.Struct):
    """One message of the outbox."""

    id: str
    kind: str
    orderId: str | None
    storeId: str | None
    to: str
    locale: str
    subject: str
    body: str
    status: str
    attempts: int
    lastError: str | None
    createdAt: str
    sentAt: str | None


def _message(row: Row) -> MailMessage:
    return MailMessage(id=row["id"], kind=row["kind"], orderId=row["order_id"],
                       storeId=row["store_id"], to=row["to_address"], locale=row["locale"],
                       subject=row["subject"], body=row["body"], status=row["status"],
                       attempts=int(row["attempts"]), lastError=row["last_error"],
                       createdAt=row["created_at"], sentAt=row["sent_at"])


def _key(row: Row) -> tuple[str, str]:
    return row["created_at"], row["id"]


async def list_mail(request: Request) -> Response:
    """The mail of the merchant's stores (?storeId= for one), newest first."""
    principal = await merchant_principal(request)
    db = request.app.state.db
    stores = await access.store_ids(db, principal)
    store_id = request.query_params.get("storeId")
    if store_id is not None:
        if store_id not in stores:
            raise not_found("store", store_id)
        stores = [store_id]
    page = read_page(request, key=(str, str))
    rows = await storage.for_stores(db, stores, page.limit + 1, offset=page.offset,
                                    key=page.key,
                                    backward=page.backward)
    total = await storage.count_for_stores(db, stores, COUNT_CAP + 1)
    kept, info = keyed(page, rows, _key, total_count(total))
    return json_response({"messages": [msgspec.to_builtins(_message(row)) for row in kept],
                          "pagination": info})


routes = [Route("/admin/mail", list_mail, methods=["GET"])]
