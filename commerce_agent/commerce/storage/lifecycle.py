"""SQL for the order lifecycle: orders by id, simulator jobs and booked time slots."""

from __future__ import annotations

from typing import Any

import msgspec

from commerce_agent.commerce.storage import catalog
from commerce_agent.commerce.storage.documents import document_text
from commerce_agent.db import Database, Row, Transaction, locking


async def order_by_id(db: Database | Transaction, order_id: str) -> Row | None:
    """An order whoever owns it (for the simulator and the merchant CLI). In a write, its row
    stays locked until the write ends: changes to one order take turns from their read on,
    and so do the numbers of its events (order_events.append)."""
    return await db.fetch_one(
        "SELECT id, owner_id, status, doc FROM orders WHERE id = :id" + locking(db),
        {"id": order_id})


async def orders_for_merchant(db: Database, status: str | None, limit: int
                              ) -> list[Row]:
    return await db.fetch_all(
        "SELECT id, owner_id, store_id, status, doc, created_at FROM orders "
        "WHERE (CAST(:status AS TEXT) IS NULL OR status = :status) "
        "ORDER BY created_at DESC, id DESC LIMIT :limit", {"status": status, "limit": limit})


async def schedule(tx: Transaction, order_id: str, step: int, due_at: str | None) -> None:
    """The simulator's next step of the order, when its store is simulated (stores.simulate:
    the sample stores, or as the merchant set it); a real shop's orders get no job."""
    await tx.defer(
        "INSERT INTO fulfillment_jobs (order_id, step, due_at) "
        "SELECT orders.id, :step, :due FROM orders JOIN stores ON stores.id = orders.store_id "
        "WHERE orders.id = :id AND stores.simulate = 1 "
        "ON CONFLICT (order_id) DO UPDATE SET step = excluded.step, due_at = excluded.due_at",
        {"id": order_id, "step": step, "due": due_at})


async def set_simulated(tx: Transaction, store_id: str, simulated: bool) -> None:
    """Whether the simulator moves the store's new orders."""
    await tx.execute("UPDATE stores SET simulate = :on WHERE id = :id",
                     {"on": int(simulated), "id": store_id})


async def is_simulated(db: Database | Transaction, store_id: str) -> bool:
    row = await db.fetch_one("SELECT simulate FROM stores WHERE id = :id", {"id": store_id})
    return bool(row and row["simulate"])


async def unschedule(tx: Transaction, order_id: str) -> None:
    await tx.execute("DELETE FROM fulfillment_jobs WHERE order_id = :id", {"id": order_id})


async def job(db: Database | Transaction, order_id: str) -> Row | None:
    return await db.fetch_one(
        "SELECT order_id, step, due_at FROM fulfillment_jobs WHERE order_id = :id",
        {"id": order_id})


async def due_jobs(db: Database, now: str, limit: int) -> list[Row]:
    return await db.fetch_all(
        "SELECT order_id, step, due_at FROM fulfillment_jobs "
        "WHERE due_at IS NULL OR due_at <= :now ORDER BY due_at NULLS FIRST LIMIT :limit",
        {"now": now, "limit": limit})


async def next_due(db: Database) -> str | None:
    """The earliest due time among timed jobs (untimed ones are picked up by due_jobs)."""
    row = await db.fetch_one("SELECT MIN(due_at) AS due FROM fulfillment_jobs")
    return None if row is None or row["due"] is None else str(row["due"])


async def book_slot(tx: Transaction, booking: dict[str, Any]) -> bool:
    """Book one slot; False when someone already holds it."""
    changed = await tx.execute(
        "INSERT INTO slot_bookings (item_id, slot_id, order_id, owner_id, created_at) "
        "VALUES (:item, :slot, :order, :owner, :at) ON CONFLICT DO NOTHING", booking)
    return changed > 0


async def release_slots(tx: Transaction, order_id: str) -> list[Row]:
    rows = await tx.fetch_all(
        "SELECT item_id, slot_id FROM slot_bookings WHERE order_id = :order",
        {"order": order_id})
    await tx.execute("DELETE FROM slot_bookings WHERE order_id = :order", {"order": order_id})
    return rows


async def item_doc(tx: Transaction, item_id: str) -> dict[str, Any] | None:
    row = await tx.fetch_one("SELECT doc FROM items WHERE id = :id", {"id": item_id})
    return None if row is None else dict(msgspec.json.decode(row["doc"]))


async def save_item_doc(tx: Transaction, item_id: str, doc: dict[str, Any]) -> None:
    await tx.execute("UPDATE items SET doc = :doc WHERE id = :id",
                     {"doc": document_text(doc),
                      "id": item_id})
    tx.notify(catalog.CHANGED)

