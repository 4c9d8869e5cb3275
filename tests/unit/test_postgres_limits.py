"""PostgreSQL's bounds without a server: the libpq options every connection gets, which
driver errors are a conflict to run again and which an unavailable database, and `bounded`
closing a connection whose statement outlived its time."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from psycopg import errors

from commerce_agent.db.base import DatabaseUnavailable, WriteConflict
from commerce_agent.db.postgres_limits import (
    CONNECT_TIMEOUT_SECONDS,
    bounded,
    connection_options,
    is_broken,
    unavailable,
)


def test_every_connection_bounds_its_statements_and_readers_cannot_write() -> None:
    writer = connection_options()
    assert writer == {"connect_timeout": CONNECT_TIMEOUT_SECONDS,
                      "options": "-c statement_timeout=5000"}
    reader = connection_options(read_only=True)
    assert reader["options"] == "-c statement_timeout=5000 -c default_transaction_read_only=on"


@pytest.mark.parametrize("error", [errors.DeadlockDetected("d"),
                                   errors.SerializationFailure("s")])
def test_a_rolled_back_write_is_a_conflict_to_run_again(error: psycopg.Error) -> None:
    found = unavailable(error)
    assert isinstance(found, WriteConflict) and found.__cause__ is error


@pytest.mark.parametrize("error", [psycopg.OperationalError("gone"),
                                   errors.AdminShutdown("bye"), errors.QueryCanceled("slow")])
def test_other_failures_are_an_unavailable_database(error: psycopg.Error) -> None:
    found = unavailable(error)
    assert type(found) is DatabaseUnavailable and found.__cause__ is error
    assert type(error).__name__ in str(found)


class _Connection:
    """What `bounded` touches of a connection: closing its libpq handle."""

    def __init__(self) -> None:
        self.finished = 0
        self.closed = False
        self.pgconn = SimpleNamespace(finish=self._finish)

    def _finish(self) -> None:
        self.finished += 1
        self.closed = True


async def _answer(value: Any) -> Any:
    return value


async def test_an_answer_in_time_is_returned_and_leaves_the_connection() -> None:
    connection = _Connection()
    assert await bounded(connection, _answer(7), seconds=5) == 7  # type: ignore[arg-type]
    assert connection.finished == 0 and not is_broken(connection)  # type: ignore[arg-type]


async def test_a_statement_past_its_time_closes_the_connection() -> None:
    connection = _Connection()
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    with pytest.raises(DatabaseUnavailable, match="within 0.01 s"):
        await bounded(connection, never, seconds=0.01)  # type: ignore[arg-type]
    assert connection.finished == 1 and is_broken(connection)  # type: ignore[arg-type]


async def test_a_driver_error_in_time_is_the_callers() -> None:
    async def fails() -> None:
        raise psycopg.OperationalError("lost")

    connection = _Connection()
    with pytest.raises(psycopg.OperationalError):
        await bounded(connection, fails(), seconds=5)  # type: ignore[arg-type]
    assert connection.finished == 0


async def test_a_cancellation_from_elsewhere_stays_a_cancellation() -> None:
    connection = _Connection()
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    task = asyncio.ensure_future(bounded(connection, never, seconds=5))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert connection.finished == 0


def test_no_connection_is_not_broken() -> None:
    assert not is_broken(None)
