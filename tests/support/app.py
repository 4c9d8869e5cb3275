"""The app under test, in process: the media type, Alice's token, and another app on the same
settings (the fixtures in tests/conftest.py build the first one)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import msgspec
from starlette.applications import Starlette

from commerce_agent.app import create_app
from commerce_agent.auth.tokens import mint_token
from commerce_agent.settings import Settings

MEDIA = "application/commerce+json; version=1.0"



async def token_for(app: Starlette, user_id: str) -> str:
    async with app.state.db.transaction() as tx:
        return await mint_token(tx, user_id, "test")



@asynccontextmanager
async def running(settings: Settings, **changes: Any
                  ) -> AsyncIterator[tuple[Starlette, httpx.AsyncClient, dict[str, str]]]:
    """Another app on the same settings (and database file), with Alice's headers."""
    application = create_app(msgspec.structs.replace(settings, **changes))
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test",
                                     headers={"Accept": MEDIA}) as http:
            token = await token_for(application, "user_alice")
            yield application, http, {"Authorization": f"Bearer {token}"}
