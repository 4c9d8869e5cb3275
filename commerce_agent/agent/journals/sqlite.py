"""The database journal (`sqlite`, the default): sessions and events in the application's
database, SQLite or PostgreSQL, through its one `transaction()` helper.

Writes are serialized by the database (SQLite's one writer, PostgreSQL's write lock), so
several server processes see one order of commits. Other processes' commits are noticed by
checking each followed session's length: on SQLite by polling, on PostgreSQL when a commit's
notification (`CHANGED`, sent with every commit of a session) arrives, without polling.
"""

from __future__ import annotations

import asyncio
import logging

from commerce_agent import clock
from commerce_agent.agent.journals.base import Conflict, Journal, SessionExists
from commerce_agent.agent.records import SessionRecord, decode_record, encode_record
from commerce_agent.background import stop
from commerce_agent.db import Database, IntegrityError, Transaction

# Database.signal topic: a session's journal grew (PostgreSQL wakes followers with it).
CHANGED = "agent_sessions"
log = logging.getLogger("commerce_agent.agent")


_READ = ("SELECT line FROM agent_events WHERE session_id = :session AND idx >= :start "
         "ORDER BY idx")


class SqliteJournal(Journal):
    name = "sqlite"
    poll_interval = 0.1

    def __init__(self, db: Database) -> None:
        super().__init__()
        self.db = db
        self._notified = db.signals_every_process
        if self._notified:
            self.name, self.poll_interval = "database", 0.0
        self._listener: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await super().open()
        if self._notified:
            self._listener = asyncio.create_task(self._wake_on_commits())

    async def close(self) -> None:
        await stop(self._listener)
        self._listener = None
        await super().close()

    async def _wake_on_commits(self) -> None:
        """On PostgreSQL: check the followed sessions when some process committed to one."""
        signal = self.db.signal(CHANGED)
        while True:
            await signal.wait()
            signal.clear()
            try:
                await self.check_marks()
            except Exception:  # the next commit's notification checks again
                log.warning("reading the database journal failed", exc_info=True)

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
            except IntegrityError:
                raise SessionExists(record.id) from None
            await self._append(tx, record.id, 0, lines)
            tx.notify(CHANGED)

    async def _replace(self, old: SessionRecord, new: SessionRecord, lines: list[bytes]) -> None:
        async with self.db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE agent_sessions SET version = :version, length = :length, status = :status,"
                " record = :record, updated_at = :at WHERE id = :id AND version = :expected",
                {**self._params(new), "expected": old.version})
            if changed != 1:
                raise Conflict(old.id)
            await self._append(tx, old.id, old.length, lines)
            tx.notify(CHANGED)

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
            _READ if limit is None else _READ + " LIMIT :limit",
            {"session": session_id, "start": start, "limit": limit})
        return [bytes(row["line"]) for row in rows]

    async def running(self) -> list[SessionRecord]:
        rows = await self.db.fetch_all(
            "SELECT record FROM agent_sessions WHERE status = :status", {"status": "running"})
        return [decode_record(row["record"]) for row in rows]

    async def marks(self, session_ids: list[str]) -> dict[str, object]:
        if not session_ids:
            return {}
        params = {f"s{index}": session_id for index, session_id in enumerate(session_ids)}
        rows = await self.db.fetch_all(
            "SELECT id, length FROM agent_sessions WHERE id IN "  # noqa: S608 - placeholders
            f"({', '.join(':' + name for name in params)})", params)
        return {row["id"]: row["length"] for row in rows}
