"""Start the agent with the app: open the journal, build the agents, run the turn runner."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from starlette.applications import Starlette

from commerce_agent.agent.agents import build_agents
from commerce_agent.agent.journals import open_journal
from commerce_agent.agent.runner import new_owner
from commerce_agent.agent.sessions import Sessions
from commerce_agent.settings import Settings
from commerce_agent.tls import client_context


@asynccontextmanager
async def agent_worker(app: Starlette) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    journal = open_journal(settings.journal, app.state.db)
    await journal.open()
    try:
        async with httpx.AsyncClient(timeout=httpx.Timeout(120.0, connect=10.0),
                                     verify=client_context()) as http:
            sessions = Sessions(
                settings=settings, db=app.state.db, journal=journal,
                agents=build_agents(settings, http, pace=settings.agent_pace),
                owner=new_owner(), pay_to=app.state.pay_to,
                max_promotions=app.state.max_promotions, mount=settings.agent_mount)
            app.state.agent = sessions
            await sessions.runner.start()
            try:
                yield
            finally:
                await sessions.runner.stop()
    finally:
        await journal.close()
