"""`GET /health` asks the database (200 when it answers) and `GET /health/live` does not; both
are public and never cached. Their 503 when the database cannot answer is proven live, on a
PostgreSQL cluster the test stops and freezes (test_database_outage_live.py)."""

from __future__ import annotations

import httpx
import pytest
from starlette.applications import Starlette

pytestmark = pytest.mark.both_backends


async def test_readiness_asks_the_database(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert response.headers["cache-control"] == "no-store"


async def test_liveness_answers_without_the_database(app: Starlette,
                                                     client: httpx.AsyncClient) -> None:
    await app.state.db.close()
    response = await client.get("/health/live")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
