"""The journal contract, run unchanged against memory, file, sqlite (on both database
backends) and redis."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import pytest

from commerce_agent.agent.events import event
from commerce_agent.agent.journals import Conflict, Journal, SessionExists
from commerce_agent.agent.records import SessionRecord
from commerce_agent.ids import new_id
from tests.support.agent_support import (
    JOURNALS,
    drop_redis_keys,
    journal_spec,
    opened_journal,
    parse,
)

# (journal, backend of the app database beside it). The sqlite journal keeps its sessions in
# the app's database, so it runs on PostgreSQL too; the others do not touch the database.
CASES = [*((kind, "sqlite") for kind in JOURNALS), ("sqlite", "postgres")]
CASE_IDS = [*JOURNALS, "sqlite-on-postgres"]
SHARED = [case for case in CASES if case[0] != "memory"]  # memory lives in one process


def app_database(backend: str, tmp_path: os.PathLike[str], request: pytest.FixtureRequest,
                 name: str) -> str:
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return os.path.join(tmp_path, name)


@pytest.fixture(params=CASES, ids=CASE_IDS)
def case(request: pytest.FixtureRequest) -> tuple[str, str]:
    kind, backend = request.param
    return kind, backend


@pytest.fixture
def spec(case: tuple[str, str], tmp_path: os.PathLike[str]) -> str:
    return journal_spec(case[0], tmp_path)


@pytest.fixture
async def journal(spec: str, case: tuple[str, str], tmp_path: os.PathLike[str],
                  request: pytest.FixtureRequest) -> AsyncIterator[Journal]:
    async with opened_journal(spec, app_database(case[1], tmp_path, request, "a.db")) as opened:
        yield opened
    if spec.startswith("redis"):
        await drop_redis_keys(spec)


def new_record(status: str = "running") -> SessionRecord:
    return SessionRecord(id=new_id("ses"), token_hash="h", created_at="now", agent="shopper",
                         status=status)  # type: ignore[arg-type]


def deltas(count: int, start: int = 0) -> list:  # type: ignore[type-arg]
    return [event("agent.content.delta", {"text": f"t{start + i}"}) for i in range(count)]


async def test_create_numbers_events_from_zero(journal: Journal) -> None:
    record = await journal.create(new_record(), [event("session.started", {}),
                                                 event("agent.start")])
    assert (record.version, record.length) == (1, 2)
    events = parse(await journal.read(record.id, 0))
    assert events == [{"type": "session.started", "data": {}, "streamIndex": 0},
                      {"type": "agent.start", "streamIndex": 1}]
    loaded = await journal.load(record.id)
    assert loaded is not None and loaded.version == 1 and loaded.length == 2


async def test_unknown_session_reads_nothing(journal: Journal) -> None:
    assert await journal.load(new_id("ses")) is None
    assert await journal.read(new_id("ses"), 0) == []


async def test_create_twice_is_refused(journal: Journal) -> None:
    record = new_record()
    await journal.create(record, [])
    with pytest.raises(SessionExists):
        await journal.create(record, [event("agent.start")])
    assert await journal.read(record.id, 0) == []


async def test_commit_appends_contiguously_and_updates_the_record(journal: Journal) -> None:
    record = await journal.create(new_record(), deltas(3))
    record = await journal.commit(record, deltas(2, 3), status="idle", turn=4)
    record = await journal.commit(record, [])
    record = await journal.commit(record, deltas(1, 5))
    loaded = await journal.load(record.id)
    assert loaded is not None
    assert (loaded.version, loaded.length, loaded.status, loaded.turn) == (4, 6, "idle", 4)
    events = parse(await journal.read(record.id, 0))
    assert [e["streamIndex"] for e in events] == list(range(6))
    assert [e["data"]["text"] for e in events] == [f"t{i}" for i in range(6)]


async def test_a_stale_commit_conflicts_and_writes_nothing(journal: Journal) -> None:
    first = await journal.create(new_record(), deltas(1))
    await journal.commit(first, deltas(1, 1))
    with pytest.raises(Conflict):
        await journal.commit(first, deltas(5, 100), status="failed")
    loaded = await journal.load(first.id)
    assert loaded is not None and loaded.status == "running" and loaded.length == 2
    assert len(await journal.read(first.id, 0)) == 2


async def test_concurrent_commits_on_one_version_one_wins(journal: Journal) -> None:
    record = await journal.create(new_record(), [])
    results = await asyncio.gather(*(journal.commit(record, deltas(1, i)) for i in range(5)),
                                   return_exceptions=True)
    assert sum(not isinstance(result, Exception) for result in results) == 1
    assert all(isinstance(result, Conflict) for result in results if
               isinstance(result, Exception))
    assert len(await journal.read(record.id, 0)) == 1


async def test_replay_from_every_index_is_the_same_suffix(journal: Journal) -> None:
    record = await journal.create(new_record(), deltas(7))
    record = await journal.commit(record, [])
    await journal.commit(record, deltas(6, 7))
    whole = await journal.read(record.id, 0)
    assert len(whole) == 13
    for start in range(15):
        assert await journal.read(record.id, start) == whole[start:]
        assert await journal.read(record.id, start, 2) == whole[start:start + 2]


async def test_running_lists_sessions_with_a_running_turn(journal: Journal) -> None:
    running = await journal.create(new_record(), [])
    idle = await journal.create(new_record("idle"), [])
    stopped = await journal.create(new_record(), [])
    await journal.commit(stopped, [event("session.waiting")], status="idle")
    restarted = await journal.commit(idle, [], status="running")
    ids = {record.id for record in await journal.running()}
    assert {running.id, restarted.id} <= ids
    assert stopped.id not in ids


async def test_follow_wakes_on_commit_without_loss_or_duplicates(journal: Journal) -> None:
    record = await journal.create(new_record(), deltas(2))
    received: list[bytes] = []

    async def follower() -> None:
        async for batch in journal.follow(record.id, 1, keepalive=5.0):
            received.extend(batch)
            if len(received) >= 21:
                return

    task = asyncio.create_task(follower())
    for batch in range(10):
        record = await journal.commit(record, deltas(2, 2 + 2 * batch))
        await asyncio.sleep(0)
    await asyncio.wait_for(task, 10)
    events = parse(received)
    assert [e["streamIndex"] for e in events] == list(range(1, 22))


async def test_follow_sends_keepalives_when_idle(journal: Journal) -> None:
    record = await journal.create(new_record(), deltas(1))
    batches = []
    async for batch in journal.follow(record.id, 1, keepalive=0.05):
        batches.append(batch)
        if len(batches) == 2:
            break
    assert batches == [[], []]


@pytest.mark.parametrize(("kind", "store"), SHARED,
                         ids=[CASE_IDS[CASES.index(case)] for case in SHARED])
async def test_a_second_instance_sees_and_follows_the_first(
        kind: str, store: str, tmp_path: os.PathLike[str],
        request: pytest.FixtureRequest) -> None:
    spec = journal_spec(kind, tmp_path)
    db_path = app_database(store, tmp_path, request, "shared.db")
    async with opened_journal(spec, db_path) as one, opened_journal(spec, db_path) as two:
        record = await one.create(new_record(), deltas(1))
        seen = await two.load(record.id)
        assert seen is not None and seen.version == 1
        received: list[bytes] = []

        async def follower() -> None:
            async for batch in two.follow(record.id, 0, keepalive=5.0):
                received.extend(batch)
                if len(received) >= 6:
                    return

        task = asyncio.create_task(follower())
        for i in range(5):
            record = await one.commit(record, deltas(1, i + 1))
            await asyncio.sleep(0.02)
        await asyncio.wait_for(task, 10)
        assert [e["streamIndex"] for e in parse(received)] == list(range(6))
        with pytest.raises(Conflict):
            await two.commit(seen, deltas(1))
        latest = await two.load(record.id)
        assert latest is not None
        await two.commit(latest, deltas(1, 6))
        assert len(await one.read(record.id, 0)) == 7
    if spec.startswith("redis"):
        await drop_redis_keys(spec)


async def test_file_journal_cuts_a_torn_line(tmp_path: os.PathLike[str]) -> None:
    spec = journal_spec("file", tmp_path)
    async with opened_journal(spec, os.path.join(tmp_path, "a.db")) as journal:
        record = await journal.create(new_record(), deltas(2))
        path = os.path.join(spec[len("file:"):], f"{record.id}.ndjson")
        with open(path, "ab") as handle:
            handle.write(b'{"type":"agent.content.delta","da')  # a crash mid-write
        assert len(await journal.read(record.id, 0)) == 2
        await journal.commit(record, deltas(1, 2))
        events = parse(await journal.read(record.id, 0))
        assert [e["streamIndex"] for e in events] == [0, 1, 2]


async def test_file_journal_keeps_a_commit_lock_only_while_it_is_used(
        tmp_path: os.PathLike[str]) -> None:
    from commerce_agent.agent.journals.file import FileJournal

    spec = journal_spec("file", tmp_path)
    async with opened_journal(spec, os.path.join(tmp_path, "a.db")) as journal:
        assert isinstance(journal, FileJournal)
        records = [await journal.create(new_record(), []) for _ in range(20)]
        for record in records:
            await journal.commit(record, deltas(1))
        assert journal._locks == {}
        # Commits racing on one session share its lock (one wins, the others conflict), and
        # the lock goes when the last of them is done.
        record = await journal.create(new_record(), [])
        results = await asyncio.gather(*(journal.commit(record, deltas(1, i))
                                         for i in range(5)), return_exceptions=True)
        assert sum(not isinstance(result, Exception) for result in results) == 1
        assert journal._locks == {}
        assert len(await journal.read(record.id, 0)) == 1


async def test_many_concurrent_readers(journal: Journal) -> None:
    record = await journal.create(new_record(), deltas(3))
    loads = await asyncio.gather(*(journal.load(record.id) for _ in range(300)))
    reads = await asyncio.gather(*(journal.read(record.id, 1) for _ in range(300)))
    assert all(loaded is not None and loaded.length == 3 for loaded in loads)
    assert all(len(lines) == 2 for lines in reads)
