"""Returns (GET /console/returns): the returns of the merchant's stores and the decisions each
is open to now (approve or reject a request, receive the goods, refund), as forms."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.responses import Response

from commerce_agent.commerce.admin import access
from commerce_agent.commerce.services.returns import handling
from commerce_agent.commerce.shop import orders as service
from commerce_agent.commerce.storage import merchant_orders as storage
from commerce_agent.db import Transaction
from commerce_agent.errors import CommerceError
from commerce_agent.web import paths
from commerce_agent.web.console.base import Console, form_endpoint, page_endpoint, submit

PAGE = "console-returns"
SHOWN = 50
TITLES = {"approve": "Approve", "reject": "Reject", "receive": "Mark received",
          "refund": "Refund"}


async def _returns(console: Console, status: int = 200, **extra: Any) -> Response:
    """Returns of the merchant's stores (?store=, ?status=)."""
    wanted_store, wanted_status, stores = console.filters(handling.STATUSES)
    rows, total = await storage.returns(console.db, stores, wanted_status, SHOWN, 0)
    found = []
    for row in rows:
        ret = msgspec.json.decode(row["doc"])
        found.append({**ret, "decisions": [(action, TITLES[action])
                                           for action in service.return_actions(ret)]})
    return console.show("console/returns.html", status, returns=found, total=total,
                        statuses=handling.STATUSES, chosen_store=wanted_store or "",
                        chosen_status=wanted_status or "", **extra)


returns_page = page_endpoint(PAGE)(_returns)


@form_endpoint(PAGE)
async def return_action(console: Console) -> Response:
    """POST /console/returns/{id}/{action}: approve, reject, receive or refund."""
    return_id = console.request.path_params["return_id"][:100]
    action = console.request.path_params["action"]

    async def work(tx: Transaction) -> str:
        await access.own_return(tx, console.principal, return_id)
        if action not in service.RETURN_ACTIONS:
            raise CommerceError(404, "not_found", "No such action.")
        await service.advance_return(tx, return_id, action)
        return f"{TITLES[action]}: {return_id}."

    return await submit(console, work, f"{action}-{return_id}", {}, _returns,
                        console.back(paths.CONSOLE_RETURNS) + f"#return-{return_id}")
