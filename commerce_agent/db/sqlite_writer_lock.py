"""Processes sharing one SQLite file take turns to write through a lock the kernel hands over:
an exclusive `flock` on `<database>-writer`, held from BEGIN IMMEDIATE to COMMIT.

SQLite's own wait for the file's write lock (busy_timeout) is a loop of sleeps that grow to
100 ms: a process that finds the lock taken sleeps past its release, and with two processes
writing, each spends much of its time asleep (two processes placed about half the orders one
did). `flock` instead wakes a waiting process the moment the lock is released, so N processes
write about as fast as one. SQLite's lock stays the rule (other programs that open the file
know nothing of this one); this lock only makes our processes queue properly before it.

A process that waits longer than the bound gives up (the request is answered 503); its
waiting thread, if the lock comes later, gives it back at once.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import threading


class WriterLock:
    def __init__(self, database_path: str) -> None:
        self._fd = os.open(database_path + "-writer", os.O_RDWR | os.O_CREAT, 0o644)
        self._handover = threading.Lock()  # between a waiting thread and its giving-up caller

    def close(self) -> None:
        os.close(self._fd)

    async def acquire(self, timeout: float) -> bool:
        """Take the lock; False when another process held it past `timeout` seconds."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free: no thread needed
            return True
        except BlockingIOError:
            pass
        state = {"taken": False, "abandoned": False}

        def wait() -> None:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            with self._handover:
                if state["abandoned"]:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
                else:
                    state["taken"] = True

        waiting = asyncio.get_running_loop().run_in_executor(None, wait)
        try:
            await asyncio.wait_for(asyncio.shield(waiting), timeout)
        except TimeoutError:
            pass
        except BaseException:  # cancelled: the lock must not stay with nobody
            with self._handover:
                if state["taken"]:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
                state["abandoned"] = True
            raise
        with self._handover:
            if state["taken"]:
                return True
            state["abandoned"] = True
            return False

    def release(self) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_UN)
