"""How an order looks to its owner: the stored document plus actions computed from state.

Each action appears exactly when the route it points at would accept it: both ask the same
pure functions of `rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce_agent.commerce.orders import model, rules
from commerce_agent.commerce.orders.model import SUBSCRIPTION
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


def listing(page: Page, rows: Sequence[Row], total: int) -> dict[str, Any]:
    """A page of stored orders as GET /orders and GET /admin/orders answer it, from up to
    `page.limit + 1` rows read newest first (`created_at`, `id`): each rendered, and the
    pagination (`total`: counted up to COUNT_CAP + 1)."""
    kept, info = keyed(page, rows, _order_key, total_count(total))
    return {"orders": [render(model.decode(row["doc"])) for row in kept], "pagination": info}


def _order_key(row: Row) -> tuple[str, str]:
    return row["created_at"], row["id"]
