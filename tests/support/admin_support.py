"""Merchant accounts for the admin API tests: one runs the ceramics store, one the ebooks."""

from __future__ import annotations

import json
from typing import Any

import httpx
from starlette.applications import Starlette

from commerce_agent.commerce.shop import merchants
from tests.support.app import token_for

CERAMICS = "store_ceramics"
EBOOKS = "store_ebooks"


async def merchant_headers(app: Starlette, email: str, store_id: str) -> dict[str, str]:
    merchant = await merchants.create(app.state.db, email, [store_id],
                                      password="merchant-pass-123")
    return {"Authorization": f"Bearer {await token_for(app, merchant.user_id)}"}


async def webhook_events(app: Starlette, event: str) -> list[dict[str, Any]]:
    """Bodies of the webhook events of that name queued so far."""
    rows = await app.state.db.fetch_all(
        "SELECT body FROM webhook_events WHERE event = :event ORDER BY created_at, id",
        {"event": event})
    return [json.loads(row["body"]) for row in rows]


async def subscribe(client: httpx.AsyncClient, headers: dict[str, str]) -> None:
    response = await client.post("/webhooks", headers=headers, json={
        "url": "http://127.0.0.1:9/hook",
        "events": ["product.created", "product.updated", "inventory.updated"]})
    assert response.status_code == 201, response.text
