"""Processes sharing a SQLite file queue for its write lock on an flock
(db/sqlite_writer_lock.py). Two WriterLocks on one file stand in for two processes (each opens
the lock file itself, and flock locks belong to the open file)."""

from __future__ import annotations

import asyncio
import os
import time

from commerce_agent.db.sqlite_writer_lock import WriterLock


async def test_a_waiter_gets_the_lock_the_moment_it_is_released(
        tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "shop.db")
    one, other = WriterLock(path), WriterLock(path)
    try:
        assert await one.acquire(1.0)
        waiting = asyncio.create_task(other.acquire(5.0))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # held elsewhere: it waits
        released = time.monotonic()
        one.release()
        assert await waiting
        assert time.monotonic() - released < 0.1  # woken at once, not at a retry's next try
        other.release()
    finally:
        one.close()
        other.close()


async def test_a_waiter_that_gives_up_leaves_the_lock_free(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(tmp_path, "shop.db")
    one, other = WriterLock(path), WriterLock(path)
    try:
        assert await one.acquire(1.0)
        started = time.monotonic()
        assert not await other.acquire(0.2)  # past its bound: the write is answered 503
        assert 0.15 < time.monotonic() - started < 1.0
        one.release()  # the given-up waiter's thread takes it now, and gives it back
        assert await one.acquire(2.0)
        cancelled = asyncio.create_task(other.acquire(5.0))
        await asyncio.sleep(0.1)
        cancelled.cancel()  # its request went away while it waited
        one.release()
        assert await one.acquire(2.0)  # a cancelled waiter leaves it free too
        one.release()
    finally:
        one.close()
        other.close()
