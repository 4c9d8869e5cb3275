"""Every change to stores, catalogs, items, stock and promotions: seed, `catalog import` and the
admin API all write through here, inside the caller's transaction.

Each change is live at once: cached catalog reads of this process are dropped after commit
(storage.catalog.CHANGED), cached store rules too (store_cache.forget) when a store or its
promotions change, and the store's merchants hear of it through webhooks (`product.created`,
`product.updated`, `inventory.updated`) written in the same transaction.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgspec

from commerce_agent.commerce.capability_ids import PRODUCT_VARIANTS as VARIANTS
from commerce_agent.commerce.services.catalog import store_cache
from commerce_agent.commerce.services.webhooks import subscriptions as webhooks
from commerce_agent.commerce.shop.checks import ensure_stored
from commerce_agent.commerce.storage import catalog as catalog_storage
from commerce_agent.commerce.storage import catalog_writes as storage
from commerce_agent.commerce.storage import lifecycle as lifecycle_storage
from commerce_agent.db import Database, Transaction
from commerce_agent.errors import CommerceError, not_found, validation_error

# Admin store field: the fulfillment simulator moves this store's orders (sample stores).
SIMULATE = "simulateFulfillment"
STORE_FIELDS = ("id", "name", "description", "currency", "location", "metadata")


def _touch(tx: Transaction, *, store: bool = False) -> None:
    tx.notify(catalog_storage.CHANGED)
    if store:
        path = tx.path
        tx.after_commit(lambda: store_cache.forget(path))


def stock_rows(item: dict[str, Any]) -> list[tuple[str, int]]:
    """(variant id or '', units) for each stock-tracked part of an item document."""
    variants = item.get("metadata", {}).get(VARIANTS, {}).get("variants")
    if variants:
        return [(str(v["id"]), int(v["stock"])) for v in variants if v.get("stock") is not None]
    if item.get("stock") is not None:
        return [("", int(item["stock"]))]
    return []


def admin_item(row: Any, stock: dict[str, int]) -> dict[str, Any]:
    """The item as its merchant sees it: the stored document with status and live stock."""
    doc: dict[str, Any] = msgspec.json.decode(row["doc"])
    doc.update(storeId=row["store_id"], catalogId=row["catalog_id"], status=row["status"])
    variants = doc.get("metadata", {}).get(VARIANTS, {}).get("variants", [])
    for variant in variants:
        variant["stock"] = stock.get(variant["id"])
    doc["stock"] = None if variants else stock.get("")
    return doc


def decode(raw: str | bytes) -> dict[str, Any]:
    doc: dict[str, Any] = msgspec.json.decode(raw)
    return doc


def admin_items(rows: list[Any]) -> list[dict[str, Any]]:
    """Items read with their stock rows (one row per item and stock row), in order."""
    firsts: dict[str, Any] = {}
    stock: dict[str, dict[str, int]] = {}
    for row in rows:
        firsts.setdefault(row["id"], row)
        held = stock.setdefault(row["id"], {})
        if row["variant_id"] is not None:
            held[row["variant_id"]] = int(row["quantity"])
    return [admin_item(row, stock[item_id]) for item_id, row in firsts.items()]


async def catalog_items(db: Database, catalog_id: str) -> list[dict[str, Any]]:
    return admin_items(await storage.catalog_items_all(db, catalog_id))


def store_file_head(row: Any) -> dict[str, Any]:
    """A stored store as the head of a store file (docs/sample-data.md)."""
    doc = decode(row["doc"])
    doc.pop("catalogIds", None)
    translations = decode(row["translations"])
    if translations:
        doc["translations"] = translations
    return doc


def export_item(item: dict[str, Any]) -> dict[str, Any]:
    """An admin item as it stands in a store file (status only when not active)."""
    doc = {key: value for key, value in item.items()
           if key not in ("storeId", "catalogId", "status")}
    if item.get("status", "active") != "active":
        doc["status"] = item["status"]
    return doc


async def _emit(tx: Transaction, store_id: str, event: str, data: dict[str, Any],
                previous: dict[str, Any] | None = None) -> None:
    for merchant_id in await storage.store_merchant_ids(tx, store_id):
        await webhooks.emit(tx, merchant_id, event, data, previous, store_id=store_id)


async def load_item(tx: Transaction, item_id: str) -> dict[str, Any]:
    row = await storage.item_row(tx, item_id)
    if row is None:
        raise not_found("item", item_id)
    return admin_item(row, await storage.item_stock(tx, item_id))


# --- stores -----------------------------------------------------------------------------------

async def add_store(tx: Transaction, store: dict[str, Any], *, position: int | None = None
                    ) -> None:
    """Insert a whole store file (docs/sample-data.md): the store, its promotions, catalogs,
    items and stock. The store id must be new."""
    doc: dict[str, Any] = {key: store[key] for key in STORE_FIELDS if key in store}
    ensure_stored(doc)
    doc["catalogIds"] = []  # put_catalog adds each
    await storage.insert_store(tx, store["id"], store["currency"], doc,
                               store.get("translations", {}), position)
    for promotion in store.get("promotions", []):
        ensure_stored(promotion)
        await storage.upsert_promotion(tx, store["id"], promotion)
    for catalog in store.get("catalogs", []):
        await put_catalog(tx, store["id"], catalog)
        for item in catalog.get("items", []):
            await put_item(tx, store["id"], catalog["id"], item, new_store=True)
    _touch(tx, store=True)


async def update_store(tx: Transaction, store_id: str, changes: dict[str, Any]
                       ) -> dict[str, Any]:
    """Replace top-level fields of the store document (metadata entries one by one)."""
    row = await catalog_storage.get_store(tx, store_id)
    if row is None:
        raise not_found("store", store_id)
    doc: dict[str, Any] = msgspec.json.decode(row["doc"])
    simulate = changes.pop(SIMULATE, None)
    if simulate is not None:
        await lifecycle_storage.set_simulated(tx, store_id, bool(simulate))
    for key, value in changes.items():
        if key == "metadata":
            doc.setdefault("metadata", {}).update(value)
        else:
            doc[key] = value
    ensure_stored(doc)
    await storage.save_store_doc(tx, store_id, doc)
    _touch(tx, store=True)
    return await admin_store(tx, store_id)


async def admin_store(db: Database | Transaction, store_id: str) -> dict[str, Any]:
    """The store as its merchant sees it: its document and whether it is simulated."""
    row = await catalog_storage.get_store(db, store_id)
    if row is None:
        raise not_found("store", store_id)
    doc = decode(row["doc"])
    doc[SIMULATE] = await lifecycle_storage.is_simulated(db, store_id)
    return doc


async def put_catalog(tx: Transaction, store_id: str, catalog: dict[str, Any]) -> bool:
    """Create or replace a catalog's head (its items are written one by one)."""
    existing = await storage.catalog_row(tx, catalog["id"])
    if existing is not None and existing["store_id"] != store_id:
        raise validation_error("/id", "is the id of another store's catalog", catalog["id"])
    doc = {key: value for key, value in catalog.items() if key != "items"}
    ensure_stored(doc)
    before = None if existing is None else decode(existing["doc"])
    created = await storage.upsert_catalog(tx, catalog["id"], store_id, doc)
    if before is not None and before != doc:
        _touch(tx)
    if created:
        row = await catalog_storage.get_store(tx, store_id)
        assert row is not None
        store_doc: dict[str, Any] = msgspec.json.decode(row["doc"])
        ids = store_doc.setdefault("catalogIds", [])
        if catalog["id"] not in ids:
            ids.append(catalog["id"])
            await storage.save_store_doc(tx, store_id, store_doc)
        _touch(tx, store=True)
    return created


async def free_id(tx: Transaction, table: str, base: str, salt: str) -> str:
    """`base`, or `base` with a suffix derived from `salt` when `base` is already used (the
    same salt gives the same id, so re-imports find it again)."""
    if not await storage.id_taken(tx, table, base):
        return base
    return f"{base}_{hashlib.sha256(salt.encode()).hexdigest()[:6]}"


async def default_catalog(tx: Transaction, store_id: str) -> str:
    """The store's first catalog, created ("Products") when it has none."""
    existing = await storage.store_catalog_ids(tx, store_id)
    if existing:
        return existing[0]
    catalog_id = await free_id(tx, "catalogs", f"cat_{store_id.removeprefix('store_')}",
                               store_id)
    await put_catalog(tx, store_id, {"id": catalog_id, "name": "Products", "description": ""})
    return catalog_id


# --- items ------------------------------------------------------------------------------------

@dataclass
class ItemWrite:
    item: dict[str, Any]
    created: bool
    changed: bool = True
    previous: dict[str, Any] | None = field(default=None)


async def put_item(tx: Transaction, store_id: str, catalog_id: str, item: dict[str, Any],
                   status: str = "active", *, new_store: bool = False) -> ItemWrite:
    """Create or replace one item (document, status and every stock row) of a store.

    `new_store`: the store was created in this transaction (seed, a new import), so the item
    is new and nobody can have subscribed to it: the comparison and webhooks are skipped (they
    tripled the time of seeding the sample stores)."""
    ensure_stored(item)
    if new_store:
        await storage.upsert_item(tx, item, catalog_id, store_id, status)
        await storage.replace_stock(tx, item["id"], stock_rows(item))
        _touch(tx)
        return ItemWrite(item, True)
    existing = await storage.item_row(tx, item["id"])
    if existing is not None and existing["store_id"] != store_id:
        raise validation_error("/id", "is the id of another store's item", item["id"])
    previous = None if existing is None \
        else admin_item(existing, await storage.item_stock(tx, item["id"]))
    created = await storage.upsert_item(tx, item, catalog_id, store_id, status)
    await storage.replace_stock(tx, item["id"], stock_rows(item))
    after = await load_item(tx, item["id"])
    if previous is not None and previous == after:
        return ItemWrite(after, False, False, previous)
    _touch(tx)
    await _emit(tx, store_id, "product.created" if created else "product.updated", after,
                previous)
    return ItemWrite(after, created, True, previous)


async def set_status(tx: Transaction, item_id: str, status: str) -> dict[str, Any]:
    before = await load_item(tx, item_id)
    if before["status"] == status:
        return before
    await storage.set_item_status(tx, item_id, status)
    after = {**before, "status": status}
    _touch(tx)
    await _emit(tx, before["storeId"], "product.updated", after, before)
    return after


def _check_stock_target(item: dict[str, Any], variant_id: str) -> None:
    variants = item.get("metadata", {}).get(VARIANTS, {}).get("variants", [])
    ids = [variant["id"] for variant in variants]
    if ids and variant_id not in ids:
        raise validation_error("/variantId", "must name one of the item's variants"
                               if variant_id else "is required: this item has variants",
                               variant_id or None)
    if not ids and variant_id:
        raise validation_error("/variantId", "must be left out: this item has no variants",
                               variant_id)


async def _inventory_event(tx: Transaction, item: dict[str, Any], variant_id: str,
                           before: int | None, after: int | None) -> None:
    _touch(tx)
    await _emit(tx, item["storeId"], "inventory.updated",
                {"itemId": item["id"], "variantId": variant_id or None,
                 "storeId": item["storeId"], "quantity": after, "previousQuantity": before})


async def set_stock(tx: Transaction, item_id: str, variant_id: str, quantity: int | None
                    ) -> dict[str, Any]:
    """Units on hand of the item or one variant; None for unlimited."""
    item = await load_item(tx, item_id)
    _check_stock_target(item, variant_id)
    before = (await storage.item_stock(tx, item_id)).get(variant_id)
    await storage.set_stock(tx, item_id, variant_id, quantity)
    if before != quantity:
        await _inventory_event(tx, item, variant_id, before, quantity)
    return await load_item(tx, item_id)


async def adjust_stock(tx: Transaction, item_id: str, variant_id: str, delta: int
                       ) -> dict[str, Any]:
    """Add `delta` units atomically (negative removes); never below zero (409)."""
    item = await load_item(tx, item_id)
    _check_stock_target(item, variant_id)
    before = (await storage.item_stock(tx, item_id)).get(variant_id)
    if before is None:
        raise validation_error("/delta", "cannot change stock that is not counted (unlimited): "
                               "set a quantity first")
    after = await storage.adjust_stock(tx, item_id, variant_id, delta)
    if after is None:
        raise CommerceError(409, "insufficient_stock",
                            f"Only {before} in stock: cannot remove {-delta}.",
                            details=[{"type": "business_logic", "resourceId": item_id,
                                      "field": "/delta", "reason": "insufficient_stock",
                                      "availableQuantity": before}],
                            params={"itemId": item_id, "availableQuantity": before})
    if delta:
        await _inventory_event(tx, item, variant_id, before, after)
    return await load_item(tx, item_id)


def merged(item: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """The item document with `changes` applied (metadata entries one by one, null removes)."""
    doc = copy.deepcopy({key: value for key, value in item.items()
                         if key not in ("storeId", "catalogId", "status")})
    for key, value in changes.items():
        if key == "metadata":
            metadata = doc.setdefault("metadata", {})
            for name, entry in value.items():
                if entry is None:
                    metadata.pop(name, None)
                else:
                    metadata[name] = entry
        else:
            doc[key] = value
    return doc


# --- promotions -------------------------------------------------------------------------------

async def put_promotion(tx: Transaction, store_id: str, promotion: dict[str, Any]) -> bool:
    ensure_stored(promotion)
    created = await storage.upsert_promotion(tx, store_id, promotion)
    _touch(tx, store=True)
    return created


async def delete_promotion(tx: Transaction, store_id: str, code: str) -> None:
    if not await storage.delete_promotion(tx, store_id, code):
        raise not_found("promotion", code)
    _touch(tx, store=True)
