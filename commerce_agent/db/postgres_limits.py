"""Bounds on every wait for PostgreSQL, so that a database that is down, unreachable or frozen
answers a request 503 within seconds instead of a 500 or a hang.

- Connecting gives up after CONNECT_TIMEOUT_SECONDS (libpq's `connect_timeout`).
- A statement is cancelled by the server after DATABASE_TIMEOUT_SECONDS
  (`statement_timeout`): a lock wait or a runaway query.
- A server that cannot even cancel (frozen, or a network that drops packets) is bounded on this
  side: `bounded()` closes the connection past the same time plus a grace, and the request goes
  on with DatabaseUnavailable. Closing, not cancelling: psycopg's cancellation waits for the
  server (up to 10 s more), and a connection whose statement may still run is of no use anyway.
- The pools try to reconnect for RECONNECT_SECONDS at a time (psycopg-pool doubles its delay
  between attempts up to that bound; a new request starts a new attempt at once), so reads come
  back within seconds of the database's return, not after a delay grown through the outage.
- Every psycopg `OperationalError` (connection lost, timeouts, the pool's own PoolTimeout, a
  deadlock the engine broke, a server shutting down) becomes `DatabaseUnavailable`, which the
  API answers 503 with Retry-After.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import psycopg

from commerce_agent.db.base import DATABASE_TIMEOUT_SECONDS, DatabaseUnavailable, WriteConflict

CONNECT_TIMEOUT_SECONDS = 2  # libpq's smallest
# Past the server's statement_timeout, how long this side still waits for its answer.
CLIENT_GRACE_SECONDS = 1.5
# How long one reconnection attempt of a pool goes on (its delays double up to this).
RECONNECT_SECONDS = 3.0
# How long a request waits for a free pooled connection.
POOL_WAIT_SECONDS = 3.0
T = TypeVar("T")


def connection_options(*, read_only: bool = False) -> dict[str, Any]:
    """libpq parameters for every connection the backend opens (URL parameters of the same
    name are overridden)."""
    options = f"-c statement_timeout={int(DATABASE_TIMEOUT_SECONDS * 1000)}"
    if read_only:  # readers refuse to write, as SQLite's reader connections do
        options += " -c default_transaction_read_only=on"
    return {"connect_timeout": CONNECT_TIMEOUT_SECONDS, "options": options}


def unavailable(exc: psycopg.Error) -> DatabaseUnavailable:
    if (exc.sqlstate or "").startswith("40"):  # transaction rollback: deadlock, serialization
        conflict = WriteConflict(f"PostgreSQL rolled the write back: {exc}")
        conflict.__cause__ = exc
        return conflict
    error = DatabaseUnavailable(f"PostgreSQL did not answer: {type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


async def bounded(connection: psycopg.AsyncConnection[Any], work: Awaitable[T],
                  seconds: float = DATABASE_TIMEOUT_SECONDS + CLIENT_GRACE_SECONDS) -> T:
    """Await `work` (a statement on `connection`) for at most `seconds`; past that, close the
    connection, so psycopg stops waiting on it at once, and raise DatabaseUnavailable."""
    task = asyncio.current_task()
    assert task is not None
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        connection.pgconn.finish()  # its pool discards it when it comes back
        task.cancel()

    timer = asyncio.get_running_loop().call_later(seconds, expire)
    try:
        return await work
    except asyncio.CancelledError:
        if expired and task.uncancel() == 0:
            raise DatabaseUnavailable(f"PostgreSQL did not answer within {seconds:g} s") \
                from None
        raise
    except psycopg.OperationalError as exc:
        if expired:  # the close arrived first: the same timeout
            raise DatabaseUnavailable(f"PostgreSQL did not answer within {seconds:g} s") \
                from exc
        raise
    finally:
        timer.cancel()


def is_broken(connection: psycopg.AsyncConnection[Any] | None) -> bool:
    """Whether `connection` was lost (the server restarted or dropped it)."""
    return connection is not None and connection.closed
