"""Invariants of every local journal (memory, file, sqlite) under any sequence of commits:
stream indexes run 0, 1, 2… with no gap; a stale commit writes nothing; a read from any index
(with any limit) is that slice of the whole; a follower from any index gets exactly the events
from there on, as one reopening the storage later does."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commerce_agent.agent.events import event
from commerce_agent.agent.journals import Conflict, Journal, open_journal
from commerce_agent.agent.records import SessionRecord
from commerce_agent.db import database_for
from commerce_agent.ids import new_id
from tests.support.agent_support import journal_spec, opened_journal, parse

LOCAL = ["memory", "file", "sqlite"]
# A step: append a batch of this many events, or (None) try a commit on a stale record.
STEPS = st.lists(st.one_of(st.integers(0, 4), st.none()), max_size=8)


@pytest.fixture(params=LOCAL)
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return journal_spec(request.param, tmp_path)


@pytest.fixture
async def journal(spec: str, tmp_path: Path) -> AsyncIterator[Journal]:
    async with opened_journal(spec, str(tmp_path / "a.db")) as opened:
        yield opened


def texts(count: int, start: int) -> list:  # type: ignore[type-arg]
    return [event("agent.content.delta", {"text": f"t{start + i}"}) for i in range(count)]


async def play(journal: Journal, first: int, steps: list[int | None]) -> SessionRecord:
    """Create a session with `first` events, then apply `steps`; checks each stale commit."""
    record = await journal.create(SessionRecord(id=new_id("ses"), token_hash="h",
                                                created_at="now", agent="shopper"),
                                  texts(first, 0))
    stale = record
    for step in steps:
        if step is None:
            if stale.version != record.version:
                with pytest.raises(Conflict):
                    await journal.commit(stale, texts(2, 999), status="failed")
            continue
        stale, record = record, await journal.commit(record, texts(step, record.length),
                                                     turn=record.turn + 1)
    return record


SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(first=st.integers(0, 3), steps=STEPS, start=st.integers(0, 25),
       limit=st.one_of(st.none(), st.integers(1, 5)))
async def test_indexes_are_contiguous_and_any_slice_reads_the_same(
        journal: Journal, first: int, steps: list[int | None], start: int,
        limit: int | None) -> None:
    record = await play(journal, first, steps)
    expected = first + sum(step for step in steps if step is not None)
    loaded = await journal.load(record.id)
    assert loaded is not None and loaded.length == record.length == expected
    assert loaded.version == 1 + sum(step is not None for step in steps)
    assert loaded.status != "failed"  # no stale commit got through
    whole = await journal.read(record.id, 0)
    events = parse(whole)
    assert [e["streamIndex"] for e in events] == list(range(expected))
    assert [e["data"]["text"] for e in events] == [f"t{i}" for i in range(expected)]
    assert await journal.read(record.id, start, limit) == \
        whole[start:None if limit is None else start + limit]


@SETTINGS
@given(first=st.integers(0, 3), before=STEPS, after=STEPS, start=st.integers(0, 20))
async def test_a_follower_from_any_index_misses_and_repeats_nothing(
        journal: Journal, first: int, before: list[int | None], after: list[int | None],
        start: int) -> None:
    record = await play(journal, first, before)
    collected: list[bytes] = []
    target = record.length + sum(step for step in after if step is not None)

    async def follower() -> None:
        async for batch in journal.follow(record.id, start, keepalive=0.05):
            collected.extend(batch)
            if len(collected) >= target - min(start, record.length):
                return

    task = asyncio.create_task(follower())
    await asyncio.sleep(0)
    for step in after:
        if step is not None:
            record = await journal.commit(record, texts(step, record.length))
    if target > start:
        await asyncio.wait_for(task, 5)
    else:
        task.cancel()
    whole = await journal.read(record.id, 0)
    assert collected == whole[min(start, len(whole)):][:len(collected)]
    if target > start:
        assert collected == whole[start:]


@pytest.mark.parametrize("kind", ["file", "sqlite"])
async def test_a_reopened_journal_replays_the_same_bytes(kind: str, tmp_path: Path) -> None:
    spec, db_path = journal_spec(kind, tmp_path), str(tmp_path / "a.db")
    async with opened_journal(spec, db_path) as journal:
        record = await play(journal, 2, [3, None, 0, 1, None, 4])
        written = await journal.read(record.id, 0)
    async with opened_journal(spec, db_path) as reopened:
        assert await reopened.read(record.id, 0) == written
        assert await reopened.load(record.id) == record
        later = await reopened.commit(record, texts(1, record.length))
        assert parse(await reopened.read(record.id, later.length - 1)) == [
            {"type": "agent.content.delta", "data": {"text": f"t{record.length}"},
             "streamIndex": record.length}]


def test_journal_specs_are_checked(tmp_path: Path) -> None:
    database = database_for(str(tmp_path / "x.db"))
    assert open_journal("database", database).name == "sqlite"
    assert open_journal(f"file:{os.path.join(tmp_path, 'j')}", database).name == "file"
    default = open_journal("file", database)
    assert default.name == "file"
    with pytest.raises(ValueError, match="unknown journal 'postgres://x'"):
        open_journal("postgres://x", database)
