"""SQL the agent needs outside its journal: the granted user. (Tool calls that change state
are guarded by commerce/idempotency.py, as the Commerce API's writes are.)"""

from __future__ import annotations

import sqlite3

from commerce_agent.db import Database


async def user_by_id(db: Database, user_id: str) -> sqlite3.Row | None:
    return await db.fetch_one("SELECT id, email, name FROM users WHERE id = :id",
                              {"id": user_id})
