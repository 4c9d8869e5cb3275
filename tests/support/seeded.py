"""One seeded SQLite file per test session, copied for each test that wants a seeded database.

Migrating and seeding a new file takes most of a second and more on a busy machine (the demo
users' scrypt hashes alone are a third of it), and nearly every in-process test starts from
exactly that state. So the session builds it once, the way the app does on start-up, and each
test gets a byte copy; the app's own start-up then finds the stores there and seeds nothing.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from commerce_agent.app import create_app
from commerce_agent.settings import Settings


def build_template(folder: Path) -> Path:
    """Migrate and seed a new SQLite file in `folder` through the app's own start-up."""
    path = folder / "seeded.db"
    application = create_app(Settings(db_path=str(path), base_url="http://test",
                                      simulate=False, sqlite_synchronous="NORMAL"))

    async def start_and_stop() -> None:
        async with application.router.lifespan_context(application):
            pass

    # Its own thread and event loop: the caller may be inside a test's running loop.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, start_and_stop()).result()
    for suffix in ("-wal", "-shm", "-journal"):
        assert not os.path.exists(f"{path}{suffix}"), f"{path}{suffix} left after closing"
    return path


def copy_seeded(template: Path, target: str) -> None:
    """Give `target` (a SQLite file path that does not exist yet) the seeded contents."""
    if not os.path.exists(target):
        shutil.copyfile(template, target)
