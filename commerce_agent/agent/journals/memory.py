"""The memory journal: sessions live in this process only and vanish when it stops."""

from __future__ import annotations

from commerce_agent.agent.journals.base import Conflict, Journal, SessionExists
from commerce_agent.agent.records import SessionRecord, decode_record, encode_record


class MemoryJournal(Journal):
    name = "memory"

    def __init__(self) -> None:
        super().__init__()
        # Records are kept encoded so that no caller can change a stored one in place.
        self._records: dict[str, bytes] = {}
        self._versions: dict[str, int] = {}
        self._events: dict[str, list[bytes]] = {}

    async def _insert(self, record: SessionRecord, lines: list[bytes]) -> None:
        if record.id in self._records:
            raise SessionExists(record.id)
        self._store(record)
        self._events[record.id] = list(lines)

    async def _replace(self, old: SessionRecord, new: SessionRecord, lines: list[bytes]) -> None:
        if self._versions.get(old.id) != old.version:
            raise Conflict(old.id)
        self._events[old.id].extend(lines)
        self._store(new)

    def _store(self, record: SessionRecord) -> None:
        self._records[record.id] = encode_record(record)
        self._versions[record.id] = record.version

    async def load(self, session_id: str) -> SessionRecord | None:
        data = self._records.get(session_id)
        return None if data is None else decode_record(data)

    async def read(self, session_id: str, start: int, limit: int | None = None) -> list[bytes]:
        events = self._events.get(session_id, [])
        return events[start:] if limit is None else events[start:start + limit]

    async def running(self) -> list[SessionRecord]:
        records = [decode_record(data) for data in self._records.values()]
        return [record for record in records if record.status == "running"]
