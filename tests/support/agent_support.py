"""Helpers for the agent tests: journals of every backend, Redis availability, event reading."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from commerce_agent.agent.journals import Journal, open_journal
from commerce_agent.auth.tokens import Principal
from commerce_agent.db import database_for
from commerce_agent.operations import ToolContext, all_tools

JOURNALS = ["memory", "file", "sqlite", "redis"]
REDIS_URL = os.environ.get("COMMERCE_AGENT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def redis_available() -> bool:
    try:
        import redis  # noqa: F401
    except ImportError:
        return False
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def need_redis() -> None:
    """Skip without Redis, except in CI where a missing Redis is a failure."""
    if redis_available():
        return
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true but no Redis answers on 127.0.0.1:6379 (or `redis` is missing)")
    pytest.skip("Redis is not running on 127.0.0.1:6379 (the redis journal tests need it)")


def journal_spec(kind: str, tmp_path: os.PathLike[str], prefix: str | None = None) -> str:
    if kind == "file":
        return f"file:{os.path.join(tmp_path, 'journal')}"
    if kind == "redis":
        need_redis()
        return f"{REDIS_URL}?prefix={prefix or 'test-' + secrets.token_hex(6) + ':'}"
    return kind


async def drop_redis_keys(spec: str) -> None:
    import redis.asyncio as aioredis

    from commerce_agent.agent.journals.redis import split_url

    url, prefix = split_url(spec)
    client = aioredis.from_url(url)
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}*")]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


@asynccontextmanager
async def opened_journal(spec: str, db_path: str) -> AsyncIterator[Journal]:
    database = database_for(db_path, synchronous="NORMAL")
    await database.open()
    journal = open_journal(spec, database)
    await journal.open()
    try:
        yield journal
    finally:
        await journal.close()
        await database.close()


def parse(lines: list[bytes]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines if line.strip()]


def ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


async def consent(http: httpx.AsyncClient, url: str, decision: str = "approve",
                  email: str = "alice@example.com",
                  password: str = "alice-demo-pass") -> httpx.Response:  # noqa: S107
    """Answer a consent page as a browser does: GET the form, POST it with its CSRF field."""
    page = await http.get(url)
    assert page.status_code == 200, page.text
    assert "<form method=\"post\"" in page.text and "<script" not in page.text
    match = _CSRF.search(page.text)
    assert match is not None
    data = {"csrf_token": match.group(1)}
    if decision == "decline":
        data["decision"] = "decline"
    else:
        data.update(email=email, password=password)
    return await http.post(url, data=data)


ALICE = Principal("user_alice", "alice@example.com", "Alice Martin")



def tool(short_name: str) -> Any:
    return next(t for t in all_tools() if t.short_name == short_name)



def context(app: Starlette, principal: Principal | None, key: str) -> ToolContext:
    state = app.state
    return ToolContext(state.db, state.settings, state.pay_to, principal, key)



async def run(app: Starlette, name: str, args: dict[str, Any],
              principal: Principal | None = ALICE, key: str | None = None) -> Any:
    chosen = tool(name)
    chosen.check_args(args)
    return await chosen.run(context(app, principal, key or f"agent-test-{name}-{args}"), args)
