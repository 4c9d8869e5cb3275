"""Leases: which running turns a process may claim, and resuming a turn nobody drives."""

from __future__ import annotations

import os
import time

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.agent.events import event
from commerce_agent.agent.records import SessionRecord
from commerce_agent.agent.runner import HOST, owner_gone
from commerce_agent.agent.sessions import hash_secret, user_message
from commerce_agent.ids import new_id
from tests.support.agent_support import ndjson

pytestmark = pytest.mark.both_backends


def test_owner_gone() -> None:
    me = f"{HOST}:{os.getpid()}:aaaa"
    assert not owner_gone(me, me)
    assert owner_gone(f"{HOST}:{os.getpid()}:bbbb", me)  # an earlier life of this pid
    assert owner_gone(f"{HOST}:99999999:cccc", me)  # no such process
    assert not owner_gone(f"{HOST}:1:dddd", me)  # alive (init)
    assert not owner_gone("elsewhere:1234:eeee", me)  # another host: trust the lease
    assert owner_gone("garbage", me)


async def orphan(app: Starlette, owner: str, lease_until: float) -> str:
    """A session whose turn was started by `owner` and never finished."""
    record = SessionRecord(id=new_id("ses"), token_hash=hash_secret("ct_x"),
                           created_at="2026-01-01T00:00:00Z", agent="shopper", owner=owner,
                           lease_until=lease_until)
    await app.state.agent.journal.create(record, [event("session.started", {}),
                                                  event("agent.start"),
                                                  user_message(1, "hello")])
    return record.id


async def test_a_turn_with_an_expired_lease_is_resumed(app: Starlette,
                                                       client: httpx.AsyncClient) -> None:
    session_id = await orphan(app, "elsewhere:1234:eeee", time.time() - 1)
    await app.state.agent.runner.scan()
    await app.state.agent.runner.idle()
    events = ndjson((await client.get(f"/agent/v1/session/{session_id}/stream")).text)
    assert events[-1]["type"] == "session.waiting"
    assert [e["streamIndex"] for e in events] == list(range(len(events)))


async def test_a_live_lease_of_another_host_is_respected(app: Starlette) -> None:
    session_id = await orphan(app, "elsewhere:1234:eeee", time.time() + 60)
    await app.state.agent.runner.scan()
    record = await app.state.agent.journal.load(session_id)
    assert record.owner == "elsewhere:1234:eeee" and record.length == 3


async def test_a_dead_local_owner_is_taken_over_at_once(app: Starlette,
                                                        client: httpx.AsyncClient) -> None:
    session_id = await orphan(app, f"{HOST}:99999999:dead", time.time() + 60)
    await app.state.agent.runner.scan()
    await app.state.agent.runner.idle()
    events = ndjson((await client.get(f"/agent/v1/session/{session_id}/stream")).text)
    assert events[-1]["type"] == "session.waiting"
