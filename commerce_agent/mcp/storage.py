"""SQL of the MCP front end: confirmation quotes (migration 0011). A quote is read only by its
owner: another user's quote id reads as missing."""

from __future__ import annotations

import json
from typing import Any

from commerce_agent import clock
from commerce_agent.db import Database, Row, Transaction
from commerce_agent.ids import new_id


async def insert_quote(tx: Transaction, user_id: str, tool: str, args: dict[str, Any],
                       fingerprint: str, body: dict[str, Any], lifetime: float) -> str:
    quote_id = new_id("quote")
    await tx.execute(
        "INSERT INTO mcp_quotes (id, user_id, tool, args, fingerprint, body, created_at, "
        "expires_at) VALUES (:id, :user, :tool, :args, :print, :body, :at, :expires)",
        {"id": quote_id, "user": user_id, "tool": tool, "args": json.dumps(args),
         "print": fingerprint, "body": json.dumps(body), "at": clock.now_iso(),
         "expires": clock.later_iso(lifetime)})
    return quote_id


async def get_quote(db: Database | Transaction, quote_id: str, user_id: str
                    ) -> Row | None:
    return await db.fetch_one(
        "SELECT id, tool, args, fingerprint, body, expires_at FROM mcp_quotes "
        "WHERE id = :id AND user_id = :user", {"id": quote_id, "user": user_id})
