"""The sqlite journal (the default): sessions and events in the application's SQLite file.

Writes go through the one writer connection (`BEGIN IMMEDIATE`), so several server processes
on one file see one order of commits; other processes' commits are noticed by polling each
followed session's length.
"""

from __future__ import annotations

import json
import sqlite3

from commerce_agent import clock
from commerce_agent.agent.journals.base import Conflict, Journal, SessionExists
from commerce_agent.agent.records import SessionRecord, decode_record, encode_record
from commerce_agent.db import Database, Transaction


class SqliteJournal(Journal):
    name = "sqlite"
    poll_interval = 0.1

    def __init__(self, db: Database) -> None:
        super().__init__()
        self.db = db

    @staticmethod
    def _params(record: SessionRecord) -> dict[str, object]:
        return {"id": record.id, "version": record.version, "length": record.length,
                "status": record.status, "record": encode_record(record).decode(),
                "at": clock.now_iso()}

    async def _insert(self, record: SessionRecord, lines: list[bytes]) -> None:
        async with self.db.transaction() as tx:
            try:
                await tx.execute(
                    "INSERT INTO agent_sessions (id, version, length, status, record, created_at, "
                    "updated_at) VALUES (:id, :version, :length, :status, :record, :at, :at)",
                    self._params(record))
            except sqlite3.IntegrityError:
                raise SessionExists(record.id) from None
            await self._append(tx, record.id, 0, lines)

    async def _replace(self, old: SessionRecord, new: SessionRecord, lines: list[bytes]) -> None:
        async with self.db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE agent_sessions SET version = :version, length = :length, status = :status,"
                " record = :record, updated_at = :at WHERE id = :id AND version = :expected",
                {**self._params(new), "expected": old.version})
            if changed != 1:
                raise Conflict(old.id)
            await self._append(tx, old.id, old.length, lines)

    @staticmethod
    async def _append(tx: Transaction, session_id: str, first: int, lines: list[bytes]) -> None:
        if not lines:
            return
        await tx.execute_many(
            "INSERT INTO agent_events (session_id, idx, line) VALUES (:session, :idx, :line)",
            [{"session": session_id, "idx": first + offset, "line": line}
             for offset, line in enumerate(lines)])

    async def load(self, session_id: str) -> SessionRecord | None:
        row = await self.db.fetch_one("SELECT record FROM agent_sessions WHERE id = :id",
                                      {"id": session_id})
        return None if row is None else decode_record(row["record"])

    async def read(self, session_id: str, start: int, limit: int | None = None) -> list[bytes]:
        rows = await self.db.fetch_all(
            "SELECT line FROM agent_events WHERE session_id = :session AND idx >= :start "
            "ORDER BY idx LIMIT :limit",
            {"session": session_id, "start": start, "limit": -1 if limit is None else limit})
        return [bytes(row["line"]) for row in rows]

    async def running(self) -> list[SessionRecord]:
        rows = await self.db.fetch_all(
            "SELECT record FROM agent_sessions WHERE status = :status", {"status": "running"})
        return [decode_record(row["record"]) for row in rows]

    async def marks(self, session_ids: list[str]) -> dict[str, object]:
        rows = await self.db.fetch_all(
            "SELECT id, length FROM agent_sessions WHERE id IN (SELECT value FROM json_each(:ids))",
            {"ids": json.dumps(session_ids)})
        return {row["id"]: row["length"] for row in rows}
