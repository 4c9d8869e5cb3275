"""What every journal backend provides, and the follow loop they share.

A journal keeps, per session, a record (`SessionRecord`) and an append-only list of events.
`commit` is the only way to change either: a compare-and-set on the record's version that
appends the new events atomically with the new record. Followers are woken through a local
`Notifier` after each commit of this process, and by a poll (or a Redis subscription) for
commits of other processes; they always read by index, so a wake-up can never duplicate or
skip an event.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import AsyncIterator, Iterable

import msgspec

from commerce_agent.agent.events import Event, encode_line
from commerce_agent.agent.records import SessionRecord
from commerce_agent.background import stop

log = logging.getLogger("commerce_agent.agent")


class Conflict(Exception):
    """The session changed since its record was read; reload and decide again."""


class SessionExists(Exception):
    pass


class Notifier:
    """Per-session wake-ups for local followers: take a waiter, read, then wait on it."""

    def __init__(self) -> None:
        self._current: weakref.WeakValueDictionary[str, asyncio.Event] = (
            weakref.WeakValueDictionary())

    def waiter(self, session_id: str) -> asyncio.Event:
        current = self._current.get(session_id)
        if current is None:
            current = asyncio.Event()
            self._current[session_id] = current
        return current

    def notify(self, session_id: str) -> None:
        current = self._current.pop(session_id, None)
        if current is not None:
            current.set()


class _Tail:
    """The newest events of a followed session, shared by all its followers in this process.

    One pump task per followed session reads new events from storage (when woken by a local
    commit, a notification or the poll) and appends them here; followers read from this list,
    so a thousand followers of one session cost one storage read per batch of new events.
    """

    keep = 2048

    def __init__(self, first: int) -> None:
        self.first = first
        self.lines: list[bytes] = []
        self.changed = asyncio.Event()
        self.pump: asyncio.Task[None] | None = None
        self.followers = 0

    @property
    def end(self) -> int:
        return self.first + len(self.lines)

    def add(self, index: int, lines: list[bytes]) -> bool:
        """Add events starting at `index`; what is already known or leaves a gap is ignored.
        True when the tail now reaches past these events."""
        if index > self.end:
            return False
        if index + len(lines) <= self.end:
            return True
        self.lines.extend(lines[self.end - index:])
        if len(self.lines) > self.keep:
            drop = len(self.lines) - self.keep
            self.first += drop
            del self.lines[:drop]
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()
        return True


class Journal(ABC):
    """A session store; subclasses implement the storage, this class the shared behaviour."""

    name = "journal"
    # Seconds between checks for commits made by other processes (0: never, one process only).
    poll_interval = 0.0

    def __init__(self) -> None:
        self.notifier = Notifier()
        self._watched: Counter[str] = Counter()
        self._marks: dict[str, object] = {}
        self._tails: dict[str, _Tail] = {}
        self._poller: asyncio.Task[None] | None = None

    async def open(self) -> None:
        if self.poll_interval > 0:
            self._poller = asyncio.create_task(self._poll())

    async def close(self) -> None:
        await stop(self._poller)
        self._poller = None

    # -- storage, per backend -------------------------------------------------------------

    @abstractmethod
    async def _insert(self, record: SessionRecord, lines: list[bytes]) -> None:
        """Store a new session; raise SessionExists if the id is taken."""

    @abstractmethod
    async def _replace(self, old: SessionRecord, new: SessionRecord, lines: list[bytes]) -> None:
        """Append `lines` and store `new` if the stored version is `old.version`, else Conflict."""

    @abstractmethod
    async def load(self, session_id: str) -> SessionRecord | None:
        """The session's current record, or None."""

    @abstractmethod
    async def read(self, session_id: str, start: int, limit: int | None = None) -> list[bytes]:
        """Encoded events from index `start` on (at most `limit`), in order."""

    @abstractmethod
    async def running(self) -> list[SessionRecord]:
        """Records of sessions whose turn is running (for resuming after a crash)."""

    async def marks(self, session_ids: list[str]) -> dict[str, object]:
        """A value per session that changes whenever its journal grows (for polling)."""
        return {}

    # -- shared behaviour ---------------------------------------------------------------

    @staticmethod
    def _number(record: SessionRecord, events: Iterable[Event]) -> list[bytes]:
        lines = []
        for offset, item in enumerate(events):
            item.streamIndex = record.length + offset
            lines.append(encode_line(item))
        return lines

    async def create(self, record: SessionRecord, events: list[Event]) -> SessionRecord:
        new = msgspec.structs.replace(record, version=1, length=len(events))
        await self._insert(new, self._number(record, events))
        return new

    async def commit(self, record: SessionRecord, events: list[Event] | None = None,
                     **changes: object) -> SessionRecord:
        """Append `events` and apply `changes` to the record, if nobody changed it meanwhile."""
        events = events or []
        new = msgspec.structs.replace(record, version=record.version + 1,
                                      length=record.length + len(events), **changes)
        lines = self._number(record, events)
        await self._replace(record, new, lines)
        if lines:
            # Local followers get the new events straight away; the session's pump only needs
            # waking when they could not be added (it then reads them from storage).
            tail = self._tails.get(record.id)
            if tail is None or not tail.add(record.length, lines):
                self.notifier.notify(record.id)
        return new

    async def follow(self, session_id: str, start: int, *, keepalive: float = 12.0
                     ) -> AsyncIterator[list[bytes]]:
        """Batches of events from `start` on, forever; an empty batch after `keepalive` idle
        seconds lets the caller send a keep-alive."""
        index = start
        tail = self._tails.get(session_id)
        if tail is None:
            record = await self.load(session_id)
            tail = self._tails[session_id] = _Tail(record.length if record else start)
            tail.pump = asyncio.create_task(self._pump(session_id, tail))
        tail.followers += 1
        self._watched[session_id] += 1
        try:
            while True:
                if index < tail.first:  # replay: older than what the tail holds
                    lines = await self.read(session_id, index, min(500, tail.first - index))
                    if not lines:
                        raise RuntimeError(f"journal of {session_id} lost events at {index}")
                elif index < tail.end:
                    lines = tail.lines[index - tail.first:index - tail.first + 500]
                else:
                    changed = tail.changed
                    try:
                        await asyncio.wait_for(changed.wait(), keepalive)
                    except TimeoutError:
                        yield []
                    continue
                index += len(lines)
                yield lines
        finally:
            self._watched[session_id] -= 1
            if self._watched[session_id] <= 0:
                del self._watched[session_id]
                self._marks.pop(session_id, None)
            tail.followers -= 1
            if tail.followers == 0:
                if self._tails.get(session_id) is tail:
                    del self._tails[session_id]
                if tail.pump is not None:
                    tail.pump.cancel()

    async def _pump(self, session_id: str, tail: _Tail) -> None:
        while True:
            waiter = self.notifier.waiter(session_id)
            at = tail.end
            try:
                lines = await self.read(session_id, at, 500)
            except Exception:
                log.warning("reading the %s journal failed", self.name, exc_info=True)
                await asyncio.sleep(1.0)
                continue
            if lines:
                tail.add(at, lines)
                continue
            await waiter.wait()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            try:
                await self.check_marks()
            except Exception:  # a failed poll is retried at the next tick
                log.warning("polling the %s journal failed", self.name, exc_info=True)

    async def check_marks(self) -> None:
        """Wake the pumps of followed sessions whose journal grew since the last check."""
        watched = list(self._watched)
        if not watched:
            return
        for session_id, mark in (await self.marks(watched)).items():
            if self._marks.get(session_id) != mark:
                self._marks[session_id] = mark
                self.notifier.notify(session_id)
