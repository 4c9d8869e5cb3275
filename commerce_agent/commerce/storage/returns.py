"""SQL for returns."""

from __future__ import annotations

from typing import Any

from commerce_agent.commerce.storage.documents import document_text
from commerce_agent.db import Database, Row, Transaction, locking


async def insert(tx: Transaction, owner_id: str, doc: dict[str, Any]) -> None:
    await tx.execute(
        "INSERT INTO returns (id, order_id, owner_id, status, doc, created_at, updated_at) "
        "VALUES (:id, :order, :owner, :status, :doc, :at, :at)",
        {"id": doc["id"], "order": doc["orderId"], "owner": owner_id, "status": doc["status"],
         "doc": document_text(doc), "at": doc["createdAt"]})


async def save(tx: Transaction, doc: dict[str, Any]) -> None:
    await tx.execute(
        "UPDATE returns SET status = :status, doc = :doc, updated_at = :at WHERE id = :id",
        {"status": doc["status"], "doc": document_text(doc), "at": doc["updatedAt"],
         "id": doc["id"]})


async def get(db: Database | Transaction, return_id: str) -> Row | None:
    """The return; in a write its row stays locked until the write ends (two moves of one
    return take turns: it is restocked and refunded once)."""
    return await db.fetch_one(
        "SELECT id, owner_id, order_id, status, doc FROM returns WHERE id = :id"
        + locking(db), {"id": return_id})


async def for_merchant(db: Database, status: str | None, limit: int) -> list[Row]:
    return await db.fetch_all(
        "SELECT id, owner_id, order_id, status, doc FROM returns "
        "WHERE (CAST(:status AS TEXT) IS NULL OR status = :status) "
        "ORDER BY created_at DESC, id DESC LIMIT :limit", {"status": status, "limit": limit})
