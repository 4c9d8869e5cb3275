"""SQL for uploaded images (table images, migration 0013)."""

from __future__ import annotations

from commerce_agent.db import Database, Row, Transaction


async def insert_image(tx: Transaction, image_id: str, store_id: str, media_type: str,
                       data: bytes, created_at: str) -> None:
    await tx.execute(
        "INSERT INTO images (id, store_id, media_type, data, created_at) "
        "VALUES (:id, :store, :media, :data, :at)",
        {"id": image_id, "store": store_id, "media": media_type, "data": data,
         "at": created_at})


async def get_image(db: Database, image_id: str) -> Row | None:
    return await db.fetch_one("SELECT media_type, data FROM images WHERE id = :id",
                              {"id": image_id})
