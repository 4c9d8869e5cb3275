"""Background loops of the app (simulator, order feed, webhook sender): started with the app,
cancelled and awaited when it stops. create_app's workers use this one helper;
every other task the app cancels is stopped by `stop`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from typing import Any


@contextlib.asynccontextmanager
async def running(loop: Coroutine[Any, Any, None]) -> AsyncIterator[None]:
    """Run `loop` as a task for the duration of the block, then cancel it and wait for it."""
    task = asyncio.create_task(loop)
    try:
        yield
    finally:
        await stop(task)


async def stop(task: asyncio.Task[Any] | None) -> None:
    """Cancel `task` (when there is one) and wait until it has ended."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
