"""`commerce-agent chat`: against a live server through its stdin and stdout, and the `Chat`
loop itself (in-process where no stream has to follow, else against a live server)."""

from __future__ import annotations

import asyncio
import os
import queue
import re
import sys

import httpx
from starlette.applications import Starlette

from commerce_agent.agent.agents import Agent
from commerce_agent.agent.chat import Chat
from commerce_agent.agent.client import AgentClient
from commerce_agent.agent.models.scripted import ScriptedModel
from tests.support.agent_support import consent
from tests.support.live import LiveServer, user_token


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


class Keyboard:
    """The chat's terminal: lines typed by the test, everything written (prompts included)."""

    def __init__(self, *lines: str) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        for line in lines:
            self.lines.put(line)
        self.output: list[str] = []

    def read(self, prompt: str) -> str:
        self.output.append(prompt)
        try:
            return self.lines.get(timeout=60)
        except queue.Empty:
            raise EOFError from None

    def write(self, text: str) -> None:
        self.output.append(text)

    @property
    def text(self) -> str:
        return "".join(self.output)

    async def until(self, pattern: str, count: int = 1, timeout: float = 30.0) -> str:
        async def wait() -> str:
            while len(found := re.findall(pattern, self.text)) < count:
                await asyncio.sleep(0.02)
            return str(found[-1])

        return await asyncio.wait_for(wait(), timeout)


def add_helper_agent(app: Starlette) -> None:
    shopper = app.state.agent.agents["shopper"]
    app.state.agent.agents["helper"] = Agent(
        "helper", "A second scripted agent.", shopper.instructions, ScriptedModel(),
        "scripted-2", shopper.tools)


async def test_chat_with_a_named_agent_says_which(app: Starlette,
                                                  client: httpx.AsyncClient) -> None:
    add_helper_agent(app)
    keyboard = Keyboard("hello", "/quit")
    chat = Chat(AgentClient("http://test", http=client), "helper", keyboard.write,
                keyboard.read)
    assert await chat.run() == 0
    assert keyboard.text.startswith("Chatting with helper (scripted-2). Type /quit to leave.")
    assert "I can find products" in keyboard.text
    assert chat.session is not None
    record = await app.state.agent.journal.load(chat.session.session_id)
    assert record.agent == "helper"


async def test_chat_with_an_unknown_agent_stops_at_once(client: httpx.AsyncClient) -> None:
    keyboard = Keyboard("hello")
    chat = Chat(AgentClient("http://test", http=client), "nobody", keyboard.write,
                keyboard.read)
    assert await chat.run() == 1
    assert "error: the server has no agent 'nobody' (it has: shopper)" in keyboard.text
    assert chat.session is None and keyboard.lines.qsize() == 1


async def test_chat_asks_for_approval_until_it_gets_an_option(live_server: LiveServer) -> None:
    keyboard = Keyboard()
    async with AgentClient(live_server.url) as agent_client:
        chat = asyncio.create_task(Chat(agent_client, None, keyboard.write,
                                        keyboard.read).run())
        try:
            await keyboard.until(r"you> ")
            keyboard.lines.put("find a ceramic mug under $20")
            await keyboard.until(r"you> ", count=2)
            keyboard.lines.put("add two to my cart")
            link = await keyboard.until(r"http://\S+/consent/\S+")
            async with httpx.AsyncClient(timeout=30) as http:
                approved = await consent(http, link, email="bob@example.com",
                                         password="bob-demo-pass")
            assert approved.status_code == 200
            await keyboard.until(r"Added 2 × Limited Edition Glaze Mug")
            keyboard.lines.put("check out")
            await keyboard.until(r"Where should I deliver it\?")
            keyboard.lines.put("1 Main St, Springfield, US")
            await keyboard.until(r"- 2 × Limited Edition Glaze Mug: \$36\.00\n"
                                 r"Delivery to: 1 Main St, Springfield, US\n"
                                 r"Shipping \(Standard Shipping\): \$8\.50\n"
                                 r"Total to pay: \$44\.50")
            await keyboard.until(r"\[approve/reject\]> ")
            keyboard.lines.put("maybe")  # not an option: asked again
            await keyboard.until(r"\[approve/reject\]> ", count=2)
            keyboard.lines.put(" Approve ")
            placed = await keyboard.until(r"order (ord_\w+) is placed and paid")
            keyboard.lines.put("/quit")
            assert await asyncio.wait_for(chat, 30) == 0
        finally:
            chat.cancel()
    token = user_token(live_server.db_path, "bob@example.com")
    async with httpx.AsyncClient(timeout=30) as http:
        orders = (await http.get(f"{live_server.url}/orders",
                                 headers={"Authorization": f"Bearer {token}"})).json()
    assert [order["id"] for order in orders["orders"]] == [placed]
