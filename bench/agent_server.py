"""The server process of bench/agent_journals.py: `commerce-agent serve` with one extra step.

    python bench/agent_server.py --db PATH --journal SPEC --port PORT --preload 10000 --out FILE

Before serving, it stores a session holding PRELOAD events in the journal (through the
journal's own commits, 500 events each) and writes that session's id to FILE, so the replay
can be measured on every backend, the memory journal included.
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

from commerce_agent import clock
from commerce_agent.agent.events import event
from commerce_agent.agent.records import SessionRecord
from commerce_agent.agent.sessions import hash_secret
from commerce_agent.app import create_app
from commerce_agent.ids import new_id
from commerce_agent.settings import Settings


def preloader(count: int, out: Path
              ) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def preload(app: Starlette) -> AsyncIterator[None]:
        journal = app.state.agent.journal
        record = await journal.create(SessionRecord(
            id=new_id("ses"), token_hash=hash_secret(secrets.token_urlsafe()),
            created_at=clock.now_iso(), agent="shopper",
            status="idle"), [event("session.started", {})])
        while record.length < count - 1:
            batch = min(500, count - 1 - record.length)
            record = await journal.commit(record, [
                event("agent.content.delta", {"text": f"fragment {record.length + i} "})
                for i in range(batch)])
        record = await journal.commit(record, [event("session.waiting")])
        out.write_text(record.id)
        yield

    return preload


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--preload", type=int, default=10_000)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    settings = Settings(db_path=args.db, base_url=f"http://127.0.0.1:{args.port}",
                        simulate=False, journal=args.journal)
    app = create_app(settings, workers=[preloader(args.preload, args.out)])
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning",
                access_log=False, limit_concurrency=None, backlog=4096)


if __name__ == "__main__":
    main()
