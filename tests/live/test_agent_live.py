"""Against real server processes: following streams, two servers on one journal, a client that
reconnects, and turns that survive a SIGKILL of the server running them."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import httpx
import pytest

from commerce_agent.client import AgentClient, Session
from tests.support.agent_support import consent, drop_redis_keys, journal_spec, ndjson
from tests.support.live import LiveServer, start_live_server, user_token

MOUNT = "/agent/v1"
ADDRESS = {"address": "1 Main St, Springfield, US", "countryCode": "US"}


def serve(db_path: str, *args: str, port: int | None = None) -> LiveServer:
    return start_live_server(db_path, ["--no-simulate", *args], port=port)


async def full_journal(url: str, session: Session) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(timeout=30) as http:
        response = await http.get(f"{url}{MOUNT}/session/{session.session_id}/stream")
    return ndjson(response.text)


def contiguous(events: list[dict[str, Any]]) -> bool:
    return [event["streamIndex"] for event in events] == list(range(len(events)))


async def test_a_following_stream_stays_open_across_turns(
        servers: list[LiveServer], tmp_path: os.PathLike[str]) -> None:
    server = serve(os.path.join(tmp_path, "follow.db"))
    servers.append(server)
    async with AgentClient(server.url) as client:
        session = await client.create("hello")
        watcher = Session(session.session_id, session.continuation_token)
        seen: list[dict[str, Any]] = []

        async def follow() -> None:
            async for event in client.events(watcher, follow=True):
                seen.append(event)
                if sum(e["type"] == "session.waiting" for e in seen) == 2:
                    return

        task = asyncio.create_task(follow())
        first = await client.until_pause(session)
        await client.send(session, "find a teapot")
        second = await client.until_pause(session)
        await asyncio.wait_for(task, 30)
    assert seen == first + second and contiguous(seen)


@pytest.mark.parametrize("kind", ["sqlite", "file", "redis"])
async def test_a_stream_on_one_server_follows_a_turn_on_another(
        kind: str, servers: list[LiveServer], tmp_path: os.PathLike[str]) -> None:
    spec = journal_spec(kind, tmp_path)
    db_path = os.path.join(tmp_path, "shared.db")
    one = serve(db_path, "--journal", spec, "--agent-pace", "0.05")
    servers.append(one)
    two = serve(db_path, "--journal", spec)
    servers.append(two)
    try:
        async with AgentClient(one.url) as on_one, AgentClient(two.url) as on_two:
            session = await on_one.create("find a ceramic mug under $20")
            elsewhere = Session(session.session_id, session.continuation_token)
            mirrored, live = await asyncio.wait_for(asyncio.gather(
                on_two.until_pause(elsewhere), on_one.until_pause(session)), 60)
            assert mirrored == live and contiguous(live)
            assert live[-1]["type"] == "session.waiting"
            # A follow-up sent to the other server continues the same session.
            await on_two.send(elsewhere, "hello")
            again = await asyncio.wait_for(on_one.until_pause(session), 60)
            assert again[0]["streamIndex"] == len(live) and again[-1]["type"] == \
                "session.waiting"
    finally:
        if spec.startswith("redis"):
            await drop_redis_keys(spec)


async def test_a_reader_that_disconnects_resumes_without_loss_or_duplicates(
        servers: list[LiveServer], tmp_path: os.PathLike[str]) -> None:
    server = serve(os.path.join(tmp_path, "resume.db"), "--agent-pace", "0.02")
    servers.append(server)
    async with AgentClient(server.url) as client:
        session = await client.create("find a ceramic mug under $20")
        pieces: list[dict[str, Any]] = []
        while not pieces or pieces[-1]["type"] != "session.waiting":
            async with httpx.AsyncClient(timeout=30) as http, http.stream(
                    "GET", f"{server.url}{MOUNT}/session/{session.session_id}/stream",
                    params={"startIndex": len(pieces)}) as response:
                async for line in response.aiter_lines():
                    if line.strip():
                        pieces.append(ndjson(line)[0])
                        if len(pieces) % 3 == 0:
                            break  # drop the connection mid-turn
        assert pieces == await full_journal(server.url, session) and contiguous(pieces)


async def test_a_turn_killed_mid_reply_resumes_after_restart(
        servers: list[LiveServer], tmp_path: os.PathLike[str]) -> None:
    db_path = os.path.join(tmp_path, "crash.db")
    server = serve(db_path, "--agent-pace", "0.15")
    servers.append(server)
    async with AgentClient(server.url, retries=60) as client:
        session = await client.create("find a ceramic mug under $20")
        before: list[dict[str, Any]] = []
        async for event in client.events(session):
            before.append(event)
            if sum(e["type"] == "agent.content.delta" for e in before) == 2:
                break
        server.kill()
        restarted = serve(db_path, "--agent-pace", "0.15", port=server.port)
        servers.append(restarted)
        after = await asyncio.wait_for(client.until_pause(session), 60)
        journal = await full_journal(restarted.url, session)
    assert before + after == journal and contiguous(journal)
    assert journal[-1]["type"] == "session.waiting"
    text = "".join(e["data"]["text"] for e in journal if e["type"] == "agent.content.delta")
    completed = next(e for e in journal if e["type"] == "message.completed")["data"]["content"]
    assert text == completed and text.count("I found") == 1


async def approve(url: str) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        response = await consent(http, url)
        assert response.status_code == 200, response.text


async def cart_ready(client: AgentClient) -> Session:
    session = await client.create("find a ceramic mug under $20",
                                  client_context={"deliveryAddress": ADDRESS})
    await client.until_pause(session)
    await client.send(session, "add two to my cart")
    parked = await client.until_pause(session)
    assert parked[-1]["type"] == "authorization.required"
    await approve(parked[-1]["data"]["authUrl"])
    assert (await client.until_pause(session))[-1]["type"] == "session.waiting"
    return session


@pytest.mark.parametrize("moment", ["input.resolved", "agent.tool_result"])
async def test_a_checkout_killed_mid_turn_never_buys_twice(
        moment: str, servers: list[LiveServer], tmp_path: os.PathLike[str]) -> None:
    db_path = os.path.join(tmp_path, f"checkout-{moment}.db")
    server = serve(db_path, "--agent-pace", "0.1")
    servers.append(server)
    async with AgentClient(server.url, retries=60) as client:
        session = await cart_ready(client)
        await client.send(session, "check out")
        asked = await client.until_pause(session)
        assert asked[-1]["type"] == "input.requested"
        await client.approve(session, asked[-1]["data"]["requestId"])
        async for event in client.events(session):
            if event["type"] == moment:
                break
        server.kill()
        restarted = serve(db_path, "--agent-pace", "0.1", port=server.port)
        servers.append(restarted)
        rest = await asyncio.wait_for(client.until_pause(session), 60)
        journal = await full_journal(restarted.url, session)
    assert contiguous(journal) and rest[-1]["type"] == "session.waiting"
    token = user_token(db_path)
    async with httpx.AsyncClient(timeout=30) as http:
        orders = (await http.get(f"{restarted.url}/orders",
                                 headers={"Authorization": f"Bearer {token}"})).json()
    assert len(orders["orders"]) == 1
    order = orders["orders"][0]
    placed = [e for e in journal if e["type"] == "agent.tool_result"
              and e["data"]["tool"]["name"] == "connection__commerce__place_order"]
    assert len(placed) == 1 and placed[0]["data"]["result"]["orderId"] == order["id"]
    assert order["total"]["amount"] == "44.50"
