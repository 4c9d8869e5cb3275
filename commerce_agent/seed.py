"""Load the sample stores and demo users from sample_data/ into the database."""

from __future__ import annotations

import json
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from commerce_agent import clock
from commerce_agent.auth.passwords import hash_password
from commerce_agent.commerce.services.catalog import store_cache
from commerce_agent.commerce.shop import writes
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import lifecycle as lifecycle_storage
from commerce_agent.db import Database, Transaction

# --reset keeps accounts and tokens (so CLI-minted tokens keep working) and clears the rest;
# auth_changes goes with them: its one row is the counter under which each process keeps the
# tokens it has read (auth/bearer.py), and without it every request would read its token.
_KEPT_ON_RESET = {"schema_migrations", "users", "tokens", "auth_changes"}


def sample_data_dir() -> Traversable:
    """sample_data/ inside the wheel, or at the repository root in a source checkout."""
    packaged = resources.files("commerce_agent") / "sample_data"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "sample_data"


def load_stores(folder: Traversable | None = None) -> list[dict[str, Any]]:
    root = (folder or sample_data_dir()) / "stores"
    files = sorted((entry for entry in root.iterdir() if entry.name.endswith(".json")),
                   key=lambda entry: entry.name)
    return [json.loads(entry.read_text(encoding="utf-8")) for entry in files]


def load_users(folder: Traversable | None = None) -> list[dict[str, Any]]:
    data = json.loads(((folder or sample_data_dir()) / "users.json").read_text(encoding="utf-8"))
    users: list[dict[str, Any]] = data["users"]
    return users


async def _clear(tx: Transaction) -> None:
    """Empty every table but the kept ones (foreign keys are checked at COMMIT)."""
    if tx.dialect == "postgresql":
        rows = await tx.fetch_all(
            "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()")
        names = sorted(str(row["name"]) for row in rows if row["name"] not in _KEPT_ON_RESET)
        if names:
            # One statement for all: TRUNCATE checks references between the tables it empties.
            await tx.execute("TRUNCATE " + ", ".join(f'"{name}"' for name in names))
        return
    await tx.execute("PRAGMA defer_foreign_keys = ON")
    tables = await tx.fetch_all(
        # Virtual tables (the search index) are emptied through their own table,
        # never through their shadow tables.
        "SELECT name FROM pragma_table_list WHERE schema = 'main' "
        "AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite_%'")
    for row in tables:
        if row["name"] not in _KEPT_ON_RESET:
            await tx.execute(f'DELETE FROM "{row["name"]}"')  # noqa: S608 - own tables


# PostgreSQL advisory lock key of seeding (db/postgres.py's MIGRATION_LOCK is one below).
SEED_LOCK = 7_202_611_180_003


async def seed(db: Database, *, reset: bool = False) -> bool:
    """Seed stores and demo users; returns False when the data was already there."""
    async with db.transaction() as tx:
        tx.notify(catalog_storage.CHANGED)
        tx.after_commit(lambda: store_cache.forget(db.path))
        if tx.dialect == "postgresql":
            # Processes starting together seed once: the others wait here, then (a new
            # snapshot per statement) find the first's stores. SQLite's writer already waits.
            await tx.execute(f"SELECT pg_advisory_xact_lock({SEED_LOCK})")
        if reset:
            await _clear(tx)
        existing = await tx.fetch_one("SELECT COUNT(*) AS n FROM stores")
        if existing is not None and existing["n"] > 0:
            return False
        for position, store in enumerate(load_stores()):
            await writes.add_store(tx, store, position=position)
            await lifecycle_storage.set_simulated(tx, store["id"], True)  # a demo moves itself
        for user in load_users():
            await tx.execute(
                "INSERT INTO users (id, email, name, password_hash, created_at) "
                "VALUES (:id, :email, :name, :hash, :at) ON CONFLICT DO NOTHING",
                {"id": user["id"], "email": user["email"].lower(), "name": user["name"],
                 "hash": hash_password(user["password"]), "at": clock.now_iso()},
            )
    return True
