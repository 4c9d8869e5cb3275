"""Load the sample stores and demo users from sample_data/ into the database."""

from __future__ import annotations

import json
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from commerce_agent import clock
from commerce_agent.auth.passwords import hash_password
from commerce_agent.commerce.services import store_cache
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.db import Database, Transaction

# --reset keeps accounts and tokens (so CLI-minted tokens keep working) and clears the rest.
_KEPT_ON_RESET = {"schema_migrations", "users", "tokens"}


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


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


async def _insert_store(tx: Transaction, position: int, store: dict[str, Any]) -> None:
    fields = ("id", "name", "description", "currency", "location", "metadata")
    doc: dict[str, Any] = {key: store[key] for key in fields if key in store}
    doc["catalogIds"] = [catalog["id"] for catalog in store.get("catalogs", [])]
    await tx.execute(
        "INSERT INTO stores (id, position, currency, doc, translations) "
        "VALUES (:id, :position, :currency, :doc, :translations)",
        {"id": store["id"], "position": position, "currency": store["currency"],
         "doc": _dumps(doc), "translations": _dumps(store.get("translations", {}))},
    )
    for promotion in store.get("promotions", []):
        await tx.execute(
            "INSERT INTO promotions (store_id, code, doc) VALUES (:store, :code, :doc)",
            {"store": store["id"], "code": promotion["code"].upper(), "doc": _dumps(promotion)},
        )
    for catalog_position, catalog in enumerate(store.get("catalogs", [])):
        catalog_doc = {key: value for key, value in catalog.items() if key != "items"}
        await tx.execute(
            "INSERT INTO catalogs (id, store_id, position, doc) "
            "VALUES (:id, :store, :position, :doc)",
            {"id": catalog["id"], "store": store["id"], "position": catalog_position,
             "doc": _dumps(catalog_doc)},
        )
        for item_position, item in enumerate(catalog.get("items", [])):
            await _insert_item(tx, store["id"], catalog["id"], item_position, item)


async def _insert_item(tx: Transaction, store_id: str, catalog_id: str, position: int,
                       item: dict[str, Any]) -> None:
    doc = {key: value for key, value in item.items() if key != "stock"}
    await tx.execute(
        "INSERT INTO items (id, catalog_id, store_id, position, name, price, doc) "
        "VALUES (:id, :catalog, :store, :position, :name, :price, :doc)",
        {"id": item["id"], "catalog": catalog_id, "store": store_id, "position": position,
         "name": item["name"], "price": item["price"]["amount"], "doc": _dumps(doc)},
    )
    variants = item.get("metadata", {}).get("dev.commerce.product.variants", {}).get("variants")
    stock_rows = []
    if variants:
        stock_rows = [(variant["id"], int(variant["stock"])) for variant in variants
                      if variant.get("stock") is not None]
    elif item.get("stock") is not None:
        stock_rows = [("", int(item["stock"]))]
    for variant_id, quantity in stock_rows:
        await tx.execute(
            "INSERT INTO stock (item_id, variant_id, quantity) VALUES (:item, :variant, :qty)",
            {"item": item["id"], "variant": variant_id, "qty": quantity},
        )


async def seed(db: Database, *, reset: bool = False) -> bool:
    """Seed stores and demo users; returns False when the data was already there."""
    async with db.transaction() as tx:
        tx.notify(catalog_storage.CHANGED)
        tx.after_commit(lambda: store_cache.forget(db.path))
        if reset:
            await tx.execute("PRAGMA defer_foreign_keys = ON")
            tables = await tx.fetch_all(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%'")
            for row in tables:
                if row["name"] not in _KEPT_ON_RESET:
                    await tx.execute(f'DELETE FROM "{row["name"]}"')  # noqa: S608 - own tables
        existing = await tx.fetch_one("SELECT COUNT(*) AS n FROM stores")
        if existing is not None and existing["n"] > 0:
            return False
        for position, store in enumerate(load_stores()):
            await _insert_store(tx, position, store)
        for user in load_users():
            await tx.execute(
                "INSERT OR IGNORE INTO users (id, email, name, password_hash, created_at) "
                "VALUES (:id, :email, :name, :hash, :at)",
                {"id": user["id"], "email": user["email"].lower(), "name": user["name"],
                 "hash": hash_password(user["password"]), "at": clock.now_iso()},
            )
    return True
