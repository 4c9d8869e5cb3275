"""How an order looks to its owner: the stored document plus actions computed from state.

Each action appears exactly when the route it points at would accept it: both ask the same
pure functions of `rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from commerce_agent.commerce.orders import model, rules
from commerce_agent.commerce.orders.model import SUBSCRIPTION, MerchantAction
from commerce_agent.commerce.pagination import Page, keyed, total_count
from commerce_agent.db import Row


def _action(action_id: str, href: str, title: str, rel: str | None = None,
            method: str = "POST") -> dict[str, Any]:
    action = {"id": action_id, "href": href, "method": method, "title": title}
    if rel:
        action["rel"] = rel
    return action


def actions(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """What the owner may do next; an action appears only when its route would accept it."""
    base = f"/orders/{doc['id']}"
    found = []
    if rules.cancel_problem(doc) is None:
        found.append(_action("cancel", f"{base}/cancel", "Cancel the order", "cancel"))
    if rules.rating_problem(doc) is None:
        found.append(_action("rate_order", f"{base}/ratings", "Rate this order", "create"))
    if rules.tip_problem(doc) is None:
        found.append(_action("add_tip", f"{base}/tips", "Add a tip", "create"))
    if rules.return_problem(doc) is None:
        found.append(_action("initiate_return", "/returns", "Return items", "create"))
    if SUBSCRIPTION in doc.get("metadata", {}):
        for action, title in (("pause", "Pause the subscription"),
                              ("resume", "Resume the subscription"),
                              ("cancel", "Cancel the subscription")):
            if rules.subscription_problem(doc, action) is None:
                found.append(_action(f"{action}_subscription",
                                     f"{base}/subscription/{action}", title))
    return found


def render(doc: dict[str, Any]) -> dict[str, Any]:
    return {**doc, "actions": actions(doc)}


_SHIP_FIELDS = ["carrier", "trackingNumber", "trackingUrl"]
_NEXT_TITLES = {"processing": "Start processing", "in_transit": "Mark in transit",
                "completed": "Mark completed"}


def merchant_actions(doc: dict[str, Any]) -> list[MerchantAction]:
    """What the store's merchant may do next (`rules.merchant_actions`), with the admin route
    of each."""
    base = f"/admin/orders/{doc['id']}"
    found = []
    for action in rules.merchant_actions(doc):
        if action == "ship":
            found.append(MerchantAction("ship", f"{base}/advance", "Ship with a tracking number",
                                        to="in_transit", fields=_SHIP_FIELDS))
        elif action == "ready_for_pickup":
            found.append(MerchantAction("ready_for_pickup", f"{base}/ready-for-pickup",
                                        "Ready for pickup"))
        elif action == "advance":
            to = rules.merchant_next_status(doc)
            title = "Mark delivered" if doc.get("status") == "in_transit" \
                else _NEXT_TITLES.get(str(to), "Move on")
            found.append(MerchantAction("advance", f"{base}/advance", title, to=to))
        else:
            found.append(MerchantAction("cancel", f"{base}/cancel", "Cancel and refund",
                                        fields=["reason"]))
    return found


def render_for_merchant(doc: dict[str, Any]) -> dict[str, Any]:
    """The order as the admin API answers it: `render` plus `merchantActions`."""
    return {**render(doc),
            "merchantActions": [msgspec.to_builtins(a) for a in merchant_actions(doc)]}
def listing(page: Page, rows: Sequence[Row], total: int, *, merchant: bool = False
            ) -> dict[str, Any]:
    """A page of stored orders as GET /orders and GET /admin/orders answer it, from up to
    `page.limit + 1` rows read newest first (`created_at`, `id`): each rendered (with its
    `merchantActions` for the admin API), and the pagination (`total`: counted up to
    COUNT_CAP + 1)."""
    kept, info = keyed(page, rows, _order_key, total_count(total))
    shown = render_for_merchant if merchant else render
    return {"orders": [shown(model.decode(row["doc"])) for row in kept], "pagination": info}


def _order_key(row: Row) -> tuple[str, str]:
    return row["created_at"], row["id"]
