"""Every change to an order goes through `order_changed`, inside the changing transaction.

It is the single seam between the order lifecycle and what listens to it: the stored JSON
Patch journal behind GET /orders/{id}/updates and the webhook outbox. Both rows are written in
the same transaction as the change; live listeners are told only after commit.
"""

from __future__ import annotations

from typing import Any

from commerce_agent.db import Transaction


async def order_changed(tx: Transaction, owner_id: str, before: dict[str, Any] | None,
                        after: dict[str, Any]) -> None:
    """Record that an order went from `before` (None when just created) to `after`."""
