"""Order mail, queued in the transaction of the change it reports (table mail_messages).

`order_changed` is called by commerce/orders/events.py beside the webhook outbox: a placed
order gives the customer a confirmation and each merchant of the store a new-order note; a
move to in_transit (shipped), a kitchen order turning ready (pickup), a cancellation and each
new refund give the customer a note. Subject and body come from the i18n catalogs
(`mail.<kind>.subject` / `.body`) in the recipient's saved language (English otherwise);
amounts come from the order document. A sender delivers pending rows when SMTP is set;
without it they stay readable in the outbox.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from commerce_agent import clock
from commerce_agent.commerce.orders.model import (
    CANCELLED,
    DETAILED_STATUS,
    IN_TRANSIT,
    KITCHEN_STATUS,
)
from commerce_agent.commerce.storage import mail as storage
from commerce_agent.db import Row, Transaction
from commerce_agent.i18n.messages import translate
from commerce_agent.i18n.negotiation import DEFAULT_LOCALE, choose
from commerce_agent.ids import new_id

# Status the order moved to -> the kind of mail the customer gets.
_STATUS_MAIL = {IN_TRANSIT: "order_shipped", CANCELLED: "order_cancelled"}
_READY = frozenset({"ready", "ready_for_pickup"})


def _ready(order: dict[str, Any]) -> bool:
    """Whether the order waits at the counter (admin ready-for-pickup, or the kitchen's)."""
    metadata = order.get("metadata", {})
    kitchen, detailed = metadata.get(KITCHEN_STATUS), metadata.get(DETAILED_STATUS)
    return ((isinstance(kitchen, dict) and kitchen.get("status") in _READY)
            or (isinstance(detailed, dict) and detailed.get("title") == "Ready for pickup"))


def customer_kinds(previous: dict[str, Any] | None, current: dict[str, Any]) -> list[str]:
    """The mails the customer gets for this change (the merchant note aside)."""
    if previous is None:
        return ["order_placed"]
    kinds = []
    if previous["status"] != current["status"] and current["status"] in _STATUS_MAIL:
        kinds.append(_STATUS_MAIL[current["status"]])
    if _ready(current) and not _ready(previous):
        kinds.append("order_ready")
    return kinds


def _locale(profile: Any) -> str:
    try:
        language = json.loads(profile or "{}").get("preferences", {}).get("language")
    except (ValueError, AttributeError):
        language = None
    return choose(language) if isinstance(language, str) else DEFAULT_LOCALE


def render(kind: str, locale: str, params: dict[str, Any]) -> tuple[str, str]:
    """Subject and body of a `kind` mail in `locale` (English when the catalog lacks it)."""
    parts = []
    for part in ("subject", "body"):
        key = f"mail.{kind}.{part}"
        text = translate(locale, key, params) or translate(DEFAULT_LOCALE, key, params)
        parts.append(text or key)
    return parts[0], parts[1]


async def _queue(tx: Transaction, kind: str, person: Row | None, order: dict[str, Any],
                 params: dict[str, Any]) -> None:
    """Queue a `kind` mail to `person` (a row of id, email, profile; None: nobody)."""
    if person is None or not person["email"]:
        return
    locale = _locale(person["profile"])
    subject, body = render(kind, locale, params)
    await storage.add(tx, {"id": new_id("mail"), "kind": kind, "order_id": order["id"],
                           "store_id": order.get("storeId"), "recipient_id": person["id"],
                           "to_address": str(person["email"]), "locale": locale,
                           "subject": subject, "body": body, "at": clock.now_iso()})


def needs_people(previous: dict[str, Any] | None, current: dict[str, Any],
                 refunds: list[dict[str, Any]]) -> bool:
    """Whether this change sends any mail (then `order_changed` needs its people)."""
    return previous is None or bool(refunds) or bool(customer_kinds(previous, current))


async def order_changed(tx: Transaction, owner_id: str, people: Sequence[Row],
                        previous: dict[str, Any] | None, current: dict[str, Any],
                        refunds: list[dict[str, Any]]) -> None:
    """Queue the mails for an order going from `previous` to `current` (both rendered).
    `people`: the customer and the store's merchants, with their addresses and profiles
    (storage.order_events.audience)."""
    customer = next((person for person in people if person["id"] == owner_id), None)
    params = {"orderId": current["id"], "total": current.get("total") or {},
              "storeId": current.get("storeId") or ""}
    for kind in customer_kinds(previous, current):
        await _queue(tx, kind, customer, current, params)
    for refund in refunds:
        amount = refund.get("amount") or current.get("total") or {}
        await _queue(tx, "order_refunded", customer, current, {**params, "amount": amount})
    if previous is None:
        for merchant in people:
            if merchant["merchant"]:
                await _queue(tx, "order_new", merchant, current, params)
