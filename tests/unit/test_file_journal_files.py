"""What only the file journal has: one NDJSON file per session and a marker per running
session, read by another journal on the same folder (another process) as they grow; an index
evicted from the bounded cache rebuilt from the file; a torn last line (a crash mid-write)
cut before the next commit; marks that skip sessions with no file."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from commerce_agent.agent.events import event
from commerce_agent.agent.journals import file as file_journal
from commerce_agent.agent.journals.file import FileJournal
from commerce_agent.agent.records import SessionRecord
from commerce_agent.ids import new_id


def record(status: str = "running") -> SessionRecord:
    return SessionRecord(id=new_id("ses"), token_hash="h", created_at="now", agent="shopper",
                         status=status)  # type: ignore[arg-type]


def texts(lines: list[bytes]) -> list[str]:
    return [json.loads(line)["data"]["text"] for line in lines]


def delta(text: str) -> object:
    return event("agent.content.delta", {"text": text})


@pytest.fixture
async def journal(tmp_path: Path) -> AsyncIterator[FileJournal]:
    opened = FileJournal(str(tmp_path / "journal"))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


async def test_each_session_is_one_file_and_running_ones_are_marked(
        journal: FileJournal) -> None:
    made = await journal.create(record(), [delta("a")])  # type: ignore[list-item]
    folder = Path(journal.directory)
    assert (folder / f"{made.id}.ndjson").is_file()
    assert (folder / "running" / made.id).exists()
    assert [found.id for found in await journal.running()] == [made.id]
    await journal.commit(made, [delta("b")], status="idle")  # type: ignore[list-item]
    assert not (folder / "running" / made.id).exists()
    assert await journal.running() == []


async def test_another_journal_on_the_folder_reads_what_is_appended(
        journal: FileJournal) -> None:
    other = FileJournal(journal.directory)
    await other.open()
    try:
        made = await journal.create(record(), [delta("a")])  # type: ignore[list-item]
        assert texts(await other.read(made.id, 0)) == ["a"]
        made = await journal.commit(made, [delta("b"), delta("c")])  # type: ignore[list-item]
        assert texts(await other.read(made.id, 0)) == ["a", "b", "c"]
        assert texts(await other.read(made.id, 1, limit=1)) == ["b"]
        loaded = await other.load(made.id)
        assert loaded is not None and loaded.length == 3 and loaded.version == made.version
    finally:
        await other.close()


async def test_an_evicted_index_is_rebuilt_from_the_file(journal: FileJournal,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(file_journal, "KEPT_INDEXES", 2)
    made = [await journal.create(record(), [delta(f"s{n}")])  # type: ignore[list-item]
            for n in range(4)]
    for session in made:
        assert texts(await journal.read(session.id, 0)) == [f"s{made.index(session)}"]
    assert len(journal._indexes) <= 2
    first = await journal.commit(made[0], [delta("more")])  # type: ignore[list-item]
    assert texts(await journal.read(first.id, 0)) == ["s0", "more"]


async def test_a_torn_last_line_is_cut_before_the_next_commit(journal: FileJournal) -> None:
    made = await journal.create(record(), [delta("a")])  # type: ignore[list-item]
    path = Path(journal.directory) / f"{made.id}.ndjson"
    with open(path, "ab") as handle:  # a crash mid-append: half a line, no newline
        handle.write(b'{"type":"agent.content.delta","data":{"te')
    fresh = FileJournal(journal.directory)  # as after a restart
    await fresh.open()
    try:
        loaded = await fresh.load(made.id)
        assert loaded is not None
        assert texts(await fresh.read(made.id, 0)) == ["a"]
        after = await fresh.commit(loaded, [delta("b")])  # type: ignore[list-item]
        assert texts(await fresh.read(after.id, 0)) == ["a", "b"]
        # Every line whole again: records (R…) and events that parse.
        for line in path.read_bytes().splitlines(True):
            assert line.endswith(b"\n")
            json.loads(line[1:] if line.startswith(b"R") else line)
    finally:
        await fresh.close()


async def test_marks_grow_with_commits_and_skip_sessions_without_a_file(
        journal: FileJournal) -> None:
    made = await journal.create(record(), [delta("a")])  # type: ignore[list-item]
    missing = new_id("ses")
    before = await journal.marks([made.id, missing])
    assert list(before) == [made.id]
    await journal.commit(made, [delta("b")])  # type: ignore[list-item]
    after = await journal.marks([made.id])
    assert int(after[made.id]) > int(before[made.id])  # type: ignore[call-overload]
    assert await journal.marks([]) == {}


async def test_a_marker_without_its_session_is_not_running(journal: FileJournal) -> None:
    stray = new_id("ses")
    Path(journal.directory, "running", stray).touch()
    assert await journal.running() == []
    assert await journal.load(stray) is None
    assert await journal.read(stray, 0) == []
    assert os.path.exists(os.path.join(journal.directory, "running", stray))
