"""Run turns in the background: launch, renew leases, resume turns whose owner died.

Each process has an owner id (`host:pid:boot`). A running turn's record names its owner and a
lease that the owner renews while it works. Every few seconds each process looks for running
turns it can claim: the lease ran out, or the owner was a process of this host that no longer
exists (a SIGKILLed server restarted on the same machine resumes its turns at once). Claiming is
a compare-and-set on the record, so exactly one process wins.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time

from commerce_agent.agent.journals import Conflict
from commerce_agent.agent.records import SessionRecord
from commerce_agent.agent.turn import LEASE_SECONDS, LostLease, SessionHost, Turn, lease

log = logging.getLogger("commerce_agent.agent")

SCAN_SECONDS = 2.0
HOST = socket.gethostname()


def new_owner() -> str:
    return f"{HOST}:{os.getpid()}:{secrets.token_hex(4)}"


def owner_gone(owner: str, me: str) -> bool:
    """True when `owner` is certainly not running any more (a process of this host)."""
    try:
        host, pid_text, boot = owner.rsplit(":", 2)
        pid = int(pid_text)
    except ValueError:
        return True
    if host != HOST:
        return False
    if pid == os.getpid():
        return owner != me
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class Runner:
    def __init__(self, sessions: SessionHost) -> None:
        self.sessions = sessions
        self.owner = sessions.owner
        self.turns: dict[str, Turn] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._loops: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        await self.scan()
        self._loops = [asyncio.create_task(self._every(SCAN_SECONDS, self.scan)),
                       asyncio.create_task(self._every(LEASE_SECONDS / 6, self._heartbeats))]

    async def stop(self) -> None:
        for task in self._loops:
            task.cancel()
        # Taken before cancelling: each cancelled turn leaves `turns` as its task ends.
        interrupted = list(self.turns.values())
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in [*self._loops, *tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # Let another process (or the next start) pick up the interrupted turns at once.
        for turn in interrupted:
            with contextlib.suppress(Exception):
                await self.sessions.journal.commit(turn.record, [], lease_until=0.0)
        self.turns.clear()

    def launch(self, record: SessionRecord) -> None:
        """Drive a turn whose record (status running) names this process as owner."""
        if record.id in self._tasks:
            return
        turn = Turn(self.sessions, record)
        self.turns[record.id] = turn
        task = asyncio.create_task(self._drive(turn))
        self._tasks[record.id] = task

    async def _drive(self, turn: Turn) -> None:
        try:
            await turn.run()
        except LostLease:
            log.info("turn of %s moved to another process", turn.session_id)
        except Exception:  # the journal failed: the lease runs out and the turn is retried
            log.exception("turn of %s stopped", turn.session_id)
        finally:
            self._tasks.pop(turn.session_id, None)
            if self.turns.get(turn.session_id) is turn:
                del self.turns[turn.session_id]

    def interrupt(self, session_id: str) -> bool:
        turn = self.turns.get(session_id)
        if turn is None:
            return False
        turn.interrupted = True
        return True

    async def idle(self) -> None:
        """Wait until no turn runs in this process (tests and benchmarks)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _every(self, seconds: float, job: object) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()  # type: ignore[operator]
            except Exception:
                log.exception("agent background job failed")

    async def _heartbeats(self) -> None:
        for turn in list(self.turns.values()):
            try:
                await turn.heartbeat()
            except LostLease:
                task = self._tasks.get(turn.session_id)
                if task is not None:
                    task.cancel()

    def claimable(self, record: SessionRecord) -> bool:
        if record.owner == self.owner:
            return record.id not in self._tasks
        return record.lease_until < time.time() or owner_gone(record.owner, self.owner)

    async def scan(self) -> None:
        """Claim and resume running turns that nobody drives."""
        for record in await self.sessions.journal.running():
            if not self.claimable(record):
                continue
            try:
                claimed = await self.sessions.journal.commit(record, [], owner=self.owner,
                                                             lease_until=lease())
            except Conflict:
                continue
            log.info("resuming the turn of %s", record.id)
            self.launch(claimed)
