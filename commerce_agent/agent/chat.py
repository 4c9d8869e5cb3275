"""`commerce-agent chat`: talk to an agent in the terminal.

The reply is printed as it streams, tool calls as they happen; at an approval prompt the user
chooses; when a connection needs authorization the link is printed and the chat waits until it
is approved or declined in the browser. `/quit` (or end of input) leaves.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from commerce_agent.agent.client import AgentAPIError, AgentClient, Session

Write = Callable[[str], None]
Read = Callable[[str], str]


def _compact(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Chat:
    def __init__(self, client: AgentClient, agent: str | None, write: Write, read: Read) -> None:
        self.client = client
        self.agent = agent
        self.write = write
        self.read = read
        self.session: Session | None = None
        self._line_open = False

    async def ask(self, prompt: str) -> str | None:
        try:
            return await asyncio.to_thread(self.read, prompt)
        except EOFError:
            return None

    def _text(self, text: str) -> None:
        if not self._line_open:
            self.write("agent> ")
            self._line_open = True
        self.write(text)

    def _line(self, text: str) -> None:
        if self._line_open:
            self.write("\n")
            self._line_open = False
        self.write(text + "\n")

    def show(self, item: dict[str, Any]) -> None:
        kind, data = item["type"], item.get("data") or {}
        if kind == "agent.content.delta":
            self._text(str(data.get("text", "")))
        elif kind == "agent.tool_call":
            self._line(f"  → {data['tool']['name']} {_compact(data.get('args', {}))}")
        elif kind == "agent.tool_result":
            outcome = "error: " + str((data.get("result") or {}).get("message", "")) \
                if data.get("isError") else "ok"
            self._line(f"  ← {data['tool']['name']}: {outcome}")
        elif kind == "result.completed":
            self._line("result: " + json.dumps(data.get("result"), ensure_ascii=False))
        elif kind == "authorization.granted":
            self._line(f"  ✓ {data.get('connection')} connection authorized")
        elif kind == "session.failed":
            self._line(f"The session failed: {data.get('error')}")

    async def turn(self) -> bool:
        """Show the turn until the agent waits for the next message; False if it failed."""
        assert self.session is not None
        follow = False
        while True:
            boundary = None
            async for item in self.client.events(self.session, follow=follow):
                self.show(item)
                if item["type"] in ("session.waiting", "input.requested",
                                    "authorization.required", "session.failed"):
                    boundary = item
                    break
            if boundary is None:
                follow = True
                continue
            data = boundary.get("data") or {}
            if boundary["type"] == "session.waiting":
                self._line("")
                return True
            if boundary["type"] == "session.failed":
                return False
            if boundary["type"] == "authorization.required":
                self._line(f"The agent needs your {data.get('connection')} account. Open this "
                           f"link to sign in and approve (or decline):\n  {data.get('authUrl')}")
                follow = True
                continue
            follow = False
            self._line(str(data.get("prompt", "The agent asks for approval.")))
            options = [str(option) for option in data.get("options", ["approve", "reject"])]
            answer = None
            while answer not in options:
                answer = await self.ask(f"[{'/'.join(options)}]> ")
                if answer is None:
                    answer = options[-1]
                answer = answer.strip().lower()
            await self.client.respond(self.session, {str(data["requestId"]): answer})

    async def run(self) -> int:
        info = await self.client.info()
        agent = info["agent"]
        if self.agent is not None:
            agents = info.get("agents") or [agent]
            agent = next((entry for entry in agents if entry.get("name") == self.agent), None)
            if agent is None:
                known = ", ".join(str(entry.get("name")) for entry in agents)
                self._line(f"error: the server has no agent {self.agent!r} (it has: {known}).")
                return 1
        self._line(f"Chatting with {agent['name']} ({agent['model']}). Type /quit to leave.")
        while True:
            message = await self.ask("you> ")
            if message is None or message.strip() in ("/quit", "/exit"):
                return 0
            if not message.strip():
                continue
            try:
                if self.session is None:
                    self.session = await self.client.create(message, agent=self.agent)
                else:
                    await self.client.send(self.session, message, agent=self.agent)
                if not await self.turn():
                    return 1
            except AgentAPIError as exc:
                self._line(f"error: {exc.message}")


async def chat(url: str, agent: str | None, token: str | None, mount: str, write: Write,
               read: Read) -> int:
    async with AgentClient(url, token=token, mount=mount) as client:
        return await Chat(client, agent, write, read).run()
