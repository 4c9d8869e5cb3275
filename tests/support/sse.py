"""A small Server-Sent Events reader for the order-updates tests, and patch application."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import jsonpatch


@dataclass
class Event:
    event: str
    data: str
    id: str | None = None

    @property
    def patch(self) -> list[dict[str, Any]]:
        assert self.event == "order.patch", self
        operations: list[dict[str, Any]] = json.loads(self.data)
        return operations


class Parser:
    """The SSE line format: fields until a blank line make an event; `:` lines are comments."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.comments: list[str] = []
        self.retry: int | None = None

    def feed(self, line: str) -> Event | None:
        if line == "":
            fields, self.fields = self.fields, {}
            if "data" in fields or "event" in fields:
                return Event(fields.get("event", "message"), fields.get("data", ""),
                             fields.get("id"))
            if "retry" in fields:
                self.retry = int(fields["retry"])
            return None
        if line.startswith(":"):
            self.comments.append(line[1:].strip())
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data" and "data" in self.fields:
            value = f"{self.fields['data']}\n{value}"
        self.fields[name] = value
        return None


def parse(text: str) -> tuple[list[Event], Parser]:
    """A whole (finite) SSE body: its events, and the parser (comments, retry)."""
    parser = Parser()
    events = [event for line in text.split("\n") if (event := parser.feed(line))]
    return events, parser


async def read_events(lines: AsyncIterator[str], parser: Parser | None = None
                      ) -> AsyncIterator[Event]:
    """Events of a live stream, as they arrive."""
    parser = parser or Parser()
    async for line in lines:
        event = parser.feed(line)
        if event is not None:
            yield event


def apply(doc: Any, events: Iterable[Event]) -> Any:
    """Apply every order.patch event in turn (the first may replace the whole document)."""
    for event in events:
        if event.event == "order.patch":
            doc = jsonpatch.apply_patch(doc, event.patch)
    return doc


async def updates(client: httpx.AsyncClient, headers: dict[str, str], order_id: str,
                  last_event_id: str | None = None) -> httpx.Response:
    """GET /orders/{id}/updates in-process (finite: the order must be completed or cancelled)."""
    extra = {"Last-Event-ID": last_event_id} if last_event_id is not None else {}
    return await client.get(f"/orders/{order_id}/updates", headers={**headers, **extra})


class Watch:
    """One open SSE connection: the events so far, read on demand."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.parser = Parser()
        self._events = read_events(response.aiter_lines(), self.parser)
        self.events: list[Event] = []

    async def next(self, timeout: float = 10.0) -> Event:
        event = await asyncio.wait_for(anext(self._events), timeout)
        self.events.append(event)
        return event

    @property
    def last_id(self) -> str:
        return next(event.id for event in reversed(self.events) if event.id is not None)



@asynccontextmanager
async def watch(http: httpx.AsyncClient, order_id: str, headers: dict[str, str],
                last_event_id: str | None = None) -> AsyncIterator[Watch]:
    extra = {"Last-Event-ID": last_event_id} if last_event_id else {}
    async with http.stream("GET", f"/orders/{order_id}/updates",
                           headers={**headers, **extra}) as response:
        assert response.status_code == 200
        yield Watch(response)
