"""The file journal: one append-only file per session in a directory.

Each file holds the session's events as NDJSON lines, interleaved with record lines (`R` and
the record's JSON). A commit appends its events and the new record in a single write while
holding an exclusive `flock` on the file, so processes sharing the directory serialize their
commits; the last record line is the current record. A line cut short by a crash is cut off
by the next commit. `running/` holds an empty marker per session whose turn is running: it is
created before the commit that starts a turn and removed after the one that ends it, so after
a crash every running session is found.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from commerce_agent.agent.journals.base import Conflict, Journal, SessionExists
from commerce_agent.agent.records import SessionRecord, decode_record, encode_record

RECORD = b"R"
KEPT_INDEXES = 1024


@dataclass
class _Index:
    """What this process has read of one file: event line offsets and the last record."""

    scanned: int = 0
    offsets: list[int] = field(default_factory=list)
    record: bytes = b""


@dataclass
class _Held:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # holding or waiting


class FileJournal(Journal):
    name = "file"
    poll_interval = 0.1

    def __init__(self, directory: str) -> None:
        super().__init__()
        self.directory = directory
        self._indexes: OrderedDict[str, _Index] = OrderedDict()
        # Serializes this process's commits of a session (flock does not, within a process).
        self._locks: dict[str, _Held] = {}

    async def open(self) -> None:
        os.makedirs(os.path.join(self.directory, "running"), exist_ok=True)
        await super().open()

    def _path(self, session_id: str) -> str:
        return os.path.join(self.directory, f"{session_id}.ndjson")

    def _marker(self, session_id: str) -> str:
        return os.path.join(self.directory, "running", session_id)

    def _scan(self, session_id: str) -> _Index | None:
        """Index the complete lines appended since the last scan (by any process)."""
        index = self._indexes.get(session_id)
        try:
            size = os.path.getsize(self._path(session_id))
        except FileNotFoundError:
            return None
        if index is None:
            index = self._indexes[session_id] = _Index()
            while len(self._indexes) > KEPT_INDEXES:  # an evicted index is rebuilt on demand
                self._indexes.popitem(last=False)
        else:
            self._indexes.move_to_end(session_id)
        if size <= index.scanned:
            return index
        with open(self._path(session_id), "rb") as handle:
            handle.seek(index.scanned)
            data = handle.read(size - index.scanned)
        complete = data.rfind(b"\n") + 1
        position = index.scanned
        for line in data[:complete].splitlines(keepends=True):
            if line.startswith(RECORD):
                index.record = line[1:-1]
            else:
                index.offsets.append(position)
            position += len(line)
        index.scanned = position
        return index

    @contextlib.asynccontextmanager
    async def _locked(self, session_id: str) -> AsyncIterator[None]:
        """Hold the session's in-process lock; the lock is dropped when nobody holds or waits
        for it, so the table does not grow with every session ever committed."""
        held = self._locks.get(session_id)
        if held is None:
            held = self._locks[session_id] = _Held()
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:
            held.users -= 1
            if held.users == 0 and self._locks.get(session_id) is held:
                del self._locks[session_id]

    @staticmethod
    def _write_all(fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]

    @staticmethod
    def _cut_torn_tail(fd: int) -> None:
        size = os.fstat(fd).st_size
        if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
            return
        start = max(0, size - 1024 * 1024)
        tail = os.pread(fd, size - start, start)
        os.ftruncate(fd, start + tail.rfind(b"\n") + 1)

    async def _insert(self, record: SessionRecord, lines: list[bytes]) -> None:
        try:
            fd = os.open(self._path(record.id), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND,
                         0o644)
        except FileExistsError:
            raise SessionExists(record.id) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if record.status == "running":
                open(self._marker(record.id), "wb").close()
            self._write_all(fd, b"".join(lines) + RECORD + encode_record(record) + b"\n")
        finally:
            os.close(fd)

    async def _replace(self, old: SessionRecord, new: SessionRecord, lines: list[bytes]) -> None:
        async with self._locked(old.id):
            fd = os.open(self._path(old.id), os.O_RDWR | os.O_APPEND)
            try:
                await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
                self._cut_torn_tail(fd)
                index = self._scan(old.id)
                if index is None or decode_record(index.record).version != old.version:
                    raise Conflict(old.id)
                if new.status == "running":
                    open(self._marker(old.id), "wb").close()
                self._write_all(fd, b"".join(lines) + RECORD + encode_record(new) + b"\n")
                if new.status != "running" and old.status == "running":
                    self._unmark(old.id)
            finally:
                os.close(fd)  # closing releases the lock

    def _unmark(self, session_id: str) -> None:
        try:
            os.remove(self._marker(session_id))
        except FileNotFoundError:
            pass

    async def load(self, session_id: str) -> SessionRecord | None:
        index = self._scan(session_id)
        if index is None or not index.record:
            return None
        return decode_record(index.record)

    async def read(self, session_id: str, start: int, limit: int | None = None) -> list[bytes]:
        index = self._scan(session_id)
        if index is None or start >= len(index.offsets):
            return []
        stop = len(index.offsets) if limit is None else min(len(index.offsets), start + limit)
        end = index.offsets[stop] if stop < len(index.offsets) else index.scanned
        with open(self._path(session_id), "rb") as handle:
            handle.seek(index.offsets[start])
            data = handle.read(end - index.offsets[start])
        events = [line for line in data.splitlines(keepends=True) if not line.startswith(RECORD)]
        return events[:stop - start]

    async def running(self) -> list[SessionRecord]:
        found = []
        for session_id in os.listdir(os.path.join(self.directory, "running")):
            record = await self.load(session_id)
            if record is not None and record.status == "running":
                found.append(record)
        return found

    async def marks(self, session_ids: list[str]) -> dict[str, object]:
        marks: dict[str, object] = {}
        for session_id in session_ids:
            try:
                marks[session_id] = os.path.getsize(self._path(session_id))
            except FileNotFoundError:
                continue
        return marks
