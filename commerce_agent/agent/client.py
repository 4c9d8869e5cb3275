"""An async Python client for the Agent Session Streaming API.

    async with AgentClient("http://127.0.0.1:8000") as client:
        session = await client.create("find a ceramic mug under $20")
        async for event in client.events(session):
            ...

`events` reads one stream (it ends when the turn reaches a pause or its end) and reconnects
after a dropped connection from the last event it handed out, so nothing is lost or repeated;
`session.next_index` is that position. Follow-ups, input answers and cancels authenticate
with the session's continuation token; create, info and streams send `token` (the server's
--auth-secret) when given.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

BOUNDARIES = frozenset({"session.waiting", "input.requested", "authorization.required",
                        "session.failed"})


class AgentAPIError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


@dataclass
class Session:
    session_id: str
    continuation_token: str
    # Events handed out so far: the startIndex of the next stream.
    next_index: int = 0


def _raise_for(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    try:
        error = response.json()["error"]
        code, message = str(error["code"]), str(error["message"])
    except (ValueError, KeyError, TypeError):
        code, message = "http_error", response.text[:200]
    raise AgentAPIError(response.status_code, code, message)


class AgentClient:
    def __init__(self, base_url: str, *, token: str | None = None, mount: str = "/agent/v1",
                 http: httpx.AsyncClient | None = None, retries: int = 5) -> None:
        self.base = base_url.rstrip("/") + mount
        self.token = token
        self.retries = retries
        self._own_http = http is None
        self.http = http or httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=None))

    async def __aenter__(self) -> AgentClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._own_http:
            await self.http.aclose()

    def _auth(self, token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    async def _post(self, path: str, body: dict[str, Any], token: str | None) -> Any:
        response = await self.http.post(self.base + path, json=body, headers=self._auth(token))
        _raise_for(response)
        return response.json()

    async def health(self) -> dict[str, Any]:
        response = await self.http.get(self.base + "/health")
        _raise_for(response)
        result: dict[str, Any] = response.json()
        return result

    async def info(self) -> dict[str, Any]:
        response = await self.http.get(self.base + "/info", headers=self._auth(self.token))
        _raise_for(response)
        result: dict[str, Any] = response.json()
        return result

    async def create(self, message: str, *, agent: str | None = None,
                     output_schema: dict[str, Any] | None = None,
                     client_context: dict[str, Any] | None = None) -> Session:
        body: dict[str, Any] = {"message": message}
        for key, value in (("agent", agent), ("outputSchema", output_schema),
                           ("clientContext", client_context)):
            if value is not None:
                body[key] = value
        created = await self._post("/session", body, self.token)
        return Session(created["sessionId"], created["continuationToken"])

    async def send(self, session: Session, message: str, *, agent: str | None = None,
                   output_schema: dict[str, Any] | None = None) -> None:
        body: dict[str, Any] = {"message": message,
                                "continuationToken": session.continuation_token}
        if agent is not None:
            body["agent"] = agent
        if output_schema is not None:
            body["outputSchema"] = output_schema
        await self._post(f"/session/{session.session_id}", body, session.continuation_token)

    async def respond(self, session: Session, responses: dict[str, str]) -> None:
        """Answer open input requests: {requestId: chosen option}."""
        await self._post(f"/session/{session.session_id}",
                         {"continuationToken": session.continuation_token,
                          "inputResponses": responses}, session.continuation_token)

    async def approve(self, session: Session, request_id: str) -> None:
        await self.respond(session, {request_id: "approve"})

    async def reject(self, session: Session, request_id: str) -> None:
        await self.respond(session, {request_id: "reject"})

    async def cancel(self, session: Session) -> str:
        answer = await self._post(f"/session/{session.session_id}/cancel",
                                  {"continuationToken": session.continuation_token},
                                  session.continuation_token)
        return str(answer["status"])

    async def events(self, session: Session, *, follow: bool = False
                     ) -> AsyncIterator[dict[str, Any]]:
        """Events from `session.next_index` until the server ends the stream (with `follow`,
        until the caller stops), reconnecting after transport errors."""
        failures = 0
        url = f"{self.base}/session/{session.session_id}/stream"
        headers = self._auth(self.token or session.continuation_token)
        while True:
            params = {"startIndex": str(session.next_index)}
            if follow:
                params["follow"] = "true"
            try:
                async with self.http.stream("GET", url, params=params,
                                            headers=headers) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        _raise_for(response)
                    async for line in response.aiter_lines():
                        if not line.strip():
                            continue
                        item: dict[str, Any] = json.loads(line)
                        index = int(item.get("streamIndex", session.next_index))
                        if index < session.next_index:
                            continue
                        session.next_index = index + 1
                        failures = 0
                        yield item
                return
            except (httpx.TransportError, httpx.RemoteProtocolError):
                failures += 1
                if failures > self.retries:
                    raise
                await asyncio.sleep(min(0.1 * 2 ** failures, 2.0))

    async def until_pause(self, session: Session) -> list[dict[str, Any]]:
        """Every event up to and including the next boundary (waiting, input, authorization
        or failure), following across reconnects."""
        collected = []
        while True:
            async for item in self.events(session, follow=True):
                collected.append(item)
                if item["type"] in BOUNDARIES:
                    return collected
