"""One seeded SQLite file per test session, copied for each test that wants a seeded database.

Migrating and seeding a new file takes most of a second and more on a busy machine (the demo
users' scrypt hashes alone are a third of it), and nearly every in-process test starts from
exactly that state. So the session builds it once, the way the app does on start-up, and each
test gets a byte copy; the app's own start-up then finds the stores there and seeds nothing.

The copy's demo users keep their passwords, hashed in the same `scrypt$n$r$p$salt$digest` form
but at scrypt's lowest cost (`verify_password` reads the cost from the stored hash): a sign-in
at the real cost takes tens of milliseconds of CPU, and the agent conversations sign in
hundreds of times. Passwords a test registers are hashed at the real cost.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import secrets
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from commerce_agent.app import create_app
from commerce_agent.seed import load_users
from commerce_agent.settings import Settings

# scrypt's smallest cost (n a power of two above 1); the form is commerce_agent.auth.passwords'.
_CHEAP_N, _CHEAP_R, _CHEAP_P = 2, 1, 1


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
    cheapen_demo_passwords(path)
    return path


def cheap_hash(password: str) -> str:
    """`password` hashed as commerce_agent.auth.passwords.hash_password does, at the least cost."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_CHEAP_N, r=_CHEAP_R, p=_CHEAP_P,
                            dklen=32)
    encode = base64.urlsafe_b64encode
    return (f"scrypt${_CHEAP_N}${_CHEAP_R}${_CHEAP_P}$"
            f"{encode(salt).decode()}${encode(digest).decode()}")


def cheapen_demo_passwords(path: Path) -> None:
    """Rehash the demo users' passwords in the closed SQLite file `path` at the least cost."""
    with contextlib.closing(sqlite3.connect(path)) as connection, connection:
        for user in load_users():
            connection.execute("UPDATE users SET password_hash = ? WHERE id = ?",
                               (cheap_hash(user["password"]), user["id"]))
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, f"{wal} left after rehashing"


def copy_seeded(template: Path, target: str) -> None:
    """Give `target` (a SQLite file path that does not exist yet) the seeded contents."""
    if not os.path.exists(target):
        shutil.copyfile(template, target)
