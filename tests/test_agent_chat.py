"""`commerce-agent chat` against a live server, driven through its stdin and stdout."""

from __future__ import annotations

import asyncio
import os
import re
import sys

import httpx

from tests.agent_support import consent
from tests.live import LiveServer


class Terminal:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.output = ""

    async def until(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        async def read() -> re.Match[str]:
            while True:
                match = re.search(pattern, self.output)
                if match:
                    return match
                assert self.process.stdout is not None
                chunk = await self.process.stdout.read(4096)
                if not chunk:
                    raise AssertionError(f"chat exited; output so far:\n{self.output}")
                self.output += chunk.decode()

        return await asyncio.wait_for(read(), timeout)

    async def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()


async def test_chat_streams_replies_and_waits_for_authorization(live_server: LiveServer) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "commerce_agent", "chat", "--url", live_server.url,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    terminal = Terminal(process)
    try:
        await terminal.until(r"Chatting with shopper \(scripted\)")
        await terminal.until(r"you> ")
        await terminal.type("find a ceramic mug under $20")
        await terminal.until(r"→ search_products")
        await terminal.until(r"agent> .*Limited Edition Glaze Mug")
        await terminal.until(r"you> [\s\S]*you> ")
        await terminal.type("add two to my cart")
        link = (await terminal.until(r"(http://\S+/consent/\S+)")).group(1)
        async with httpx.AsyncClient(timeout=30) as http:
            approved = await consent(http, link, email="bob@example.com",
                                     password="bob-demo-pass")
        assert approved.status_code == 200
        await terminal.until(r"commerce connection authorized")
        await terminal.until(r"Added 2 × Limited Edition Glaze Mug")
        await terminal.type("/quit")
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
