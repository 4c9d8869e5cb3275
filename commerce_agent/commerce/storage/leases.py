"""Leasing outbox rows (mail messages, webhook deliveries) to the sender that claimed them."""

from __future__ import annotations

from collections.abc import Sequence

from commerce_agent.db import Row, Transaction
from commerce_agent.db.placeholders import named_list


async def lease(tx: Transaction, table: str, rows: Sequence[Row], until: str) -> None:
    """Mark the claimed `rows` (by their `id`) of `table` as leased until `until`, so that no
    other sender claims them before then."""
    if not rows:
        return
    placeholders, params = named_list("r", [str(row["id"]) for row in rows])
    await tx.execute(f"UPDATE {table} SET locked_until = :lease WHERE id IN ({placeholders})",
                     {**params, "lease": until})
