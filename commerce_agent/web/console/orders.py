"""The orders board (GET /console): the orders of the merchant's stores, newest first, each
with exactly the actions `orders/rules.merchant_actions` allows it now, as forms (ship with a
tracking number, ready for pickup, move on, cancel with a refund)."""

from __future__ import annotations

from typing import Any, get_args

from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.orders import lifecycle, model, rules
from commerce_agent.commerce.orders import view as order_view
from commerce_agent.commerce.orders.model import STATUSES, MerchantActionId
from commerce_agent.commerce.shop import orders as service
from commerce_agent.commerce.storage import merchant_orders as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError
from commerce_agent.web import paths
from commerce_agent.web.console.base import (
    Console,
    form_endpoint,
    page_endpoint,
    submit,
    typed,
)

SHOWN = 50
PAGE = "console-orders"
# The JSON pointers of a refused action → the form field they are about.
FIELDS = {"/carrier": "carrier", "/trackingNumber": "trackingNumber",
          "/trackingUrl": "trackingUrl", "/reason": "reason"}


async def _board(console: Console, status: int = 200, **extra: Any) -> Response:
    """The orders board: every order of the merchant's stores (?store=, ?status=)."""
    wanted_store, wanted_status, stores = console.filters(STATUSES)
    rows = await storage.orders(console.db, stores, wanted_status, SHOWN)
    total = await storage.count_orders(console.db, stores, wanted_status, 1001)
    orders = []
    for row in rows:
        doc = model.decode(row["doc"])
        orders.append({**order_view.render(doc),
                       "merchantActions": order_view.merchant_actions(doc)})
    return console.show("console/orders.html", status, statuses=STATUSES, orders=orders,
                        total=total, chosen_store=wanted_store or "",
                        chosen_status=wanted_status or "",
                        store_names={store["id"]: store["name"] for store in console.stores},
                        **extra)


orders_board = page_endpoint(PAGE)(_board)


@form_endpoint(PAGE)
async def order_action(console: Console) -> Response:
    """POST /console/orders/{id}/{action}: one of the order's merchant actions."""
    request = console.request
    order_id = request.path_params["order_id"][:100]
    action = request.path_params["action"]
    form = console.form
    base_url = request.app.state.settings.base_url.rstrip("/")

    async def work(tx: Transaction) -> str:
        await access.own_order(tx, console.principal, order_id)
        if action not in get_args(MerchantActionId):
            raise CommerceError(404, "not_found", "No such action.")
        _, doc = await lifecycle.load(tx, order_id)
        if action not in rules.merchant_actions(doc):
            raise CommerceError(409, "invalid_transition",
                                f"A {doc['status']} order cannot {action.replace('_', ' ')} "
                                "now; the board shows what it can do.",
                                params={"from": doc["status"], "to": action})
        if action == "ship":
            body = typed({key: form[key].strip() for key in ("carrier", "trackingNumber",
                                                               "trackingUrl")
                          if form.get(key, "").strip()}, service.AdvanceOrder)
            if body.trackingNumber is None:
                raise CommerceError(400, "bad_request", "A tracking number is required.",
                                    details=[{"type": "validation", "field": "/trackingNumber",
                                              "reason": "is required"}])
            await service.advance(tx, order_id, base_url, carrier=body.carrier,
                                  tracking_number=body.trackingNumber,
                                  tracking_url=body.trackingUrl)
            return f"Shipped {order_id} with tracking number {body.trackingNumber}."
        if action == "ready_for_pickup":
            await service.ready_for_pickup(tx, order_id)
            return f"{order_id} is ready for pickup; the customer is told."
        if action == "advance":
            after = await service.advance(tx, order_id, base_url,
                                          to=rules.merchant_next_status(doc))
            return f"{order_id} is now {str(after['status']).replace('_', ' ')}."
        reason = typed({"reason": form.get("reason", "").strip() or None},
                       service.CancelOrder).reason
        await service.cancel(tx, order_id, reason)
        return f"Cancelled {order_id}; the payment is refunded."

    return await submit(console, work, f"{action}-{order_id}", FIELDS, _board,
                        console.back(paths.CONSOLE) + f"#order-{order_id}")
